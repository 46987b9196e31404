/**
 * Helpers for server tests: a platform over a given store, requests with the usual headers, and
 * the envelope of a response.
 */
import type { Hono } from 'hono';
import type { CreateAppOptions, Platform } from './app';
import { createPlatform } from './app';
import type { AppEnv } from './http';
import type { Envelope } from './http';
import type { LogLine } from './http';

export interface TestPlatform extends Platform {
  logs: LogLine[];
}

/** A platform with a collecting logger and no web app. */
export function testPlatform(options: CreateAppOptions): TestPlatform {
  const logs: LogLine[] = [];
  const platform = createPlatform({
    logger: (line) => logs.push(line),
    ...options,
    config: { webDist: null, ...options.config },
  });
  return { ...platform, logs };
}

export async function call(
  app: Hono<AppEnv>,
  method: string,
  path: string,
  options: {
    body?: unknown;
    rawBody?: BodyInit;
    headers?: Record<string, string>;
    token?: string;
    lang?: 'cn' | 'en';
  } = {},
): Promise<{ status: number; headers: Headers; body: Envelope }> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.lang) headers['lang-type'] = options.lang;
  let body: BodyInit | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  // A streamed body needs half duplex under Node's fetch.
  const init = { method, headers, body, ...(body instanceof ReadableStream ? { duplex: 'half' } : {}) };
  const response = await app.request(path, init as RequestInit);
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: JSON.parse(text) as Envelope };
}
