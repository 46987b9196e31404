/**
 * The OpenAPI 3.1 document, generated from the route declarations (one source for validation,
 * permission checks and documentation).
 */
import type { RouteRecord } from '../http';

type Schema = Record<string, unknown> | boolean;

const envelopeOf = (data: Schema): Schema => ({
  type: 'object',
  required: ['code', 'msg', 'data'],
  properties: {
    code: {
      type: 'integer',
      description:
        '200 success, 203 warning, 400001 session invalid, 400002 logged in elsewhere, 500 error ...',
    },
    msg: { type: 'string', description: 'Message in the language of the Lang-Type header' },
    data,
  },
});

const errorEnvelope = { $ref: '#/components/schemas/ErrorEnvelope' };

function openApiPath(path: string): string {
  return path.replace(/:(\w+)(\{[^}]*\})?/g, '{$1}');
}

function pathParameterNames(path: string): string[] {
  return [...path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
}

function objectProperties(schema: Schema | undefined): [string, Schema, boolean][] {
  if (!schema || typeof schema !== 'object') return [];
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, s]) => [name, s, required.has(name)]);
}

export interface OpenApiInfo {
  title: string;
  version: string;
}

export function buildOpenApi(records: RouteRecord[], info: OpenApiInfo): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const tags = new Set<string>();
  for (const { module, path, declaration: d } of records) {
    tags.add(module);
    const parameters: Record<string, unknown>[] = [];
    const paramSchemas = new Map(objectProperties(d.params).map(([n, s]) => [n, s]));
    for (const name of pathParameterNames(path)) {
      parameters.push({
        name,
        in: 'path',
        required: true,
        schema: paramSchemas.get(name) ?? { type: 'string' },
      });
    }
    for (const [name, schema, required] of objectProperties(d.query)) {
      parameters.push({
        name,
        in: 'query',
        required,
        schema,
        ...(isObject(schema) ? { style: 'deepObject', explode: true } : {}),
      });
    }
    const operation: Record<string, unknown> = {
      operationId: `${module}.${d.method}${path.replace(/[^a-zA-Z0-9]+/g, '_')}`,
      summary: d.summary,
      ...(d.description ? { description: d.description } : {}),
      tags: [module],
      ...(parameters.length ? { parameters } : {}),
      security: (d.auth ?? 'required') === 'none' ? [] : [{ bearer: [] }],
      ...(d.permission ? { 'x-permission': d.permission } : {}),
      responses: {
        '200': d.download
          ? {
              description: 'The file; its name is in Content-Disposition',
              content: {
                'application/octet-stream': {
                  schema: { type: 'string', contentMediaType: 'application/octet-stream' },
                },
              },
            }
          : {
              description: 'Envelope',
              content: { 'application/json': { schema: envelopeOf(d.response ?? {}) } },
            },
        default: {
          description: 'Error envelope',
          content: { 'application/json': { schema: errorEnvelope } },
        },
      },
    };
    if (d.body !== undefined) {
      operation.requestBody = { required: true, content: { 'application/json': { schema: d.body } } };
    } else if (d.upload) {
      operation.requestBody = {
        required: true,
        description: `Raw file content (streamed), at most ${d.upload.maxBytes ?? 'the server limit'} bytes`,
        content: Object.fromEntries(
          (d.upload.contentTypes ?? ['application/octet-stream']).map((type) => [
            type,
            { schema: { type: 'string', contentMediaType: type } },
          ]),
        ),
      };
    }
    (paths[openApiPath(path)] ??= {})[d.method] = operation;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: info.title,
      version: info.version,
      description:
        'Every JSON response is the envelope {code, msg, data}. Requests carry Authorization (bearer), sysOrgId, studyProjectIds, projectId and Lang-Type (cn | en).',
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: '/' }],
    tags: [...tags].sort().map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: { ErrorEnvelope: envelopeOf({}) },
    },
  };
}

function isObject(schema: Schema): boolean {
  return typeof schema === 'object' && schema.type === 'object';
}
