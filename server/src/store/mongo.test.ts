/**
 * The MongoDB driver's own pieces that need no server (definition format, error translation),
 * and, when MONGODB_URI is set, what it writes to `_collections` on the real server.
 */
import { randomUUID } from 'node:crypto';
import mongoose from 'mongoose';
import { describe, expect, it } from 'vitest';
import { StoreUnavailableError, UnsupportedFeatureError, openStore } from './index';
import { decodeDefinition, encodeDefinition, translateError } from './mongo';
import type { CollectionDefinition } from './port';

const definition: CollectionDefinition = {
  name: 'cases',
  scope: 'tenant',
  audited: true,
  indexes: [
    { name: 'list', fields: { 'workflow.node': 1, 'report.dateFirst': -1 } },
    { fields: { reportCode: 1 }, unique: true },
  ],
};

/** Every key of a value, at any depth. */
function keys(value: unknown, into: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((item) => keys(item, into));
  else if (value && typeof value === 'object')
    for (const [key, inner] of Object.entries(value)) {
      into.push(key);
      keys(inner, into);
    }
  return into;
}

describe('collection definitions in _collections', () => {
  it('are stored without dotted keys and read back equal, field order kept', () => {
    const stored = encodeDefinition(definition);
    expect(keys(stored).filter((k) => k.includes('.'))).toEqual([]);
    expect(stored.indexes![0]!.keys).toEqual([
      { path: 'workflow.node', order: 1 },
      { path: 'report.dateFirst', order: -1 },
    ]);
    const read = decodeDefinition(stored);
    expect(read).toEqual(definition);
    expect(Object.keys(read.indexes![0]!.fields)).toEqual(['workflow.node', 'report.dateFirst']);
  });

  it('written before (fields objects with dotted keys) are still read', () => {
    const old = JSON.parse(JSON.stringify(definition)) as Parameters<typeof decodeDefinition>[0];
    expect(decodeDefinition(old)).toEqual(definition);
    expect(decodeDefinition({ name: 'plain', scope: 'platform' })).toEqual({
      name: 'plain',
      scope: 'platform',
    });
  });
});

describe('driver errors', () => {
  it('a lost server becomes StoreUnavailableError, a server refusal names the feature', () => {
    const lost = translateError(new mongoose.mongo.MongoNetworkError('connection 3 to 127.0.0.1:1 closed'));
    expect(lost).toBeInstanceOf(StoreUnavailableError);
    expect((lost as StoreUnavailableError).messageKey).toBe('storeUnavailable');
    const refused = translateError(
      new mongoose.mongo.MongoServerError({
        message: '`aggregate` stage "$sortByCount" is not implemented yet',
        code: 238,
      }),
    );
    expect(refused).toBeInstanceOf(UnsupportedFeatureError);
    expect(refused).toMatchObject({ feature: '$sortByCount', messageKey: 'unsupportedFeature' });
    const other = new mongoose.mongo.MongoServerError({ message: 'bad', code: 2 });
    expect(translateError(other)).toBe(other);
  });
});

describe.skipIf(!process.env.MONGODB_URI)('on the MongoDB server', () => {
  it('keeps _collections free of dotted keys and declares indexes the server accepts', async () => {
    const url = new URL(process.env.MONGODB_URI!);
    url.pathname = `/pv_meta_${randomUUID().replace(/-/g, '')}`;
    const store = await openStore({ dataDir: '', mongodbUri: url.toString() });
    try {
      await store.define(definition);
      // The same keys under another name, and a declaration changed under its name: both accepted.
      await store.define({
        ...definition,
        indexes: [{ name: 'list2', fields: { 'workflow.node': 1, 'report.dateFirst': -1 } }],
      });
      await store.define({ ...definition, indexes: [{ name: 'list', fields: { 'workflow.node': -1 } }] });
      const connection = await mongoose.createConnection(url.toString()).asPromise();
      try {
        const rows = await connection.db!.collection('_collections').find({}).toArray();
        expect(rows.map((r) => r._id).sort()).toEqual(['audit', 'cases']);
        expect(keys(rows).filter((k) => k.includes('.'))).toEqual([]);
        const indexes = await connection.db!.collection('cases').indexes();
        expect(indexes.find((i) => i.name === 'list')?.key).toEqual({ tenantId: 1, 'workflow.node': -1 });
      } finally {
        await connection.close();
      }
      expect((await store.maintenance().definitions()).find((d) => d.name === 'cases')?.indexes).toEqual([
        { name: 'list', fields: { 'workflow.node': -1 } },
      ]);
    } finally {
      await store.close();
    }
  });
});
