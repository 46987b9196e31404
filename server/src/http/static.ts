/**
 * Serves the built web app (web/dist): files as they are, and index.html for any other non-API
 * GET so that client-side (history) routes survive a reload.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import { Readable } from 'node:stream';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './context';
import { contentSecurityPolicy } from './middleware';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
};

function fileResponse(file: string, size: number, immutable: boolean, head: boolean): Response {
  const headers = {
    'content-type': TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
    'content-length': String(size),
    // Vite fingerprints everything under assets/; index.html must always be revalidated.
    'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
  };
  if (head) return new Response(null, { headers });
  const stream = Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>;
  return new Response(stream, { headers });
}

/**
 * index.html with a fresh style nonce: Fluent UI writes its styles into <style> elements at run
 * time, and the page's CSP admits them by this nonce (read by the app from the csp-nonce meta).
 * The built page has no inline script (the browser test checks), so scripts need no nonce.
 */
function appShell(file: string, head: boolean): Response {
  const nonce = randomBytes(18).toString('base64');
  const html = readFileSync(file, 'utf8').replace(
    /<head>/i,
    `<head>\n    <meta name="csp-nonce" content="${nonce}" />`,
  );
  const body = Buffer.from(html, 'utf8');
  const headers = {
    'content-type': TYPES['.html']!,
    'content-length': String(body.length),
    'cache-control': 'no-cache',
    'content-security-policy': contentSecurityPolicy(nonce),
  };
  return new Response(head ? null : body, { headers });
}

/** `isApiPath` paths are never answered from the web app, so their 404 stays an envelope. */
export function serveWebApp(root: string, isApiPath: (path: string) => boolean): MiddlewareHandler<AppEnv> {
  const base = normalize(root);
  return async (c, next) => {
    const method = c.req.method;
    if ((method !== 'GET' && method !== 'HEAD') || isApiPath(c.req.path)) return next();
    const index = join(base, 'index.html');
    if (!existsSync(index)) return next();
    let relative: string;
    try {
      relative = decodeURIComponent(c.req.path);
    } catch {
      return next();
    }
    const candidate = normalize(join(base, relative));
    if (candidate === index) return appShell(index, method === 'HEAD');
    if (candidate.startsWith(base + sep) && existsSync(candidate) && statSync(candidate).isFile()) {
      const immutable = candidate.startsWith(join(base, 'assets') + sep);
      return fileResponse(candidate, statSync(candidate).size, immutable, method === 'HEAD');
    }
    // A missing asset is a real 404, not the app shell.
    if (/\.[a-z0-9]+$/i.test(relative)) return next();
    return appShell(index, method === 'HEAD');
  };
}
