/**
 * The shape of a page definition in schemas/ui/admin/<name>.json: a list (columns, filters, tabs,
 * paging, row actions, export) over a server resource, and the form that creates, edits and views
 * one item (JSON Schema + RJSF uiSchema). Labels are zh/en pairs; paths take `{field}` from the row.
 */
import type { LocalisedText } from '../i18n';
import type { NameKind } from '../display/names';

/** `caseValue`: a value of a case field, read by the field's schema (the row's `pathField` names it). */
export type ColumnType = 'text' | 'datetime' | 'date' | 'enum' | 'boolean' | 'count' | 'list' | 'caseValue';

export interface ColumnDefinition {
  /** The column's label key: names it in the column layout, stable across languages. */
  key: string;
  /** Dotted path of the value in the row; defaults to key. */
  field?: string;
  label: LocalisedText;
  type?: ColumnType;
  /** enum: value -> label. */
  options?: Record<string, LocalisedText>;
  sortable?: boolean;
  /** Default width in px (else schemas/ui/tables.json by table and key, else the type's). */
  width?: number;
  /** The narrowest the user may drag it (px). */
  minWidth?: number;
  /** The value is the id of a project, user, tenant ...: the cell shows its name (GET /api/names). */
  ref?: NameKind;
  /** caseValue: the row's field holding the case field's pointer (`/drugs/0/dosage`). */
  pathField?: string;
}

export interface FilterDefinition {
  /** Query parameter. */
  param: string;
  label: LocalisedText;
  type: 'text' | 'select' | 'date';
  options?: Record<string, LocalisedText>;
}

export interface TabDefinition {
  key: string;
  label: LocalisedText;
  /** Query parameters the tab adds. */
  params: Record<string, string>;
}

export interface CallDefinition {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** API path under /api, `{field}` filled from the row. */
  path: string;
  /** Button permission identifier (schemas/menus); the button is hidden without it. */
  permission?: string;
  /** Show the answer's `data[showResult]` to the user (e.g. an activation link path). */
  showResult?: string;
}

export interface RowCondition {
  field: string;
  in: (string | boolean | null)[];
}

/** Whether a row action's conditions hold for a row. */
export function actionShown(
  when: RowCondition | RowCondition[] | undefined,
  row: Record<string, unknown>,
): boolean {
  const all = when === undefined ? [] : Array.isArray(when) ? when : [when];
  return all.every((c) => c.in.includes(valueAt(row, c.field) as string | boolean | null));
}

export interface RowActionDefinition extends CallDefinition {
  key: string;
  label: LocalisedText;
  /** Asks before running, e.g. a delete. */
  confirm?: LocalisedText;
  /** Shown only when the row's field has one of these values (a list: every condition holds). */
  when?: RowCondition | RowCondition[];
  /** The action asks for these values first (e.g. limits and expiry when approving); its call saves them. */
  form?: FormDefinition;
  /** Opens this app route (`{field}` filled from the row) instead of making the call, e.g. a detail page. */
  navigate?: string;
  /** The call answers a file (GET), which is saved (e.g. a letter as PDF). */
  download?: boolean;
  /** The body of a call without a form: these values, and the row's values of `bodyFromRow`. */
  body?: Record<string, unknown>;
  bodyFromRow?: string[];
  /** Body properties taken from row fields of another name (`{"templateId": "id"}`). */
  bodyFromRowAs?: Record<string, string>;
}

/**
 * A toolbar action on the rows the user ticked (the list then shows a checkbox per row): one call
 * with the ticked rows' ids in `idsField`; none ticked: "select a data line".
 */
export interface BatchActionDefinition extends CallDefinition {
  key: string;
  label: LocalisedText;
  /** The body property receiving the ticked rows' ids (the list's idField). */
  idsField: string;
  /** Values sent with the ids (e.g. `action: close`). */
  fixed?: Record<string, unknown>;
  confirm?: LocalisedText;
  /** Asks for values first; they go in the same body. */
  form?: FormDefinition;
}

