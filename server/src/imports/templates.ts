/**
 * Import templates (SPEC 2 "import and export template configuration", /reportmanagment/lineListing):
 * per project, declared by the tenant's administrators on a generic form (schemas/ui/admin/
 * import-templates.json over schemas/entities/import-template.json), checked by the engine
 * (unknown field, duplicate mapping, unknown code - the column named), copyable to another project.
 * A template's permissions are checked in its own project (object kind `importTemplate`).
 */
import { checkImportTemplate } from '@pv/engine';
import type { ImportTemplateDefinition, IntakeProblem } from '@pv/engine';
import { callerProjects, caseCollectionNames, listScope, requireProjectMember } from '../cases';
import type { Caller, ObjectResolver, RouteObject } from '../http';
import { AppError, Code, errors } from '../http';
import type { CollectionDefinition, StoredDoc, TenantHandle } from '../store';
import { DuplicateKeyError, textMatch } from '../store';

export const IMPORT_TEMPLATES = 'importTemplates';
export const TEMPLATE_VIEW = 'reportmanagment:lineListing';
export const TEMPLATE_EDIT = 'reportmanagment:lineListing:template';

export interface ImportTemplateDoc extends ImportTemplateDefinition {
  projectId: string;
}

export const templateCollection: CollectionDefinition = {
  name: IMPORT_TEMPLATES,
  scope: 'tenant',
  audited: true,
  indexes: [{ name: 'name', fields: { projectId: 1, kind: 1, name: 1 }, unique: true }],
};

const templates = (handle: TenantHandle) => handle.collection<ImportTemplateDoc>(IMPORT_TEMPLATES);

export const templateObject: ObjectResolver = {
  notFound: 'imports.template.notFound',
  async scopeOf(handle: TenantHandle, id: string) {
    const found = await templates(handle).findOne({ _id: id }, { projection: { projectId: 1 } });
    return found ? { projectId: found.projectId } : null;
  },
};

export const TEMPLATE_OBJECT: RouteObject = { param: 'templateId', kind: 'importTemplate' };

/** A problem of the template in both languages, with where it is. */
export function problemView(caller: Caller, problem: IntakeProblem) {
  return { ...problem, message: caller.t(problem.key, problem.params) };
}

/** Refuses a template the engine finds problems in: 400 naming the first, all of them in `data`. */
function requireSound(caller: Caller, template: ImportTemplateDefinition): void {
  const problems = checkImportTemplate(template);
  if (problems.length === 0) return;
  throw new AppError(
    Code.badRequest,
    'imports.template.invalid',
    { count: problems.length, first: caller.t(problems[0]!.key, problems[0]!.params) },
    400,
    { data: { problems: problems.map((p) => problemView(caller, p)) } },
  );
}

/** The stored form of a body: trimmed name, defaults for the optional lists. */
function normalise(body: ImportTemplateDoc): ImportTemplateDoc {
  return {
    name: body.name.trim(),
    kind: body.kind,
    projectId: body.projectId,
    ...(body.sheet?.trim() ? { sheet: body.sheet.trim() } : {}),
    headerRow: body.headerRow ?? 1,
    grouping: body.grouping ?? 'row',
    ...(body.grouping === 'grouped' && body.caseColumn ? { caseColumn: body.caseColumn.trim() } : {}),
    dateFormats: body.dateFormats ?? [],
    columns: body.columns,
    defaults: body.defaults ?? [],
  };
}

export function templateView(doc: StoredDoc<ImportTemplateDoc>) {
  const { _id, tenantId: _t, createdBy: _c, updatedBy: _u, ...rest } = doc;
  return { id: _id, ...rest };
}

async function store(
  caller: Caller,
  entry: ImportTemplateDoc,
  write: () => Promise<StoredDoc<ImportTemplateDoc> | null>,
): Promise<StoredDoc<ImportTemplateDoc>> {
  requireSound(caller, entry);
  try {
    const stored = await write();
    if (!stored) throw errors.conflict();
    return stored;
  } catch (error) {
    if (error instanceof DuplicateKeyError)
      throw errors.badRequest('imports.template.nameTaken', { name: entry.name });
    throw error;
  }
}

export async function createTemplate(caller: Caller, body: ImportTemplateDoc) {
  const entry = normalise(body);
  return templateView(await store(caller, entry, () => templates(caller.tenant).insertOne(entry)));
}

