/**
 * The server process: PORT (default 3000), DATA_DIR (default ./data), MONGODB_URI (optional:
 * use MongoDB instead of the embedded store), WEB_DIST (the built web app, default web/dist),
 * PV_PUBLIC_URL (the address users reach, for links in messages), PV_TRUSTED_PROXIES (peers whose
 * X-Forwarded-For is believed).
 * Stops cleanly on SIGINT and SIGTERM.
 */
import { startServer } from './server';
import { stdoutLogger } from './http';
import { describeError } from './http';
import { parseTrustedProxies, publicUrlOf } from './http';

const port = Number(process.env.PORT ?? 3000);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  stdoutLogger({ level: 'error', msg: `PORT must be a port number, got "${process.env.PORT}"` });
  process.exit(2);
}

// Links in messages are built from PV_PUBLIC_URL (default http://localhost:<PORT>), never from Host.
let publicUrl: string | undefined;
let trustedProxies: string[];
try {
  publicUrl = publicUrlOf(process.env.PV_PUBLIC_URL);
  trustedProxies = parseTrustedProxies(process.env.PV_TRUSTED_PROXIES);
} catch (error) {
  stdoutLogger({ level: 'error', msg: (error as Error).message });
  process.exit(2);
}

try {
  const server = await startServer({
    port,
    host: process.env.HOST,
    dataDir: process.env.DATA_DIR || './data',
    mongodbUri: process.env.MONGODB_URI || undefined,
    config: {
      ...(process.env.WEB_DIST ? { webDist: process.env.WEB_DIST } : {}),
      ...(publicUrl ? { publicUrl } : {}),
      trustedProxies,
    },
  });
  let signals = 0;
  const shutdown = (signal: string) => {
    signals += 1;
    if (signals > 1) process.exit(130); // a second signal means now
    stdoutLogger({ level: 'info', msg: 'shutting down', signal });
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
} catch (error) {
  stdoutLogger({ level: 'error', msg: 'server failed to start', error: describeError(error) });
  process.exit(1);
}
