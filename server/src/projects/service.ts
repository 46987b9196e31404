/**
 * Project administration: create and edit with validation, soft delete and restore, lock and
 * unlock confirmed by the project code, study sites and project drugs. Projects live in the
 * tenant's `projects` collection that this module owns (model.ts); case management reads them here.
 */
import { randomUUID } from 'node:crypto';
import type { Project, ProjectDrug, StudySite } from './model';
import { PROJECTS } from './model';
import { errors, mountedRegistry } from '../http';
import type { Handle, StoredDoc, TenantHandle } from '../store';
import { RevisionConflictError } from '../store';
import { assertSponsorLimit, assertTenantLimit } from '../tenancy';
import { C } from '../auth';
import type { Store } from '../store';
import { assertCountry } from './entities';
import { CATALOGUE, type Hospital, type CatalogueDrug } from './catalogue';
import { textMatch } from '../store';

/** The fields an administrator writes; the rest (lock, sites, drugs) have their own routes. */
export type ProjectInput = Omit<
  Project,
  | 'locked'
  | 'lockedAt'
  | 'lockedBy'
  | 'lockedByName'
  | 'sites'
  | 'drugs'
  | 'deleted'
  | 'deletedAt'
  | 'workflowOverride'
>;
export type SiteInput = Omit<StudySite, 'id'>;
export type DrugInput = Omit<ProjectDrug, 'id'>;

export function projectView(p: StoredDoc<Project>) {
  return {
    projectId: p._id,
    code: p.code,
    name: p.name,
    nameEn: p.nameEn ?? null,
    sponsor: p.sponsor ?? null,
    studyType: p.studyType ?? null,
    sponsorStudyNumber: p.sponsorStudyNumber ?? null,
    diseases: p.diseases ?? null,
    treatmentMethods: p.treatmentMethods ?? null,
    plannedEnrollment: p.plannedEnrollment ?? null,
    startDate: p.startDate ?? null,
    endDate: p.endDate ?? null,
    studyStaff: p.studyStaff ?? [],
    registrations: p.registrations ?? [],
    receiverIds: p.receiverIds ?? [],
    ageGroups: p.ageGroups ?? [],
    locked: p.locked,
    lockedAt: p.lockedAt ?? null,
    lockedBy: p.lockedBy ?? null,
    lockedByName: p.lockedByName ?? null,
    deleted: p.deleted === true,
    sites: p.sites,
    drugs: p.drugs,
    siteCount: p.sites.length,
    drugCount: p.drugs.length,
    rev: p.rev,
  };
}

/** Checks what JSON Schema cannot: dates in order, known countries, receivers of the tenant. */
async function assertProjectInput(handle: Handle, input: ProjectInput): Promise<void> {
  if (input.startDate && input.endDate && input.endDate < input.startDate)
    throw errors.badRequest('projects.endBeforeStart');
  for (const registration of input.registrations ?? []) assertCountry(registration.country);
  // Age bands in order, each above the one before: a case's age falls in one band at most.
  const bands = [...(input.ageGroups ?? [])].sort((a, b) => a.fromYears - b.fromYears);
  bands.forEach((band, i) => {
    const next = bands[i + 1];
    if (band.toYears !== undefined && band.toYears <= band.fromYears)
      throw errors.badRequest('projects.ageGroupEmpty', { name: band.nameEn });
    if (next && (band.toYears === undefined || band.toYears > next.fromYears))
      throw errors.badRequest('projects.ageGroupsOverlap', { first: band.nameEn, second: next.nameEn });
  });
  if (input.receiverIds?.length) {
    // Fail closed: without the module that knows receivers, a project names none.
    const receiverCheck = receiverChecks.get('receivers');
    if (!receiverCheck) throw errors.badRequest('projects.receiversUnavailable');
    await receiverCheck(handle, input.receiverIds);
  }
}

/** Refuses (400) receiver ids that are no receiver of the handle's tenant (the submissions module). */
export type ProjectReceiverCheck = (handle: Handle, receiverIds: string[]) => Promise<void>;
const receiverChecks = mountedRegistry<ProjectReceiverCheck>();

export function provideProjectReceiverCheck(check: ProjectReceiverCheck): void {
  receiverChecks.set('receivers', check);
}

