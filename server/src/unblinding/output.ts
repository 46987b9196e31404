/**
 * Blinded and unblinded outputs of a case (issue 18 item 5): the one rule every producer of a file
 * (reports, E2B export, line listing) asks. Blinded: the study drugs' identity masked (the engine's
 * blindCase, schemas/reports/blinding.json). Unblinded: only for a holder of the blind-break
 * permission in the case's own project, and with the revealed assignment applied (outcome.ts) only
 * when the caller may see that case's assignment (the approver, the blind owner, the designated
 * unblinding person); anyone else's unblinded output is the case as entered.
 */
import { BLINDED_IN_TEXT, blindCase, documentValuesAt } from '@pv/engine';
import type { Caller } from '../http';
import { errors } from '../http';
import { caseContent, C as caseCollections, projectIdOf } from '../cases';
import { findProject } from '../projects';
import type { Handle, StoredDoc } from '../store';
import { InvalidStoreRequestError } from '../store';
import type { UnblindingApplication } from './applications';
import { mayReveal, PERMISSIONS } from './applications';
import { U } from './blinding-list';
import { outcomeDeclarationOf, unblindDocument } from './outcome';

export type Blinding = 'blinded' | 'unblinded';
export const BLINDINGS: readonly Blinding[] = ['blinded', 'unblinded'];

/** The unblinded-view permission: the case header's blind-break, in the case's own project. */
export const UNBLINDED_VIEW = PERMISSIONS.caseHeader;

/** May the caller have unblinded outputs of the cases of this project? */
export function mayUnblind(caller: Caller, projectId: string | null): Promise<boolean> {
  return caller.authorize(UNBLINDED_VIEW, { projectId });
}

/** The variant the caller gets: the one asked for (unblinded refused without the permission), else the best allowed. */
export async function blindingFor(
  caller: Caller,
  projectId: string | null,
  requested?: Blinding,
): Promise<Blinding> {
  const allowed = await mayUnblind(caller, projectId);
  if (requested === 'unblinded' && !allowed) throw errors.forbidden('unblinding.unblindedForbidden');
  return requested ?? (allowed ? 'unblinded' : 'blinded');
}

/** The case's completed applications with an assignment, newest first, for many cases at once. */
async function revealedApplications(handle: Handle, caseIds: string[]) {
  let found: StoredDoc<UnblindingApplication>[];
  try {
    found = await handle
      .collection<UnblindingApplication>(U.applications)
      .find({ caseId: { $in: caseIds }, status: 'completed' }, { sort: { appliedAt: -1 } });
  } catch (error) {
    // A platform without this module's collections (a test rig of another module) has no applications.
    if (error instanceof InvalidStoreRequestError) return new Map<string, StoredDoc<UnblindingApplication>>();
    throw error;
  }
  const latest = new Map<string, StoredDoc<UnblindingApplication>>();
  for (const app of found) if (app.assignment && !latest.has(app.caseId)) latest.set(app.caseId, app);
  return latest;
}

/**
 * The documents of cases as the caller's output in the variant given (blindingFor decides it
 * first): blinded, or unblinded with each revealed assignment the caller may see applied.
 */
export async function casesForOutput<T extends Record<string, unknown>>(
  caller: Caller,
  cases: { caseId: string; document: T }[],
  blinding: Blinding,
): Promise<T[]> {
  if (blinding === 'blinded') return cases.map(({ document }) => blindCase(document));
  const apps = await revealedApplications(
    caller.tenant,
    cases.map((c) => c.caseId),
  );
  const declarations = new Map<string, ReturnType<typeof outcomeDeclarationOf>>();
  const out: T[] = [];
  for (const { caseId, document } of cases) {
    const app = apps.get(caseId);
    if (!app || !(await mayReveal(caller, app))) {
      out.push(document);
      continue;
    }
    const projectId = app.projectId ?? '';
    if (!declarations.has(projectId))
      declarations.set(projectId, outcomeDeclarationOf(await findProject(caller.tenant, projectId)));
    out.push(unblindDocument(document, app.assignment!, declarations.get(projectId)!).document);
  }
  return out;
}

const BLINDED_TEXT = 'BLINDED';

/**
 * A blinded document as an interchange file needs it: a masked drug name reads BLINDED (G.k.2.2 is
 * mandatory), every other masked value is left out (codes, numbers and dates have no "blinded").
 */
