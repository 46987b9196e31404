import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityFixture } from '../auth/testing';
import type { IdentityFixture } from '../auth/testing';
import { call } from '../testing';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { masterdataModule } from '../masterdata';
import { messagesModule } from '../messages';
import { projectsModule } from '../projects';
import { saeTemplatesModule } from '../sae-templates';

interface UiList {
  id: string;
  source: { path: string; paging: 'server' | 'none' };
  columns: { key: string; field?: string; sortable?: boolean }[];
}

/** Every list of the administration pages that pages on the server, with its sortable columns. */
function serverPagedLists(): UiList[] {
  const dir = fileURLToPath(new URL('../../../schemas/ui/admin/', import.meta.url));
  const lists: UiList[] = [];
  const walk = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    const list = node as Partial<UiList>;
    if (list.source?.paging === 'server' && Array.isArray(list.columns)) lists.push(list as UiList);
    for (const child of Object.values(node)) walk(child);
  };
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')))
    walk(JSON.parse(readFileSync(`${dir}${file}`, 'utf8')));
  return lists;
}

type Page<T> = { total: number; items: T[] };

describe('sorting a paged list on the server', () => {
  let fx: IdentityFixture;
  let operator: string;
  let admin: string;
  const api = (path: string, token: string, lang: 'cn' | 'en' = 'en') =>
    call(fx.platform.app, 'GET', `/api${path}`, { token, lang });
  const page = async <T>(path: string, token: string) => {
    const res = await api(path, token);
    expect(res.body.code).toBe(200);
    return res.body.data as Page<T>;
  };

  beforeAll(async () => {
    fx = await identityFixture([masterdataModule, projectsModule, messagesModule, saeTemplatesModule]);
    operator = await fx.login('operator');
    admin = await fx.login('demoadmin');
    // Inserted out of order, with names in another order than codes, so no insertion or name order passes.
    for (const n of [
      7, 22, 3, 15, 11, 1, 19, 24, 5, 9, 13, 17, 21, 2, 8, 14, 20, 4, 10, 16, 23, 6, 12, 18, 25,
    ]) {
      const code = `T${String(n).padStart(2, '0')}`;
      const created = await call(fx.platform.app, 'POST', '/api/operator/dict-types', {
        token: operator,
        body: {
          code,
          nameCn: `类型${26 - n}`,
          nameEn: `Type ${26 - n}`,
          status: n % 3 ? 'normal' : 'disabled',
        },
      });
      expect(created.body.code).toBe(200);
    }
  });
  afterAll(() => fx.close());

  it('sorts the whole result before paging: page 1 descending starts at the global last', async () => {
    const first = await page<{ code: string }>('/operator/dict-types?size=10&sort=code&order=desc', operator);
    expect(first.total).toBe(25);
    expect(first.items.map((x) => x.code)).toEqual(
      [25, 24, 23, 22, 21, 20, 19, 18, 17, 16].map((n) => `T${n}`),
    );
    const last = await page<{ code: string }>(
      '/operator/dict-types?size=10&page=3&sort=code&order=desc',
      operator,
    );
    expect(last.items.map((x) => x.code)).toEqual(['T05', 'T04', 'T03', 'T02', 'T01']);
    const ascending = await page<{ code: string }>('/operator/dict-types?size=10&page=2&sort=code', operator);
    expect(ascending.items.map((x) => x.code)).toEqual(
      [11, 12, 13, 14, 15, 16, 17, 18, 19, 20].map((n) => `T${n}`),
    );
  });

  it('keeps one order across pages when the sorted values are equal (the id breaks ties)', async () => {
    const walk = async (order: 'asc' | 'desc') => {
      const ids: string[] = [];
      for (let p = 1; p <= 4; p += 1)
        ids.push(
          ...(
            await page<{ id: string }>(
              `/operator/dict-types?size=7&page=${p}&sort=code&order=${order}`,
              operator,
            )
          ).items.map((x) => x.id),
        );
      return ids;
    };
    const up = await walk('asc');
    expect(new Set(up).size).toBe(25);
    expect(await walk('desc')).toEqual([...up].reverse());
  });

  it('refuses a field the list does not sort by, translated, and an order without a field', async () => {
    const en = await api('/operator/dict-types?sort=nameCn&order=desc', operator);
    expect(en.status).toBe(400);
    expect(en.body.msg).toBe('The list cannot be sorted by nameCn; it sorts by: code');
    const cn = await api('/operator/dict-types?sort=nameCn', operator, 'cn');
    expect(cn.status).toBe(400);
    expect(cn.body.msg).toBe('列表不能按 nameCn 排序；可排序的字段：code');
    const orderAlone = await api('/operator/dict-types?order=desc', operator);
    expect(orderAlone.status).toBe(400);
    expect(orderAlone.body.msg).toBe('A sort order needs the field to sort by (sort)');
    const badOrder = await api('/operator/dict-types?sort=code&order=down', operator);
    expect(badOrder.status).toBe(400);
  });

  it('sorts the lists outside the generic CRUD too: users, login logs, operation log, projects refuse the rest', async () => {
    const all = await page<{ account: string }>('/users?size=200&sort=account', admin);
    expect(all.total).toBeGreaterThan(1);
    const accounts = all.items.map((u) => u.account);
    expect(accounts).toEqual([...accounts].sort());
    const lastFirst = await page<{ account: string }>('/users?size=1&sort=account&order=desc', admin);
    expect(lastFirst.items[0]!.account).toBe(accounts.at(-1));
    expect((await api('/users?sort=phone', admin)).status).toBe(400);

    const log = await page<{ account: string }>(
      '/auth/operator/login-log?size=1&sort=account&order=desc',
      operator,
    );
    const logAll = await page<{ account: string }>(
      '/auth/operator/login-log?size=200&sort=account',
      operator,
    );
    expect(log.items[0]!.account).toBe(logAll.items.at(-1)!.account);
    expect(logAll.items.map((x) => x.account)).toEqual(logAll.items.map((x) => x.account).sort());
    expect((await api('/auth/operator/login-log?sort=userAgent', operator)).status).toBe(400);
    expect((await api('/auth/login-log?sort=ip', admin)).status).toBe(400);
    expect((await api('/users/operation-log?sort=ms', admin)).status).toBe(400);
  });

  it('every column an administration list declares sortable is sorted by its server route, both ways', async () => {
    const lists = serverPagedLists();
    expect(lists.length).toBeGreaterThan(10);
    for (const list of lists)
      for (const column of list.columns.filter((c) => c.sortable))
        for (const order of ['asc', 'desc']) {
          const path = `${list.source.path}?size=5&sort=${column.field ?? column.key}&order=${order}`;
          let res = await api(path, operator);
          if (res.status === 403) res = await api(path, admin);
          expect({ list: list.id, column: column.key, order, code: res.body.code }).toEqual({
            list: list.id,
            column: column.key,
            order,
            code: 200,
          });
        }
  });
});
