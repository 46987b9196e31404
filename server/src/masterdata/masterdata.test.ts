import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityFixture } from '../auth/testing';
import type { IdentityFixture } from '../auth/testing';
import { call } from '../testing';
import { masterdataModule } from '.';

describe('platform master data (generic entity CRUD)', () => {
  let fx: IdentityFixture;
  let operator: string;
  let admin: string;
  const api = (method: string, path: string, token: string, body?: unknown, lang: 'cn' | 'en' = 'en') =>
    call(fx.platform.app, method, `/api${path}`, { token, body, lang });

  beforeAll(async () => {
    fx = await identityFixture([masterdataModule]);
    operator = await fx.login('operator');
    admin = await fx.login('demoadmin');
  });
  afterAll(() => fx.close());

  it('dictionary types and entries: create, unique, reference, edit from the revision, updateSelectCode, soft delete and restore', async () => {
    const type = await api('POST', '/operator/dict-types', operator, {
      code: 'reportSource',
      nameCn: '报告来源',
      nameEn: 'Report source',
      status: 'normal',
    });
    expect(type.body.code).toBe(200);
    const typeId = (type.body.data as { id: string }).id;

    const again = await api(
      'POST',
      '/operator/dict-types',
      operator,
      {
        code: 'reportSource',
        nameCn: '重复',
        nameEn: 'Duplicate',
        status: 'normal',
      },
      'cn',
    );
    expect(again.status).toBe(400);
    expect(again.body.msg).toBe('字典类型编码 reportSource 已存在');

    const orphan = await api('POST', '/operator/dict-codes', operator, {
      dictTypeCode: 'nope',
      dictCode: '1',
      dictCodeNameCn: '自发报告',
      dictCodeNameEn: 'Spontaneous',
      status: 'normal',
    });
    expect(orphan.status).toBe(400);
    expect(orphan.body.msg).toBe('The dictionary type nope does not exist');

    const entry = await api('POST', '/operator/dict-codes', operator, {
      dictTypeCode: 'reportSource',
      dictCode: '1',
      dictCodeNameCn: '自发报告',
      dictCodeNameEn: 'Spontaneous',
      sort: 1,
      status: 'normal',
    });
    expect(entry.body.code).toBe(200);
    const { id: entryId, rev } = entry.body.data as { id: string; rev: number };

    const selected = await api('POST', '/system/dictCode/updateSelectCode', operator, {
      sysDictCodeId: entryId,
    });
    expect(selected.body.data).toMatchObject({ sysDictCodeId: entryId, dictCodeNameCn: '自发报告' });

    const edited = await api('PUT', `/operator/dict-codes/${entryId}`, operator, {
      rev,
      dictTypeCode: 'reportSource',
      dictCode: '1',
      dictCodeNameCn: '自发报告（医务人员）',
      dictCodeNameEn: 'Spontaneous (healthcare professional)',
      status: 'normal',
    });
    expect(edited.body.code).toBe(200);
    expect(edited.body.data).not.toHaveProperty('sort');
    const stale = await api('PUT', `/operator/dict-codes/${entryId}`, operator, {
      rev,
      dictTypeCode: 'reportSource',
      dictCode: '1',
      dictCodeNameCn: '旧版本',
      dictCodeNameEn: 'Stale',
      status: 'normal',
    });
    expect(stale.status).toBe(409);

    const inUse = await api('DELETE', `/operator/dict-types/${typeId}`, operator);
    expect(inUse.status).toBe(400);
    expect(inUse.body.msg).toMatch(/still has 1 entries/);

    expect((await api('DELETE', `/operator/dict-codes/${entryId}`, operator)).body.code).toBe(200);
    const listed = await api('GET', '/operator/dict-codes?dictTypeCode=reportSource', operator);
    expect((listed.body.data as { total: number }).total).toBe(0);
    const deleted = await api('GET', '/operator/dict-codes?deleted=true', operator);
    expect((deleted.body.data as { items: { id: string }[] }).items.map((i) => i.id)).toEqual([entryId]);
    expect((await api('POST', `/operator/dict-codes/${entryId}/restore`, operator)).body.code).toBe(200);
    const searched = await api('GET', '/operator/dict-codes?keyword=spontaneous', operator);
    expect((searched.body.data as { total: number }).total).toBe(1);
  });

  it('refuses bad bodies and tenant users', async () => {
    const bad = await api('POST', '/operator/regulators', operator, {
      name: '国家药监局',
      nameEn: 'NMPA',
      country: 'XX',
      authorityCode: 'NMPA',
      receiverIdentifier: 'CN-NMPA',
      profile: 'nmpa',
      transport: 'gateway',
      status: 'normal',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('The country code XX is not in the ISO 3166-1 code list');
    const extra = await api('POST', '/operator/dict-types', operator, {
      code: 'x',
      nameCn: 'x',
      nameEn: 'x',
      status: 'normal',
      tenantId: 'other',
    });
    expect(extra.status).toBe(400);
    const tenantUser = await api('GET', '/operator/dict-types', admin);
    expect(tenantUser.status).toBe(403);
  });

  it('line-listing field names do not repeat in either language', async () => {
    const field = {
      fieldKey: 'reportCode',
      nameCn: '报告编号',
      nameEn: 'Report code',
      casePath: '/report/senderSafetyReportId',
      e2bId: 'C.1.1',
      valueType: 'text',
      status: 'normal',
    };
    expect((await api('POST', '/operator/line-listing-fields', operator, field)).body.code).toBe(200);
    const sameEnglish = await api('POST', '/operator/line-listing-fields', operator, {
      ...field,
      fieldKey: 'other',
      nameCn: '另一个',
    });
    expect(sameEnglish.status).toBe(400);
    expect(sameEnglish.body.msg).toMatch(/Report code exists already/);
  });

  it('announcements: only published ones in force reach the notices of any signed-in user', async () => {
    const at = (offsetHours: number) =>
      new Date(fx.clock.now().getTime() + offsetHours * 3600_000).toISOString();
    const post = (title: string, status: string, publishAt: string, expireAt?: string) =>
      api('POST', '/operator/announcements', operator, {
        title,
        content: `${title} 内容`,
        level: 'info',
        status,
        publishAt,
        ...(expireAt ? { expireAt } : {}),
      });
    expect((await post('系统维护', 'published', at(-1), at(24))).body.code).toBe(200);
    expect((await post('草稿', 'draft', at(-1))).body.code).toBe(200);
    expect((await post('未来', 'published', at(0.25))).body.code).toBe(200);
    expect((await post('过期', 'published', at(-48), at(-24))).body.code).toBe(200);
    const backwards = await post('倒置', 'published', at(1), at(-1));
    expect(backwards.status).toBe(400);
    expect(backwards.body.msg).toBe('The expiry time must be after the publication time');

    const notices = await api('GET', '/notices', admin);
    expect((notices.body.data as { items: { title: string }[] }).items.map((n) => n.title)).toEqual([
      '系统维护',
    ]);
    // Within the session's expiry: the one published a quarter of an hour ahead is now in force.
    fx.clock.advance(20 * 60_000);
    const later = await api('GET', '/notices', admin);
    expect((later.body.data as { items: { title: string }[] }).items.map((n) => n.title)).toEqual([
      '未来',
      '系统维护',
    ]);
  });

  it('shows the permission and menu tree with types, permissions and the modules that serve them', async () => {
    type Node = {
      id: string;
      type: string;
      permission: string | null;
      module: string;
      available: boolean;
      labelEn: string;
      children: Node[];
    };
    const tree = (await api('GET', '/operator/menu-tree', operator)).body.data as Node[];
    const operatorArea = tree.find((n) => n.permission === 'holoxcontrol')!;
    const dict = operatorArea.children.find((n) => n.permission === 'holoxcontrol:dict')!;
    expect(dict).toMatchObject({
      type: 'menu',
      module: 'masterdata',
      available: true,
      labelEn: 'Dictionaries',
    });
    expect(dict.children.map((b) => [b.type, b.permission])).toEqual([
      ['button', 'holoxcontrol:dict:add'],
      ['button', 'holoxcontrol:dict:edit'],
      ['button', 'holoxcontrol:dict:delete'],
    ]);
    expect((await api('GET', '/operator/menu-tree', admin)).status).toBe(403);
  });
});