export interface FormDefinition {
  /**
   * JSON Schema (2020-12) of the form data. The files of schemas/ui/admin never write it: they name
   * `entity` and `fields`, and resolvePage (form/entity-form.ts) derives it from schemas/entities.
   */
  schema: Record<string, unknown>;
  /** schemas/entities/<entity>.json, or a pointer into it (`tenant#/$defs/decision`). */
  entity?: string;
  /** The entity's properties the form shows, in display order. */
  fields?: string[];
  /** Fields the form asks for beyond those the entity requires. */
  required?: string[];
  /** Per field: a `default`, or `x-options` (choices from the server); never a validation keyword. */
  annotate?: Record<string, { default?: unknown; 'x-options'?: Record<string, unknown> }>;
  uiSchema?: Record<string, unknown>;
  /** zh/en labels of the schema's fields and enum values, by dotted path (`contact.name`, `kind.organisation`). */
  labels: Record<string, LocalisedText>;
  create?: CallDefinition;
  /** `when`: the edit button shows only on rows whose field has one of these values (e.g. not deleted). */
  update?: CallDefinition & { label?: LocalisedText; when?: RowCondition | RowCondition[] };
  /** Fields only the create form has (e.g. account). */
  createOnly?: string[];
  /** Fields only the edit form has. */
  updateOnly?: string[];
  /** Fields that need a button permission to change (shown read-only without it), e.g. roleIds. */
  fieldPermissions?: Record<string, string>;
  /** A sentence shown above the fields (what saving will do). */
  note?: LocalisedText;
  /** Values sent with every save, not shown (e.g. `approve: true`). */
  fixed?: Record<string, unknown>;
  /** Sends the row's revision back (optimistic concurrency). */
  revision?: boolean;
}

export interface ListDefinition {
  /** Table id for the column layout. */
  id: string;
  title: LocalisedText;
  source: {
    path: string;
    /** server: page and size params, answer {total, items}; none: the answer is the array. */
    paging: 'server' | 'none';
    /** The answer is a tree (children nested): shown flattened, indented. */
    tree?: boolean;
  };
  idField: string;
  columns: ColumnDefinition[];
  filters?: FilterDefinition[];
  tabs?: TabDefinition[];
  rowActions?: RowActionDefinition[];
  batchActions?: BatchActionDefinition[];
  form?: FormDefinition;
  /** XLSX export of the rows shown. */
  export?: boolean;
  /** Permission identifier the list's GET checks; without it the tab is not shown. */
  permission?: string;
}

/**
 * One record shown as labelled fields with an edit button (company information, tenant security
 * settings): the source answers the record, or null before it is first saved (then `create`).
 */
export interface RecordDefinition {
  id: string;
  title: LocalisedText;
  source: { path: string };
  /** Permission identifier the GET checks; without it the tab is not shown. */
  permission?: string;
  /** The form's fields in display order, with the schema's labels. */
  form: FormDefinition;
}

export interface PageDefinition {
  title: LocalisedText;
  /** One list, or several as tabs (e.g. users and roles). */
  lists: ListDefinition[];
  /** Single records, shown as tabs after the lists. */
  records?: RecordDefinition[];
}

/** Fills `{field}` placeholders of a path from a row; values are URI-encoded. */
export function fillPath(path: string, row: Record<string, unknown> = {}): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(row[name] ?? '')));
}

export function valueAt(row: Record<string, unknown>, path: string): unknown {
  let value: unknown = row;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** Flattens a tree answer into rows with their depth. */
export function flattenTree(
  nodes: Record<string, unknown>[],
  depth = 0,
  into: Record<string, unknown>[] = [],
): Record<string, unknown>[] {
  for (const node of nodes) {
    const { children, ...row } = node;
    into.push({ ...row, __depth: depth });
    if (Array.isArray(children)) flattenTree(children as Record<string, unknown>[], depth + 1, into);
  }
  return into;
}
