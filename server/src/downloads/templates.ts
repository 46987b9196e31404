/**
 * Line-listing templates (issue 20 item 5; SPEC 3 and 5): per project, a type (case, DSUR serious
 * ADR, SUSAR, custom), a name and the fields chosen from the line-listing field catalogue
 * (masterdata `lineListingFields`) in order, each with its zh and en column name; copyable to another
 * project (the target is required). Duplicate zh or en field names, an unknown field and a name
 * already used in the project are refused. The built-in templates (schemas/reports/
 * line-listing-templates.json, the DSUR serious ADR listing) are offered in every project.
 * A template's permissions are checked in its own project (object kind `lineListingTemplate`).
 */
import { BUILT_IN_LINE_LISTING_TEMPLATES, lineListingFieldProblem } from '@pv/engine';
import type { LineListingTemplateField, LineListingType } from '@pv/engine';
import { callerProjects, listScope, requireProjectMember } from '../cases';
import type { Caller, ObjectResolver, RouteObject } from '../http';
import { errors } from '../http';
import { MASTERDATA } from '../masterdata';
import type { CollectionDefinition, StoredDoc, TenantHandle } from '../store';
import { DuplicateKeyError } from '../store';

export const LINE_LISTING_TEMPLATES = 'lineListingTemplates';
export const TEMPLATE_VIEW = 'reportmanagment:lineListing';
export const TEMPLATE_EDIT = 'reportmanagment:lineListing:template';

export interface LineListingTemplateDoc {
  projectId: string;
  type: LineListingType;
  name: string;
  fields: LineListingTemplateField[];
}

/** A field as the body names it: a catalogue key, with the column names (default: the catalogue's). */
export interface TemplateFieldInput {
  fieldKey: string;
  nameCn?: string;
  nameEn?: string;
}

export interface TemplateInput {
  projectId: string;
  type: LineListingType;
  name: string;
  fields: TemplateFieldInput[];
}

export const templateCollection: CollectionDefinition = {
  name: LINE_LISTING_TEMPLATES,
  scope: 'tenant',
  audited: true,
  indexes: [{ name: 'name', fields: { projectId: 1, name: 1 }, unique: true }],
};

const templates = (handle: TenantHandle) => handle.collection<LineListingTemplateDoc>(LINE_LISTING_TEMPLATES);

export const lineListingTemplateObject: ObjectResolver = {
  notFound: 'downloads.template.notFound',
  async scopeOf(handle: TenantHandle, id: string) {
    const found = await templates(handle).findOne({ _id: id }, { projection: { projectId: 1 } });
    return found ? { projectId: found.projectId } : null;
  },
};

export const TEMPLATE_OBJECT: RouteObject = { param: 'templateId', kind: 'lineListingTemplate' };

export interface TemplateView {
  id: string;
  /** null for a built-in template (every project). */
  projectId: string | null;
  builtIn: boolean;
  type: LineListingType;
  name: string;
  fields: LineListingTemplateField[];
  rev?: number;
}

const view = (doc: StoredDoc<LineListingTemplateDoc>): TemplateView => ({
  id: doc._id,
  projectId: doc.projectId,
  builtIn: false,
  type: doc.type,
  name: doc.name,
  fields: doc.fields,
  ...(typeof doc.rev === 'number' ? { rev: doc.rev } : {}),
});

const builtInViews = (lang: 'zh' | 'en'): TemplateView[] =>
  BUILT_IN_LINE_LISTING_TEMPLATES.map((t) => ({
    id: t.id,
    projectId: null,
    builtIn: true,
    type: t.type,
    name: t.name[lang],
    fields: t.fields,
  }));

interface CatalogueField {
  fieldKey: string;
  nameCn: string;
  nameEn: string;
  casePath: string;
  e2bId?: string;
  status: string;
  deleted?: boolean;
}

/** The body's fields resolved against the catalogue (in use, not deleted), then checked by the engine. */
async function resolveFields(
  caller: Caller,
  input: TemplateFieldInput[],
): Promise<LineListingTemplateField[]> {
  const keys = [...new Set(input.map((f) => f.fieldKey))];
  // The catalogue is the platform operator's (/holoxcontrol/linelistingField), shared by every tenant.
  const found = await caller.deps.store
    .platform({ userId: caller.userId })
    .collection<CatalogueField>(MASTERDATA.lineListingFields)
    .find({ fieldKey: { $in: keys } });
  const byKey = new Map(
    found.filter((f) => f.status === 'normal' && f.deleted !== true).map((f) => [f.fieldKey, f]),
  );
  const fields = input.map((field) => {
    const entry = byKey.get(field.fieldKey);
    if (!entry) throw errors.badRequest('downloads.template.unknownCatalogueField', { name: field.fieldKey });
    return {
      fieldKey: field.fieldKey,
      nameCn: field.nameCn?.trim() || entry.nameCn,
      nameEn: field.nameEn?.trim() || entry.nameEn,
      // The E2B id where the catalogue names one (formatted as the case schema declares), else its path.
      ref: entry.e2bId || entry.casePath,
    };
  });
  const problem = lineListingFieldProblem(fields);
  if (problem) throw errors.badRequest(problem.key, problem.params);
  return fields;
}