/** A template of a project the caller works in (404 unknown, 403 another project's). */
export async function loadTemplate(caller: Caller, id: string): Promise<StoredDoc<ImportTemplateDoc>> {
  const found = await templates(caller.tenant).findOne({ _id: id });
  if (!found) throw errors.notFound('imports.template.notFound', { id });
  await requireProjectMember(caller, found.projectId);
  return found;
}

export async function updateTemplate(caller: Caller, id: string, body: ImportTemplateDoc & { rev: number }) {
  const before = await loadTemplate(caller, id);
  // The project is the template's own: moving one to another project is a copy.
  const entry = { ...normalise(body), projectId: before.projectId };
  return templateView(
    await store(caller, entry, () => {
      // Fields the edit left out (an optional sheet name, a case column) are cleared.
      const cleared = (['sheet', 'caseColumn'] as const).filter((k) => !(k in entry) && k in before);
      return templates(caller.tenant).updateOne(
        { _id: id },
        {
          $set: entry,
          ...(cleared.length ? { $unset: Object.fromEntries(cleared.map((k) => [k, ''])) } : {}),
        },
        { expectedRev: body.rev },
      );
    }),
  );
}

export async function deleteTemplate(caller: Caller, id: string): Promise<void> {
  await loadTemplate(caller, id);
  await templates(caller.tenant).deleteOne({ _id: id });
}

/** SPEC: a copy needs its target project; the name is kept unless another is given. */
export async function copyTemplate(caller: Caller, id: string, input: { projectId: string; name?: string }) {
  const source = await loadTemplate(caller, id);
  const {
    _id,
    tenantId: _t,
    createdBy: _c,
    updatedBy: _u,
    rev: _r,
    createdAt: _ca,
    updatedAt: _ua,
    ...rest
  } = source as StoredDoc<ImportTemplateDoc> & Record<string, unknown>;
  const entry = normalise({
    ...(rest as ImportTemplateDoc),
    projectId: input.projectId,
    name: input.name ?? source.name,
  });
  return templateView(await store(caller, entry, () => templates(caller.tenant).insertOne(entry)));
}

export interface TemplateQuery {
  page: number;
  size: number;
  projectId?: string;
  kind?: string;
  name?: string;
}

/** Templates of the projects where the caller may see them, by name. */
export async function listTemplates(caller: Caller, query: TemplateQuery) {
  const filter: Record<string, unknown> = {};
  const scope = await listScope(caller, TEMPLATE_VIEW);
  if (scope !== null) filter.projectId = { $in: scope };
  if (query.projectId) {
    if (scope !== null && !scope.includes(query.projectId))
      return { total: 0, page: query.page, size: query.size, items: [] };
    filter.projectId = query.projectId;
  }
  if (query.kind) filter.kind = query.kind;
  if (query.name?.trim()) filter.name = textMatch(query.name.trim());
  const collection = templates(caller.tenant);
  const [total, items] = await Promise.all([
    collection.count(filter),
    collection.find(filter, {
      sort: { name: 1, _id: 1 },
      skip: (query.page - 1) * query.size,
      limit: query.size,
    }),
  ]);
  return { total, page: query.page, size: query.size, items: items.map(templateView) };
}

/** The template an upload names: of the upload's project and of the import's kind. */
export async function templateForUpload(
  caller: Caller,
  templateId: string,
  projectId: string,
  kind: ImportTemplateDefinition['kind'],
): Promise<StoredDoc<ImportTemplateDoc>> {
  const found = await templates(caller.tenant).findOne({ _id: templateId });
  const mine = await callerProjects(caller);
  if (
    !found ||
    found.projectId !== projectId ||
    found.kind !== kind ||
    (mine !== null && !mine.includes(found.projectId))
  )
    throw errors.badRequest('imports.template.notForUpload', { id: templateId });
  return found;
}

/** The projects the caller works in (every one for a tenant administrator), not locked, by code. */
export async function templateProjects(caller: Caller) {
  const mine = await callerProjects(caller);
  const projects = await caller.tenant
    .collection<{ code: string; name: string; nameEn?: string; locked?: boolean }>(
      caseCollectionNames.projects,
    )
    .find(mine === null ? {} : { _id: { $in: mine } }, {
      sort: { code: 1 },
      projection: { code: 1, name: 1, nameEn: 1, locked: 1 },
    });
  return projects
    .filter((p) => !p.locked)
    .map((p) => ({
      id: p._id,
      code: p.code,
      name: `${p.code} ${p.name}`,
      nameEn: `${p.code} ${p.nameEn ?? p.name}`,
    }));
}