/** The non-deleted project, or 404. */
export async function requireProject(handle: Handle, projectId: string): Promise<StoredDoc<Project>> {
  const project = await handle.collection<Project>(PROJECTS).findOne({ _id: projectId });
  if (!project || project.deleted) throw errors.notFound('projects.notFound');
  return project;
}

function assertUnlocked(project: Project): void {
  if (project.locked) throw errors.badRequest('projects.locked', { code: project.code });
}

async function assertCodeFree(handle: Handle, code: string, except?: string): Promise<void> {
  // Codes compare case-insensitively: report codes and exports name projects by it.
  const same = await handle
    .collection<Project>(PROJECTS)
    .find({ code: textMatch(code, { mode: 'exact' }) }, { limit: 2 });
  if (same.some((p) => p._id !== except)) throw errors.conflict('projects.codeTaken', { code });
}

/** The sponsors named on the tenant's projects in use (not deleted), but for `exceptId`. */
async function otherSponsors(handle: Handle, exceptId?: string): Promise<(string | undefined)[]> {
  const projects = await handle.collection<Project>(PROJECTS).find(
    { deleted: { $ne: true }, ...(exceptId ? { _id: { $ne: exceptId } } : {}) },
    {
      projection: { sponsor: 1 },
    },
  );
  return projects.map((p) => p.sponsor);
}

export async function createProject(
  store: Store,
  handle: TenantHandle,
  input: ProjectInput,
): Promise<StoredDoc<Project>> {
  await assertProjectInput(handle, input);
  await assertCodeFree(handle, input.code);
  const projects = handle.collection<Project>(PROJECTS);
  await assertTenantLimit(
    store,
    handle.tenantId,
    'projects',
    await projects.count({ deleted: { $ne: true } }),
  );
  await assertSponsorLimit(store, handle.tenantId, await otherSponsors(handle), input.sponsor);
  return projects.insertOne({
    _id: randomUUID(),
    ...input,
    locked: false,
    sites: [],
    drugs: [],
    reportCodeGeneratorId: null,
  });
}

export async function updateProject(
  store: Store,
  handle: TenantHandle,
  projectId: string,
  input: ProjectInput,
  rev: number,
): Promise<StoredDoc<Project>> {
  const project = await requireProject(handle, projectId);
  assertUnlocked(project);
  await assertProjectInput(handle, input);
  if (input.code !== project.code) await assertCodeFree(handle, input.code, projectId);
  await assertSponsorLimit(store, handle.tenantId, await otherSponsors(handle, projectId), input.sponsor);
  // Optional fields left out of the form are cleared, not kept: the form sends the whole project.
  const cleared = Object.fromEntries(
    OPTIONAL_FIELDS.filter((field) => !(field in input)).map((field) => [field, '']),
  );
  const updated = await handle
    .collection<Project>(PROJECTS)
    .updateOne(
      { _id: projectId },
      { $set: input, ...(Object.keys(cleared).length ? { $unset: cleared } : {}) },
      { expectedRev: rev },
    );
  if (!updated) throw errors.notFound('projects.notFound');
  const before = JSON.stringify(project.receiverIds ?? []);
  if (before !== JSON.stringify(updated.receiverIds ?? []))
    for (const listener of receiverListeners.values()) await listener(handle, projectId);
  return updated;
}

/** Told when a project's receivers change (the submissions module recomputes its cases' deadlines). */
export type ProjectReceiversListener = (handle: Handle, projectId: string) => Promise<void>;
const receiverListeners = mountedRegistry<ProjectReceiversListener>();

export function provideProjectReceiversListener(module: string, listener: ProjectReceiversListener): void {
  receiverListeners.set(module, listener);
}

const OPTIONAL_FIELDS = [
  'nameEn',
  'sponsor',
  'studyType',
  'sponsorStudyNumber',
  'diseases',
  'treatmentMethods',
  'plannedEnrollment',
  'startDate',
  'endDate',
  'studyStaff',
  'registrations',
  'receiverIds',
  'ageGroups',
] as const;

/** What names a project (or one of its study sites), counted by the module that keeps it. */
export type ProjectUseCounter = (
  handle: Handle,
  use: { projectId: string; siteId?: string },
) => Promise<number>;

const useCounters = mountedRegistry<ProjectUseCounter>();

/**
 * A mounted module counts its objects naming a project or a site (case management: its cases), so
 * that deleting the project or removing the site is refused while any does - without this module
 * importing theirs.
 */
