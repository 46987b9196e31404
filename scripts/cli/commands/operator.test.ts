import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { authCollections, C } from '../../../server/src/auth/collections';
import { accessCollections } from '../../../server/src/access';
import { verifyPassword } from '../../../server/src/auth/crypto';
import { openStore } from '../../../server/src/store';
import { run } from './operator';

describe('cli operator create', () => {
  const dirs: string[] = [];
  afterEach(() => {
    vi.restoreAllMocks();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('creates an operator with the platform operator role, prints its password once, refuses a taken or illegal account', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pv-operator-'));
    dirs.push(dataDir);
    const printed: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: string) => void printed.push(line));
    const errors: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((line: string) => void errors.push(line));

    expect(await run(['create', 'ops.admin', '--name', '运营 Ops'], { DATA_DIR: dataDir })).toBe(0);
    const password = printed[0]!.split(/\s+/)[1]!;
    expect(await run(['create', 'ops.admin'], { DATA_DIR: dataDir })).toBe(1);
    expect(errors.join('\n')).toMatch(/exists already/);
    expect(await run(['create', '运营'], { DATA_DIR: dataDir })).toBe(1);
    expect(await run(['create'], { DATA_DIR: dataDir })).toBe(2);

    const store = await openStore({ dataDir });
    for (const definition of [...authCollections, ...accessCollections]) await store.define(definition);
    const platform = store.platform({ userId: 'test' });
    const accounts = await platform
      .collection<{
        account: string;
        operator: boolean;
        operatorRoleIds: string[];
        passwordHash: string;
        name: string;
      }>(C.accounts)
      .find({});
    expect(accounts.map((a) => a.account)).toEqual(['ops.admin']);
    expect(accounts[0]!.operator).toBe(true);
    expect(accounts[0]!.name).toBe('运营 Ops');
    expect(await verifyPassword(password, accounts[0]!.passwordHash)).toBe(true);
    const role = await platform
      .collection<{ identifier: string }>(C.operatorRoles)
      .findOne({ _id: accounts[0]!.operatorRoleIds[0]! });
    expect(role?.identifier).toBe('platformOperator');
    await store.close();
  });
});
