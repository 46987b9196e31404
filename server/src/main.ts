/**
 * The server process: PORT (default 3000), DATA_DIR (default ./data), MONGODB_URI (optional:
 * use MongoDB instead of the embedded store), WEB_DIST (the built web app, default web/dist).
 * Stops cleanly on SIGINT and SIGTERM.
 */
import { startServer } from './http/server';
import { stdoutLogger } from './http/log';
import { describeError } from './http/errors';

const port = Number(process.env.PORT ?? 3000);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  stdoutLogger({ level: 'error', msg: `PORT must be a port number, got "${process.env.PORT}"` });
  process.exit(2);
}

try {
  const server = await startServer({
    port,
    host: process.env.HOST,
    dataDir: process.env.DATA_DIR || './data',
    mongodbUri: process.env.MONGODB_URI || undefined,
    ...(process.env.WEB_DIST ? { config: { webDist: process.env.WEB_DIST } } : {}),
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