export function provideProjectUse(module: string, counter: ProjectUseCounter): void {
  useCounters.set(module, counter);
}

async function projectUses(handle: Handle, use: { projectId: string; siteId?: string }): Promise<number> {
  let count = 0;
  for (const counter of useCounters.values()) count += await counter(handle, use);
  return count;
}

/** Soft delete: refused for a locked project and for one that holds cases. */
export async function deleteProject(handle: Handle, projectId: string, at: string): Promise<void> {
  const project = await requireProject(handle, projectId);
  assertUnlocked(project);
  const cases = await projectUses(handle, { projectId });
  if (cases) throw errors.badRequest('projects.hasCases', { count: cases });
  await handle
    .collection<Project>(PROJECTS)
    .updateOne({ _id: projectId }, { $set: { deleted: true, deletedAt: at } }, { expectedRev: project.rev });
}

export async function restoreProject(
  store: Store,
  handle: TenantHandle,
  projectId: string,
): Promise<StoredDoc<Project>> {
  const projects = handle.collection<Project>(PROJECTS);
  const project = await projects.findOne({ _id: projectId });
  if (!project) throw errors.notFound('projects.notFound');
  if (!project.deleted) throw errors.badRequest('projects.notDeleted');
  await assertTenantLimit(
    store,
    handle.tenantId,
    'projects',
    await projects.count({ deleted: { $ne: true } }),
  );
  await assertSponsorLimit(store, handle.tenantId, await otherSponsors(handle, projectId), project.sponsor);
  const restored = await projects.updateOne(
    { _id: projectId },
    { $set: { deleted: false }, $unset: { deletedAt: '' } },
    { expectedRev: project.rev },
  );
  return restored!;
}

/**
 * Locks or unlocks a project. The caller types the project code to confirm (SPEC section 4);
 * a different code changes nothing.
 */
export async function setLocked(
  handle: Handle,
  projectId: string,
  locked: boolean,
  confirmation: { confirmationCode: string; reason?: string },
  actor: { userId: string; at: string },
): Promise<StoredDoc<Project>> {
  const project = await requireProject(handle, projectId);
  if (confirmation.confirmationCode.trim() !== project.code)
    throw errors.badRequest('projects.lockCodeMismatch');
  if (project.locked === locked)
    throw errors.badRequest(locked ? 'projects.alreadyLocked' : 'projects.notLocked', { code: project.code });
  // The name as it was when locking: the lock record reads the same if the user is renamed later.
  const user = locked
    ? await handle.collection<{ name: string }>(C.users).findOne({ accountId: actor.userId })
    : null;
  const updated = await handle.collection<Project>(PROJECTS).updateOne(
    { _id: projectId },
    {
      $set: locked
        ? { locked, lockedAt: actor.at, lockedBy: actor.userId, lockedByName: user?.name ?? actor.userId }
        : { locked, lockedAt: null, lockedBy: null, lockedByName: null },
    },
    { expectedRev: project.rev, ...(confirmation.reason ? { reason: confirmation.reason } : {}) },
  );
  return updated!;
}

/**
 * Changes a project's embedded list (sites or drugs) from a fresh read; a concurrent write to the
 * same project is retried on the new revision, so no edit is lost and none is merged blindly.
 */
async function mutateProject<R>(
  handle: Handle,
  projectId: string,
  change: (project: StoredDoc<Project>) => Promise<{ set: Partial<Project>; result: R }>,
): Promise<R> {
  for (let attempt = 0; ; attempt++) {
    const project = await requireProject(handle, projectId);
    assertUnlocked(project);
    const { set, result } = await change(project);
    try {
      await handle
        .collection<Project>(PROJECTS)
        .updateOne({ _id: projectId }, { $set: set }, { expectedRev: project.rev });
      return result;
    } catch (error) {
      if (!(error instanceof RevisionConflictError) || attempt >= 4) throw error;
    }
  }
}

async function assertHospital(handle: Handle, hospitalId: string | null | undefined): Promise<void> {
  if (!hospitalId) return;
  const hospital = await handle.collection<Hospital>(CATALOGUE.hospitals).findOne({ _id: hospitalId });
  if (!hospital || hospital.deleted) throw errors.badRequest('projects.hospitalUnknown');
}

