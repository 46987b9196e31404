/**
 * Structured logs: one JSON object per line on stdout. Callers pass only what is safe to keep;
 * the request log never includes headers, bodies or query strings (tokens, passwords and codes
 * travel there).
 */
export interface LogLine {
  level: 'debug' | 'info' | 'warn' | 'error';
  msg: string;
  [field: string]: unknown;
}

export type Logger = (line: LogLine) => void;

export const stdoutLogger: Logger = (line) => {
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), ...line })}\n`);
};

export const silentLogger: Logger = () => {};
