/**
 * Entity schemas (schemas/entities/*.json) as the generic CRUD reads them: request bodies are
 * derived from them, so a field added there is accepted, validated and labelled without a code change.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { JsonSchema } from '../http/validation';

export type EntitySchema = Record<string, unknown> & {
  properties: Record<string, Record<string, unknown>>;
  required?: string[];
  'x-label'?: { zh: string; en: string };
};

const ENTITIES_DIR = fileURLToPath(new URL('../../../schemas/entities/', import.meta.url));

export function loadEntity(name: string): EntitySchema {
  return JSON.parse(readFileSync(`${ENTITIES_DIR}${name}.json`, 'utf8')) as EntitySchema;
}

/**
 * The body a create (or, with `rev`, an edit) accepts: the entity's writable properties, its
 * required list and its conditions; nothing else.
 */
export function bodySchema(entity: EntitySchema, options: { rev?: boolean } = {}): JsonSchema {
  const properties = Object.fromEntries(
    Object.entries(entity.properties).filter(([, p]) => p.readOnly !== true),
  );
  const { $schema: _s, $id: _i, title: _t, properties: _p, required = [], ...rest } = entity;
  return {
    ...rest,
    type: 'object',
    additionalProperties: false,
    required: options.rev ? [...required, 'rev'] : required,
    properties: options.rev ? { ...properties, rev: { type: 'integer', minimum: 1 } } : properties,
  };
}

/** The writable fields of a validated body, without its revision. */
export function fieldsOf<T>(body: T & { rev?: number }): T {
  const { rev: _rev, ...fields } = body;
  return fields as T;
}
