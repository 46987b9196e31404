/**
 * The blinding list ("blinding bottom") of a project: versions uploaded by the blind owner, kept in
 * collections of their own (never beside case data), each upload a new version and the previous
 * one kept. Every read of the list's content - the owner's view, the unblinding person's lookup of
 * one case - is a document of `blindingListReads` (audited), so the audit trail says who saw what.
 */
import type { Caller } from '../http';
import { AppError, Code, errors } from '../http';
import type { Handle, StoredDoc } from '../store';
import type { BlindingRow, Lang, ListProblem, TreatmentGroup } from './workbook';
import { readBlindingList, WorkbookRefused } from './workbook';

export const U = {
  lists: 'blindingLists',
  entries: 'blindingListEntries',
  reads: 'blindingListReads',
  applications: 'unblindingApplications',
  batches: 'unblindingBatches',
} as const;

export interface BlindingListVersion {
  projectId: string;
  version: number;
  current: boolean;
  fileName: string;
  rowCount: number;
  groups: TreatmentGroup[];
  uploadedBy: string;
  uploadedByName: string;
  uploadedAt: string;
}

export interface BlindingListEntry extends Omit<BlindingRow, 'row'> {
  projectId: string;
  listId: string;
  version: number;
}

export interface BlindingListRead {
  projectId: string;
  listId: string;
  version: number;
  readerId: string;
  readerName: string;
  at: string;
  /** `view` (the owner's table), `handle` (one case's assignment), `batch`. */
  purpose: 'view' | 'handle' | 'batch';
  caseId: string | null;
  /** The case's report code (C.1.1), as the read log shows it. */
  reportCode: string | null;
  randomisationNumber: string | null;
}

export const callerName = (caller: Caller): string =>
  typeof caller.principal.name === 'string' && caller.principal.name ? caller.principal.name : caller.userId;

const langOf = (caller: Caller): Lang => (caller.lang === 'en' ? 'en' : 'zh');

/** The versions of a project's list, newest first (no content: names, counts, groups' kinds). */
export async function listVersions(handle: Handle, projectId: string) {
  const versions = await handle
    .collection<BlindingListVersion>(U.lists)
    .find({ projectId }, { sort: { version: -1 }, limit: 200 });
  return versions.map(versionView);
}

export const versionView = (doc: StoredDoc<BlindingListVersion>) => ({
  id: doc._id,
  version: doc.version,
  current: doc.current,
  fileName: doc.fileName,
  rowCount: doc.rowCount,
  groupCount: doc.groups.length,
  uploadedBy: doc.uploadedBy,
  uploadedByName: doc.uploadedByName,
  uploadedAt: doc.uploadedAt,
});

export async function currentList(handle: Handle, projectId: string) {
  return handle.collection<BlindingListVersion>(U.lists).findOne({ projectId, current: true });
}

/** The refusal of a workbook: the first problem's message with its place; every problem in data. */
function refusal(caller: Caller, problems: ListProblem[]): AppError {
  const described = problems.slice(0, 200).map((p) => ({
    ...p,
    message: caller.t(p.messageKey, { ...p.params, column: p.header ?? '' }),
  }));
  const first = described[0]!;
  const where = first.column
    ? caller.t('unblinding.listCellPlace', { sheet: first.sheet, row: first.row, column: first.column })
    : caller.t('unblinding.listRowPlace', { sheet: first.sheet, row: first.row });
  return new AppError(
    Code.badRequest,
    'unblinding.listRefused',
    { where, message: first.message, count: problems.length },
    400,
    { data: { problems: described } },
  );
}

/**
 * Validates and stores an uploaded workbook as the project's next version. Refused files store
 * nothing: the previous version stays current.
 */
export async function uploadList(
  caller: Caller,
  projectId: string,
  fileName: string,
  bytes: Uint8Array,
): Promise<StoredDoc<BlindingListVersion>> {
  if (!/\.xlsx$/i.test(fileName)) throw errors.badRequest('unblinding.listNotXlsx', { name: fileName });
  let parsed;
  try {
    parsed = await readBlindingList(bytes, langOf(caller));
  } catch (error) {
    if (error instanceof WorkbookRefused)
      throw errors.badRequest(error.messageKey, { name: fileName, ...error.params });
    throw error;
  }
  if (parsed.problems.length) throw refusal(caller, parsed.problems);
  const handle = caller.tenant;
  const now = caller.clock.now().toISOString();
  return handle.transaction(async (tx) => {
    const lists = tx.collection<BlindingListVersion>(U.lists);
    const [last] = await lists.find({ projectId }, { sort: { version: -1 }, limit: 1 });
    const version = (last?.version ?? 0) + 1;
    await lists.updateMany({ projectId, current: true }, { $set: { current: false } });
    const stored = await lists.insertOne({
      projectId,
      version,
      current: true,
      fileName,
      rowCount: parsed.list.rows.length,
      groups: parsed.list.groups,
      uploadedBy: caller.userId,
      uploadedByName: callerName(caller),
      uploadedAt: now,
    });
    await tx.collection<BlindingListEntry>(U.entries).insertMany(
      parsed.list.rows.map(({ row: _row, ...entry }) => ({
        ...entry,
        projectId,
        listId: stored._id,
        version,
      })),
    );
    return stored;
  });
}