async function write(
  entry: LineListingTemplateDoc,
  run: () => Promise<StoredDoc<LineListingTemplateDoc> | null>,
): Promise<TemplateView> {
  try {
    const stored = await run();
    if (!stored) throw errors.conflict();
    return view(stored);
  } catch (error) {
    if (error instanceof DuplicateKeyError)
      throw errors.badRequest('downloads.template.nameTaken', { name: entry.name });
    throw error;
  }
}

export async function createTemplate(caller: Caller, input: TemplateInput): Promise<TemplateView> {
  await requireProjectMember(caller, input.projectId);
  const entry: LineListingTemplateDoc = {
    projectId: input.projectId,
    type: input.type,
    name: input.name.trim(),
    fields: await resolveFields(caller, input.fields),
  };
  if (!entry.name) throw errors.badRequest('downloads.template.nameRequired');
  return write(entry, () => templates(caller.tenant).insertOne(entry));
}

/** A stored template of a project the caller works in (404 unknown, 403 another project's). */
async function loadTemplate(caller: Caller, id: string): Promise<StoredDoc<LineListingTemplateDoc>> {
  const found = await templates(caller.tenant).findOne({ _id: id });
  if (!found) throw errors.notFound('downloads.template.notFound', { id });
  await requireProjectMember(caller, found.projectId);
  return found;
}

export async function updateTemplate(
  caller: Caller,
  id: string,
  input: Omit<TemplateInput, 'projectId'> & { rev: number },
): Promise<TemplateView> {
  const before = await loadTemplate(caller, id);
  // The project is the template's own: moving one to another project is a copy.
  const entry: LineListingTemplateDoc = {
    projectId: before.projectId,
    type: input.type,
    name: input.name.trim(),
    fields: await resolveFields(caller, input.fields),
  };
  if (!entry.name) throw errors.badRequest('downloads.template.nameRequired');
  return write(entry, () =>
    templates(caller.tenant).updateOne({ _id: id }, { $set: { ...entry } }, { expectedRev: input.rev }),
  );
}

export async function deleteTemplate(caller: Caller, id: string): Promise<void> {
  await loadTemplate(caller, id);
  await templates(caller.tenant).deleteOne({ _id: id });
}

/** SPEC 5: a copy needs its target project; the name is kept unless another is given. */
export async function copyTemplate(
  caller: Caller,
  id: string,
  input: { projectId: string; name?: string },
): Promise<TemplateView> {
  const source = await loadTemplate(caller, id);
  // The target in its own right: a member there, whatever the source's project lends.
  await requireProjectMember(caller, input.projectId);
  const entry: LineListingTemplateDoc = {
    projectId: input.projectId,
    type: source.type,
    name: input.name?.trim() || source.name,
    fields: source.fields,
  };
  return write(entry, () => templates(caller.tenant).insertOne(entry));
}

/**
 * The catalogue's fields a template may use (in use, not deleted), in the catalogue's order, for the
 * template editor's choices: each with a label naming its E2B id (or case path).
 */
export async function catalogueFields(caller: Caller): Promise<{ items: CatalogueChoice[] }> {
  const found = await caller.deps.store
    .platform({ userId: caller.userId })
    .collection<CatalogueField & { sort?: number }>(MASTERDATA.lineListingFields)
    .find({ status: 'normal', deleted: { $ne: true } }, { sort: { sort: 1, fieldKey: 1 }, limit: 500 });
  return {
    items: found.map((f) => {
      const ref = f.e2bId || f.casePath;
      return {
        fieldKey: f.fieldKey,
        nameCn: f.nameCn,
        nameEn: f.nameEn,
        ref,
        label: `${f.nameCn} (${ref})`,
        labelEn: `${f.nameEn} (${ref})`,
      };
    }),
  };
}

export interface CatalogueChoice {
  fieldKey: string;
  nameCn: string;
  nameEn: string;
  /** E2B id where the catalogue names one, else the case path. */
  ref: string;
  label: string;
  labelEn: string;
}

/** The built-in templates, then the stored ones of the projects where the caller may see them. */
export async function listTemplates(
  caller: Caller,
  query: { projectId?: string; type?: LineListingType },
): Promise<{ items: TemplateView[] }> {
  const filter: Record<string, unknown> = {};
  const scope = await listScope(caller, TEMPLATE_VIEW);
  if (scope !== null) filter.projectId = { $in: scope };
  if (query.projectId) {
    if (scope !== null && !scope.includes(query.projectId)) return { items: [] };
    filter.projectId = query.projectId;
  }
  if (query.type) filter.type = query.type;
  const stored = await templates(caller.tenant).find(filter, { sort: { name: 1, _id: 1 }, limit: 500 });
  const builtIns = builtInViews(caller.lang).filter((t) => !query.type || t.type === query.type);
  return { items: [...builtIns, ...stored.map(view)] };
}

/**
 * The fields of the template a line listing names: a built-in one, or a stored one of a project the
 * caller works in (another project's reads as unknown).
 */
export async function templateFieldsFor(
  caller: Caller,
  templateId: string,
): Promise<LineListingTemplateField[]> {
  const builtIn = BUILT_IN_LINE_LISTING_TEMPLATES.find((t) => t.id === templateId);
  if (builtIn) return builtIn.fields;
  const found = await templates(caller.tenant).findOne({ _id: templateId });
  const mine = await callerProjects(caller);
  if (!found || (mine !== null && !mine.includes(found.projectId)))
    throw errors.badRequest('downloads.template.notForListing', { id: templateId });
  return found.fields;
}
