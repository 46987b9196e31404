/**
 * Structured logs: one JSON object per line on stdout. Callers pass only what is safe to keep;
 * the request log never includes headers, bodies or query strings (tokens, passwords and codes
 * travel there).
 */
import { systemClock } from '../clock';

export interface LogLine {
  level: 'debug' | 'info' | 'warn' | 'error';
  msg: string;
  [field: string]: unknown;
}

export type Logger = (line: LogLine) => void;

/** Log lines carry the system clock's time (operators correlate them with other systems' logs). */
export const stdoutLogger: Logger = (line) => {
  process.stdout.write(`${JSON.stringify({ time: systemClock.now().toISOString(), ...line })}\n`);
};

export const silentLogger: Logger = () => {};