async function recordRead(
  handle: Handle,
  caller: Caller,
  list: StoredDoc<BlindingListVersion>,
  purpose: BlindingListRead['purpose'],
  subject: { caseId: string; reportCode: string } | null,
  randomisationNumber: string | null,
): Promise<void> {
  await handle.collection<BlindingListRead>(U.reads).insertOne({
    projectId: list.projectId,
    listId: list._id,
    version: list.version,
    readerId: caller.userId,
    readerName: callerName(caller),
    at: caller.clock.now().toISOString(),
    purpose,
    caseId: subject?.caseId ?? null,
    reportCode: subject?.reportCode ?? null,
    randomisationNumber,
  });
}

/** The blind owner's view of one version's rows (a read, recorded). */
export async function readListRows(caller: Caller, projectId: string, version?: number) {
  const handle = caller.tenant;
  const list = version
    ? await handle.collection<BlindingListVersion>(U.lists).findOne({ projectId, version })
    : await currentList(handle, projectId);
  if (!list) throw errors.notFound('unblinding.noList');
  await recordRead(handle, caller, list, 'view', null, null);
  const rows = await handle
    .collection<BlindingListEntry>(U.entries)
    .find({ listId: list._id }, { sort: { randomisationNumber: 1 }, limit: 50_000 });
  return {
    version: versionView(list),
    groups: list.groups,
    rows: rows.map(
      ({ randomisationNumber, subjectNumber, treatmentGroup, productNumber, kitBatch, route }) => ({
        randomisationNumber,
        subjectNumber,
        treatmentGroup,
        productNumber,
        kitBatch,
        route,
      }),
    ),
  };
}

/** Who read the project's list, newest first. */
export async function listReads(handle: Handle, projectId: string) {
  const reads = await handle
    .collection<BlindingListRead>(U.reads)
    .find({ projectId }, { sort: { at: -1 }, limit: 500 });
  return reads.map(({ _id, tenantId: _t, createdBy: _c, updatedBy: _u, ...read }) => ({ id: _id, ...read }));
}

export interface Assignment {
  listVersion: number;
  randomisationNumber: string;
  subjectNumber: string | null;
  treatmentGroup: string;
  groupKind: TreatmentGroup['kind'] | null;
  productName: string | null;
  productNumber: string;
  kitBatch: string | null;
  route: string | null;
}

/**
 * The assignment of one case, looked up by the case's subject number (or investigation number)
 * among the list's subject and randomisation numbers; the read is recorded with the case.
 */
export async function lookupAssignment(
  handle: Handle,
  caller: Caller,
  projectId: string,
  /** The case, and the numbers it names its subject by (subject number, investigation number). */
  subject: { caseId: string; reportCode: string; numbers: string[] },
  purpose: 'handle' | 'batch' = 'handle',
  /** The current list when the caller already read it (a batch reads it once). */
  known?: StoredDoc<BlindingListVersion> | null,
): Promise<Assignment> {
  const list = known ?? (await currentList(handle, projectId));
  if (!list) throw errors.badRequest('unblinding.noList');
  const entries = handle.collection<BlindingListEntry>(U.entries);
  let entry: StoredDoc<BlindingListEntry> | null = null;
  const numbers = subject.numbers.filter(Boolean);
  for (const number of numbers) {
    entry =
      (await entries.findOne({ listId: list._id, subjectNumber: number })) ??
      (await entries.findOne({ listId: list._id, randomisationNumber: number }));
    if (entry) break;
  }
  if (!entry) throw errors.badRequest('unblinding.notInList', { number: numbers.join(', ') || '-' });
  await recordRead(handle, caller, list, purpose, subject, entry.randomisationNumber);
  const group = list.groups.find((g) => g.name === entry.treatmentGroup);
  return {
    listVersion: list.version,
    randomisationNumber: entry.randomisationNumber,
    subjectNumber: entry.subjectNumber,
    treatmentGroup: entry.treatmentGroup,
    groupKind: group?.kind ?? null,
    productName: group?.productName ?? null,
    productNumber: entry.productNumber,
    kitBatch: entry.kitBatch,
    route: entry.route,
  };
}
