/**
 * What other modules write with a case save, in the save's own transaction: the queries module's
 * QC records (a change at data QC needs a reason per field) and a query's reply linked to the data
 * change it made. A participant that throws refuses the save: nothing of it is written (the case,
 * its audit entry, the participant's records).
 */
import type { Caller } from '../http';
import { mountedRegistry } from '../http';
import type { Handle, StoredDoc } from '../store';
import type { CaseDocument } from './document';
import type { Project } from './projects';

/** A reason given for one changed field (JSON pointer), as the data QC form sends it. */
export interface FieldCorrection {
  pointer: string;
  reason: string;
}

/** The body schema of the reasons a save gives (the case save's and a query reply's change). */
export const FIELD_CORRECTIONS_SCHEMA = {
  type: 'array',
  maxItems: 500,
  items: {
    type: 'object',
    required: ['pointer', 'reason'],
    additionalProperties: false,
    properties: { pointer: { type: 'string', maxLength: 500 }, reason: { type: 'string', maxLength: 2000 } },
  },
} as const;

export interface CaseSaveEvent {
  caseId: string;
  /** The case as it was read, and as it is written. */
  before: CaseDocument;
  after: CaseDocument;
  /** The case's revision after the write. */
  rev: number;
  project: StoredDoc<Project> | null;
  corrections: FieldCorrection[];
}

export type SaveParticipant = (tx: Handle, caller: Caller, save: CaseSaveEvent) => Promise<void>;

const participants = mountedRegistry<SaveParticipant>();

/** Registers (or replaces, by name) what a module writes with every case save. */
export function provideSaveParticipant(name: string, participant: SaveParticipant): void {
  participants.set(name, participant);
}

export async function runSaveParticipants(tx: Handle, caller: Caller, save: CaseSaveEvent): Promise<void> {
  for (const participant of participants.values()) await participant(tx, caller, save);
}