function assertSiteCodeFree(sites: StudySite[], code: string, except?: string): void {
  if (sites.some((s) => s.id !== except && s.code.toLowerCase() === code.toLowerCase()))
    throw errors.conflict('projects.siteCodeTaken', { code });
}

export function addSite(handle: Handle, projectId: string, input: SiteInput): Promise<StudySite> {
  return mutateProject(handle, projectId, async (project) => {
    assertCountry(input.country);
    await assertHospital(handle, input.hospitalId);
    assertSiteCodeFree(project.sites, input.code);
    const site: StudySite = { id: randomUUID(), ...input };
    return { set: { sites: [...project.sites, site] }, result: site };
  });
}

export function updateSite(
  handle: Handle,
  projectId: string,
  siteId: string,
  input: SiteInput,
): Promise<StudySite> {
  return mutateProject(handle, projectId, async (project) => {
    if (!project.sites.some((s) => s.id === siteId)) throw errors.notFound('projects.siteNotFound');
    assertCountry(input.country);
    await assertHospital(handle, input.hospitalId);
    assertSiteCodeFree(project.sites, input.code, siteId);
    const site: StudySite = { id: siteId, ...input };
    return { set: { sites: project.sites.map((s) => (s.id === siteId ? site : s)) }, result: site };
  });
}

/** Refused while a case names the site (report.hospitalId): the case would lose its centre. */
export function removeSite(handle: Handle, projectId: string, siteId: string): Promise<null> {
  return mutateProject(handle, projectId, async (project) => {
    if (!project.sites.some((s) => s.id === siteId)) throw errors.notFound('projects.siteNotFound');
    const cases = await projectUses(handle, { projectId, siteId });
    if (cases) throw errors.badRequest('projects.siteInUse', { count: cases });
    return { set: { sites: project.sites.filter((s) => s.id !== siteId) }, result: null };
  });
}

/**
 * The drug as the project keeps it: taken from a catalogue entry, the fields left empty get the
 * catalogue's generic name, approval number and substance (the case drug section reads them).
 */
async function withCatalogue(handle: Handle, input: DrugInput): Promise<DrugInput> {
  if (!input.catalogueDrugId) return input;
  const drug = await handle
    .collection<CatalogueDrug>(CATALOGUE.drugs)
    .findOne({ _id: input.catalogueDrugId });
  if (!drug || drug.deleted) throw errors.badRequest('projects.catalogueDrugUnknown');
  return {
    ...input,
    ...(input.genericName || !drug.genericName ? {} : { genericName: drug.genericName }),
    ...(input.approvalNumber || !drug.approvalNumber ? {} : { approvalNumber: drug.approvalNumber }),
    ...(input.substanceName || !drug.substanceName ? {} : { substanceName: drug.substanceName }),
  };
}

function assertDrugNameFree(drugs: ProjectDrug[], name: string, except?: string): void {
  if (drugs.some((d) => d.id !== except && d.drugName === name))
    throw errors.conflict('projects.drugNameTaken', { name });
}

export function addDrug(handle: Handle, projectId: string, input: DrugInput): Promise<ProjectDrug> {
  return mutateProject(handle, projectId, async (project) => {
    assertDrugNameFree(project.drugs, input.drugName);
    const drug: ProjectDrug = { id: randomUUID(), ...(await withCatalogue(handle, input)) };
    return { set: { drugs: [...project.drugs, drug] }, result: drug };
  });
}

export function updateDrug(
  handle: Handle,
  projectId: string,
  drugId: string,
  input: DrugInput,
): Promise<ProjectDrug> {
  return mutateProject(handle, projectId, async (project) => {
    if (!project.drugs.some((d) => d.id === drugId)) throw errors.notFound('projects.drugNotFound');
    assertDrugNameFree(project.drugs, input.drugName, drugId);
    const drug: ProjectDrug = { id: drugId, ...(await withCatalogue(handle, input)) };
    return { set: { drugs: project.drugs.map((d) => (d.id === drugId ? drug : d)) }, result: drug };
  });
}

export function removeDrug(handle: Handle, projectId: string, drugId: string): Promise<null> {
  return mutateProject(handle, projectId, async (project) => {
    if (!project.drugs.some((d) => d.id === drugId)) throw errors.notFound('projects.drugNotFound');
    return { set: { drugs: project.drugs.filter((d) => d.id !== drugId) }, result: null };
  });
}
