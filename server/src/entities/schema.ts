/**
 * Entity schemas (schemas/entities/*.json) as the generic CRUD reads them: request bodies are
 * derived from them, so a field added there is accepted, validated and labelled without a code change.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { pickEntity, resolveEntity } from '@pv/engine';
import type { EntityFiles } from '@pv/engine';
import type { JsonSchema } from '../http';

export type EntitySchema = Record<string, unknown> & {
  properties: Record<string, Record<string, unknown>>;
  required?: string[];
  'x-label'?: { zh: string; en: string };
};

const ENTITIES_DIR = fileURLToPath(new URL('../../../schemas/entities/', import.meta.url));

let files: EntityFiles | null = null;

/** Every file of schemas/entities by name (formats.json included), read once. */
export function entityFiles(): EntityFiles {
  files ??= Object.fromEntries(
    readdirSync(ENTITIES_DIR)
      .filter((file) => file.endsWith('.json'))
      .map((file) => [file.slice(0, -5), JSON.parse(readFileSync(`${ENTITIES_DIR}${file}`, 'utf8'))]),
  );
  return files;
}

/** Names of the entity schemas (every file of schemas/entities but the shared formats). */
export function entityNames(): string[] {
  return Object.keys(entityFiles())
    .filter((name) => name !== 'formats')
    .sort();
}

/**
 * An entity schema with its `$ref`s (shared formats, other entities' properties) inlined; `name`
 * may point inside the file (`tenant#/$defs/decision`) for an action's body. `x-entity` names the
 * source in every body derived from it (and so in the OpenAPI document): entities.test.ts checks
 * that each entity schema is read by some route.
 */
export function loadEntity(name: string): EntitySchema {
  return { ...resolveEntity(entityFiles(), name), 'x-entity': name } as EntitySchema;
}

/** One shared format of schemas/entities/formats.json (e.g. `phone`), for checks outside a body schema. */
export function entityFormat(
  name: string,
): { pattern?: string; maxLength?: number } & Record<string, unknown> {
  const format = (entityFiles().formats!.$defs as Record<string, Record<string, unknown>>)[name];
  if (!format) throw new Error(`unknown format "${name}"`);
  return format as { pattern?: string; maxLength?: number };
}

/** A property fixed when the entry is created (e.g. a user's account): declared `x-ui.createOnly`. */
const createOnly = (property: Record<string, unknown>) =>
  (property['x-ui'] as { createOnly?: boolean } | undefined)?.createOnly === true;

/**
 * The body a create (or, with `rev`, an edit) accepts: the entity's writable properties, its
 * required list and its conditions; nothing else. An edit leaves out the properties fixed at
 * creation (the form does not show them on edit either).
 */
export function bodySchema(entity: EntitySchema, options: { rev?: boolean } = {}): JsonSchema {
  const properties = Object.fromEntries(
    Object.entries(entity.properties).filter(
      ([, p]) => p.readOnly !== true && !(options.rev && createOnly(p)),
    ),
  );
  // `$defs` are inlined where referenced (loadEntity): the body does not carry them again.
  const {
    $schema: _s,
    $id: _i,
    $defs: _d,
    title: _t,
    properties: _p,
    required: declared = [],
    ...rest
  } = entity;
  const required = declared.filter((name) => name in properties);
  return {
    ...rest,
    type: 'object',
    additionalProperties: false,
    required: options.rev ? [...required, 'rev'] : required,
    properties: options.rev ? { ...properties, rev: { type: 'integer', minimum: 1 } } : properties,
  };
}

export type BodySchema = Record<string, unknown> & {
  required: string[];
  properties: Record<string, JsonSchema>;
};

/**
 * A body made of some of an entity's properties, as the entity declares them (a route whose body is
 * not the whole entry: a profile edit, an action). `required` replaces the entity's required list
 * where the route's contract differs (e.g. an edit that may leave a field out); `extra` adds the
 * route's own non-entity fields (a revision, a confirmation password).
 */
export function pickBody(
  entity: EntitySchema,
  fields: readonly string[],
  options: { rev?: boolean; required?: readonly string[]; extra?: Record<string, JsonSchema> } = {},
): BodySchema {
  const picked = pickEntity(entity, fields);
  const required = [...(options.required ?? (picked.required as string[])), ...(options.rev ? ['rev'] : [])];
  return {
    ...picked,
    'x-entity': entity['x-entity'],
    additionalProperties: false,
    required,
    properties: {
      ...(picked.properties as Record<string, JsonSchema>),
      ...options.extra,
      ...(options.rev ? { rev: { type: 'integer' } } : {}),
    },
  };
}

/** The writable fields of a validated body, without its revision. */
export function fieldsOf<T>(body: T & { rev?: number }): T {
  const { rev: _rev, ...fields } = body;
  return fields as T;
}
