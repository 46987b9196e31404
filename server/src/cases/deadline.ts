/**
 * Where a case's reporting deadline comes from: the module that knows the project's receivers and
 * their authorities' rules (submissions) provides it when it loads, so case management computes no
 * clock of its own and does not import the modules built on it. Without a provider no case has a
 * deadline.
 */
import type { CaseDeadline } from '@pv/engine';
import { mountedRegistry } from '../http';
import type { Filter, Handle } from '../store';
import { C } from './collections';
import type { CaseDocument } from './document';
import { caseContent } from './document';

/** The deadline of a case as saved now (its summary's transmissions are read by the provider). */
export type CaseDeadlineSource = (
  handle: Handle,
  caseId: string,
  doc: CaseDocument,
) => Promise<CaseDeadline | null>;

// Per platform (mounted.ts): a rig that does not mount the provider's module has no deadlines.
const sources = mountedRegistry<CaseDeadlineSource>();

export function provideCaseDeadline(provider: CaseDeadlineSource): void {
  sources.set('deadline', provider);
}

export async function deadlineOf(
  handle: Handle,
  caseId: string,
  doc: CaseDocument,
): Promise<CaseDeadline | null> {
  const source = sources.get('deadline');
  return source ? source(handle, caseId, doc) : null;
}

/** Recomputes the summaries' deadlines of the cases the filter selects (a project's receivers changed, a seed). */
export async function refreshCaseDeadlines(handle: Handle, filter: Filter = {}): Promise<number> {
  const cases = handle.collection<CaseDocument>(C.cases);
  let count = 0;
  for (const stored of await cases.find(filter)) {
    const deadline = await deadlineOf(handle, stored._id, caseContent(stored));
    await handle.collection(C.summaries).updateOne({ _id: stored._id }, { $set: { deadline } });
    count++;
  }
  return count;
}
