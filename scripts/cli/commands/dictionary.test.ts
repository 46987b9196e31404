import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { generateMeddra, meddraFiles, SMALL_MEDDRA, writeFiles } from '../../generate-dictionaries';
import { tenancyCollections } from '../../../server/src/tenancy';
import { openStore } from '../../../server/src/store';
import { run } from './dictionary';

const root = mkdtempSync(join(tmpdir(), 'pv-dictionary-cli-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const env = { DATA_DIR: join(root, 'data') };

// The CLI refuses unknown tenants: create one as the tenancy module would.
const store = await openStore({ dataDir: env.DATA_DIR });
for (const definition of tenancyCollections) await store.define(definition);
await store
  .platform({ userId: 'test' })
  .collection('tenants')
  .insertOne({ _id: 'acme', code: 'acme', name: 'Acme' });
await store.close();

function output(fn: () => Promise<number>) {
  const lines: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
  const error = vi.spyOn(console, 'error').mockImplementation((line: string) => void lines.push(line));
  return fn().then((code) => {
    log.mockRestore();
    error.mockRestore();
    return { code, text: lines.join('\n') };
  });
}

describe('dictionary import', () => {
  const dir = join(root, 'meddra-en');
  writeFiles(dir, meddraFiles(generateMeddra(SMALL_MEDDRA).en));

  it('imports a release folder once; again it changes nothing', async () => {
    const first = await output(() => run(['import', 'meddra', dir, '--tenant', 'acme'], env));
    expect(first).toMatchObject({ code: 0 });
    expect(first.text).toMatch(/^Imported meddra 27\.0 \(en\)/);
    const again = await output(() => run(['import', 'meddra', dir, '--tenant', 'acme'], env));
    expect(again.text).toMatch(/^Already imported, nothing changed: meddra 27\.0 \(en\)/);
    const list = await output(() => run(['list', '--tenant', 'acme'], env));
    expect(list.text.split('\n')).toHaveLength(1);
  });

  it('refuses a malformed file with its name and line', async () => {
    const bad = join(root, 'bad');
    writeFiles(bad, meddraFiles(generateMeddra(SMALL_MEDDRA, { version: '28.0' }).en));
    const lines = readFileSync(join(bad, 'hlt_pt.asc'), 'utf8').split('\r\n');
    lines[5] = '1$2$';
    writeFileSync(join(bad, 'hlt_pt.asc'), lines.join('\r\n'));
    const refused = await output(() => run(['import', 'meddra', bad, '--tenant', 'acme'], env));
    expect(refused.code).toBe(1);
    expect(refused.text).toContain('hlt_pt.asc:6: HLT code 1 is not in hlt.asc');
    const list = await output(() => run(['list', '--tenant', 'acme'], env));
    expect(list.text).not.toContain('28.0');
  });

  it('refuses an unknown tenant and a missing folder', async () => {
    expect((await output(() => run(['import', 'meddra', dir, '--tenant', 'nobody'], env))).code).toBe(1);
    expect(
      (await output(() => run(['import', 'meddra', join(root, 'none'), '--tenant', 'acme'], env))).code,
    ).toBe(2);
  });
});
