/**
 * Every check run on a stored case - the user's manual check, the check of a save, the check of a
 * workflow move that validates (submit) - told to the modules that log them (the queries module's
 * report check log, /checklog/reportCheck). A listener's failure does not undo the check's
 * outcome: the log is written after the check, outside the save.
 */
import type { Caller } from '../http';
import { mountedRegistry } from '../http';
import type { CaseDocument } from './document';

export interface CaseCheckRun {
  caseId: string;
  /** manual, save, or the workflow action's id (submit ...). */
  kind: string;
  /** The document checked (its version and report code; a manual check may be of unsaved data). */
  doc: CaseDocument;
  errorCount: number;
  warningCount: number;
  environment: string;
}

export type CheckRunListener = (caller: Caller, run: CaseCheckRun) => Promise<void>;

const listeners = mountedRegistry<CheckRunListener>();

/** Registers (or replaces, by module name) who is told of every check run. */
export function provideCheckRunListener(name: string, listener: CheckRunListener): void {
  listeners.set(name, listener);
}

export async function recordCheckRun(caller: Caller, run: CaseCheckRun): Promise<void> {
  for (const listener of listeners.values()) await listener(caller, run);
}