export function blindedForInterchange<T>(node: T, key = ''): T {
  if (typeof node === 'string')
    return (
      node.includes(BLINDED_IN_TEXT) ? node.replaceAll(BLINDED_IN_TEXT, `[${BLINDED_TEXT}]`) : node
    ) as T;
  if (Array.isArray(node)) return node.map((item) => blindedForInterchange(item, key)) as T;
  if (!node || typeof node !== 'object') return node;
  if ((node as { blinded?: unknown }).blinded === true)
    return (key === 'drugName' ? BLINDED_TEXT : undefined) as T;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    const value = blindedForInterchange(v, k);
    if (value !== undefined) out[k] = value;
  }
  return out as T;
}

/**
 * The E2B export's variant and documents: the one asked for, refused unblinded unless the caller
 * holds the permission in every case's project; unasked, unblinded only when they do.
 */
export function interchangeOutput(caller: Caller, requested?: Blinding) {
  return async <T extends Record<string, unknown>>(
    cases: { caseId: string; document: T; projectId: string | null }[],
  ): Promise<{ variant: Blinding; documents: T[] }> => {
    let variant: Blinding = requested ?? 'unblinded';
    for (const projectId of new Set(cases.map((c) => c.projectId)))
      if ((await blindingFor(caller, projectId, requested)) === 'blinded') variant = 'blinded';
    const documents = await casesForOutput(caller, cases, variant);
    return {
      variant,
      documents: variant === 'blinded' ? documents.map((d) => blindedForInterchange(d)) : documents,
    };
  };
}

/** One case's document as the caller's output; `requested` absent gives the best variant allowed. */
export async function caseForOutput<T extends Record<string, unknown>>(
  caller: Caller,
  caseId: string,
  document: T,
  projectId: string | null,
  requested?: Blinding,
): Promise<{ document: T; blinding: Blinding }> {
  const blinding = await blindingFor(caller, projectId, requested);
  const [output] = await casesForOutput(caller, [{ caseId, document }], blinding);
  return { document: output!, blinding };
}

/** List columns whose values depend on the blinding: the drugs' (masked or revealed) and the re-assessed SUSAR flag. */
const dependsOnBlinding = (field: string) => field.startsWith('/drugs/') || field === '/state/isSusar';

/** Refuses an unblinded listing to a caller who holds the permission in none of the projects it covers. */
export async function requireListingBlinding(
  caller: Caller,
  projectIds: (string | null)[],
  requested?: Blinding,
): Promise<void> {
  if (requested !== 'unblinded') return;
  // No project named: every project of the tenant, the permission asked tenant-wide.
  for (const projectId of projectIds.length ? projectIds : [null])
    if (await mayUnblind(caller, projectId)) return;
  throw errors.forbidden('unblinding.unblindedForbidden');
}

/**
 * A line listing's blinding-dependent column values for a chunk of cases, by case then field: each
 * case blinded unless unblinded was asked for (or nothing was asked) and the caller may have it in
 * the case's project; masked values read `blindedLabel`.
 */
export async function listingValues(
  caller: Caller,
  caseIds: string[],
  fields: string[],
  requested: Blinding | undefined,
  blindedLabel: string,
): Promise<Map<string, Record<string, unknown[]>>> {
  const wanted = fields.filter(dependsOnBlinding);
  const answer = new Map<string, Record<string, unknown[]>>();
  if (!wanted.length || !caseIds.length) return answer;
  const stored = await caller.tenant.collection(caseCollections.cases).find({ _id: { $in: caseIds } });
  const allowed = new Map<string | null, boolean>();
  const groups: Record<Blinding, { caseId: string; document: Record<string, unknown> }[]> = {
    blinded: [],
    unblinded: [],
  };
  for (const doc of stored) {
    const document = caseContent(doc) as unknown as Record<string, unknown>;
    const projectId = projectIdOf(doc);
    if (!allowed.has(projectId)) allowed.set(projectId, await mayUnblind(caller, projectId));
    const variant = requested !== 'blinded' && allowed.get(projectId) ? 'unblinded' : 'blinded';
    groups[variant].push({ caseId: doc._id, document });
  }
  const label = (value: unknown): unknown => {
    if (value && typeof value === 'object' && (value as { blinded?: unknown }).blinded === true)
      return blindedLabel;
    return typeof value === 'string' ? value.replaceAll(BLINDED_IN_TEXT, `[${blindedLabel}]`) : value;
  };
  for (const variant of BLINDINGS) {
    const documents = await casesForOutput(caller, groups[variant], variant);
    groups[variant].forEach(({ caseId }, i) => {
      answer.set(
        caseId,
        Object.fromEntries(
          wanted.map((field) => [
            field,
            documentValuesAt(documents[i], field).map(({ value }) => label(value)),
          ]),
        ),
      );
    });
  }
  return answer;
}
