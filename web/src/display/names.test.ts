import { describe, expect, it } from 'vitest';
import { createNameCache, nameText } from './names';
import type { NameReader } from './names';

/** A reader recording its calls, answering from a fixed table (what the caller may see). */
function recorder(table: Record<string, Record<string, { code?: string; name: string; nameEn?: string }>>) {
  const calls: Record<string, string[]>[] = [];
  const read: NameReader = async (params) => {
    calls.push(params);
    return Object.fromEntries(
      Object.entries(params).map(([param, ids]) => {
        const kind = param.replace(/Ids$/, '');
        const known = table[kind] ?? {};
        return [kind, Object.fromEntries(ids.filter((id) => known[id]).map((id) => [id, known[id]!]))];
      }),
    );
  };
  return { calls, read };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the page name cache', () => {
  it('loads the names of more ids than one batch for an export, and settles when a read fails', async () => {
    const many = Array.from({ length: 450 }, (_, i) => `t${i}`);
    const { calls, read } = recorder({
      tenant: Object.fromEntries(many.map((id) => [id, { code: id, name: `租户 ${id}` }])),
    });
    const cache = createNameCache(read);
    await cache.load('tenant', [...many, 'gone']);
    expect(calls.length).toBe(3);
    expect(cache.get('tenant', 't449')).toEqual({ code: 't449', name: '租户 t449' });
    expect(cache.get('tenant', 'gone')).toBeNull();
    const failing = createNameCache(async () => {
      throw new Error('offline');
    });
    await failing.load('user', ['u1']);
    expect(failing.get('user', 'u1')).toBeUndefined();
  });

  it('reads the ids of one render in one batch, every kind together, and never twice', async () => {
    const { calls, read } = recorder({
      project: { p1: { code: 'XY-101-301', name: '研究', nameEn: 'Study' } },
      site: { s1: { code: '01', name: '北京协和医院', nameEn: 'PUMCH' } },
    });
    const cache = createNameCache(read);
    let answered = 0;
    cache.subscribe(() => (answered += 1));
    cache.want('project', ['p1', 'p1']);
    cache.want('site', ['s1']);
    cache.want('project', ['p1']);
    expect(cache.get('project', 'p1')).toBeUndefined();
    await tick();
    expect(calls).toEqual([{ projectIds: ['p1'], siteIds: ['s1'] }]);
    expect(answered).toBe(1);
    expect(cache.get('project', 'p1')).toEqual({ code: 'XY-101-301', name: '研究', nameEn: 'Study' });
    cache.want('project', ['p1']);
    cache.want('site', ['s1']);
    await tick();
    expect(calls).toHaveLength(1);
  });

  it('remembers ids the server does not name (unknown or hidden) as null, asked once', async () => {
    const { calls, read } = recorder({});
    const cache = createNameCache(read);
    cache.want('user', ['u-x']);
    await tick();
    expect(cache.get('user', 'u-x')).toBeNull();
    cache.want('user', ['u-x']);
    await tick();
    expect(calls).toHaveLength(1);
  });

  it('splits a batch larger than the server takes into rounds', async () => {
    const { calls, read } = recorder({});
    const cache = createNameCache(read);
    cache.want(
      'drug',
      Array.from({ length: 450 }, (_, i) => `d${i}`),
    );
    for (let i = 0; i < 5; i += 1) await tick();
    expect(calls.map((c) => c.drugIds!.length)).toEqual([200, 200, 50]);
  });

  it('asks again after a failed read, and after being cleared', async () => {
    let fail = true;
    const calls: unknown[] = [];
    const cache = createNameCache(async (params) => {
      calls.push(params);
      if (fail) throw new Error('offline');
      return { project: { p1: { code: 'C1', name: 'n' } } };
    });
    cache.want('project', ['p1']);
    await tick();
    expect(cache.get('project', 'p1')).toBeUndefined();
    fail = false;
    cache.want('project', ['p1']);
    await tick();
    expect(cache.get('project', 'p1')?.code).toBe('C1');
    cache.clear();
    expect(cache.get('project', 'p1')).toBeUndefined();
    cache.want('project', ['p1']);
    await tick();
    expect(calls).toHaveLength(3);
  });
});

describe('what a reference shows', () => {
  const zh = (t: { zh: string; en: string }) => t.zh;
  const en = (t: { zh: string; en: string }) => t.en;
  it('a project its code, a site its number and name, others their name in the display language', () => {
    expect(nameText('project', { code: 'XY-101-301', name: '研究' }, zh)).toBe('XY-101-301');
    expect(nameText('site', { code: '01', name: '北京协和医院', nameEn: 'PUMCH' }, en)).toBe('01 PUMCH');
    expect(nameText('site', { code: '01', name: '北京协和医院', nameEn: 'PUMCH' }, zh)).toBe(
      '01 北京协和医院',
    );
    expect(nameText('organisation', { name: '药物警戒部' }, en)).toBe('药物警戒部');
    expect(nameText('user', { name: '录入员小王' }, zh)).toBe('录入员小王');
  });
});
