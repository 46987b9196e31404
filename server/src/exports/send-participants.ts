/**
 * What other modules do with a send, in its transaction (submission plans check and keep the late
 * reason of the reports the file carries). A participant refusing (400) leaves the export unsent.
 */
import { mountedRegistry } from '../http';
import type { Handle, StoredDoc } from '../store';
import type { ExportRecord } from './service';

export interface SendEvent {
  /** The reason the sender gave for a submission past its due date, if any. */
  lateReason: string | null;
  now: Date;
}

export type SendParticipant = (tx: Handle, record: StoredDoc<ExportRecord>, send: SendEvent) => Promise<void>;

const participants = mountedRegistry<SendParticipant>();

/** Registers (or replaces, by name) what a module checks and writes with every send. */
export function provideSendParticipant(name: string, participant: SendParticipant): void {
  participants.set(name, participant);
}

export async function runSendParticipants(
  tx: Handle,
  record: StoredDoc<ExportRecord>,
  send: SendEvent,
): Promise<void> {
  for (const participant of participants.values()) await participant(tx, record, send);
}
