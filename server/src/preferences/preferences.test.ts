import { afterAll, describe, expect, it } from 'vitest';
import type { Authenticator } from '../http';
import { call, testPlatform } from '../testing';
import { testStore } from '../http/test-store';
import { preferencesModule } from './index';

const store = await testStore();
afterAll(() => store.close());

// Tokens name the tenant and user: `t1-alice`.
const authenticator: Authenticator = {
  authenticate: async (token) => {
    const [tenantId, userId] = token.split('-');
    return tenantId && userId ? { tenantId, userId } : null;
  },
};
const { app } = testPlatform({ store, modules: [preferencesModule], authenticator });

const GET = '/api/system/sysUserDefinedColumnsController/getUserDefinedColumns';
const SAVE = '/api/system/sysUserDefinedColumnsController/saveUserDefinedColumns';
const layout = {
  caseList: { checked: ['报告编号', '项目编号'], order: ['项目编号', '报告编号', '受试者编号'] },
};

describe('user-defined columns', () => {
  it('answers no columnJson before the user customises anything', async () => {
    const res = await call(app, 'POST', GET, { token: 't1-alice' });
    expect(res.body.code).toBe(200);
    expect(res.body.data).toEqual({});
  });

  it('keeps each user their own layout, per tenant', async () => {
    const saved = await call(app, 'POST', SAVE, {
      token: 't1-alice',
      body: { columnJson: JSON.stringify(layout) },
    });
    expect(saved.body.code).toBe(200);
    const mine = await call(app, 'POST', GET, { token: 't1-alice' });
    expect(JSON.parse((mine.body.data as { columnJson: string }).columnJson)).toEqual(layout);
    expect((await call(app, 'POST', GET, { token: 't1-bob' })).body.data).toEqual({});
    expect((await call(app, 'POST', GET, { token: 't2-alice' })).body.data).toEqual({});
  });

  it('replaces the whole layout text on every save', async () => {
    const next = { userList: { checked: ['账号'], order: ['账号', '姓名'] } };
    await call(app, 'POST', SAVE, { token: 't1-alice', body: { columnJson: JSON.stringify(next) } });
    const mine = await call(app, 'POST', GET, { token: 't1-alice' });
    expect(JSON.parse((mine.body.data as { columnJson: string }).columnJson)).toEqual(next);
  });

  it('clears the layout on reset with the translated message', async () => {
    const res = await call(app, 'POST', SAVE, { token: 't1-alice', body: { columnJson: '{}' }, lang: 'en' });
    expect(res.body).toMatchObject({ code: 200, msg: "The table's columns have been cleared" });
    const zh = await call(app, 'POST', SAVE, { token: 't1-alice', body: { columnJson: '' } });
    expect(zh.body.msg).toBe('表格列已清空');
    expect((await call(app, 'POST', GET, { token: 't1-alice' })).body.data).toEqual({});
  });

  it('refuses malformed or contradictory layouts and keeps the stored one', async () => {
    await call(app, 'POST', SAVE, { token: 't1-carol', body: { columnJson: JSON.stringify(layout) } });
    for (const columnJson of [
      'not json',
      '[]',
      JSON.stringify({ caseList: { checked: ['a'] } }),
      JSON.stringify({ caseList: { checked: ['x'], order: ['a'] } }),
      JSON.stringify({ 'bad id!': { checked: [], order: [] } }),
    ]) {
      const res = await call(app, 'POST', SAVE, { token: 't1-carol', body: { columnJson }, lang: 'en' });
      expect(res.body.code).toBe(400);
      expect(res.body.msg).toMatch(/column layout/);
    }
    expect((await call(app, 'POST', SAVE, { token: 't1-carol', body: {} })).body.code).toBe(400);
    const kept = await call(app, 'POST', GET, { token: 't1-carol' });
    expect(JSON.parse((kept.body.data as { columnJson: string }).columnJson)).toEqual(layout);
  });

  it('needs a session', async () => {
    expect((await call(app, 'POST', GET)).body.code).toBe(400001);
    expect((await call(app, 'POST', SAVE, { body: { columnJson: '{}' } })).body.code).toBe(400001);
  });
});

describe('guided tour flag', () => {
  it('is unseen until recorded, then seen for that user only', async () => {
    expect((await call(app, 'GET', '/api/preferences/tour', { token: 't1-dave' })).body.data).toMatchObject({
      seen: false,
    });
    const seen = await call(app, 'POST', '/api/preferences/tour/seen', { token: 't1-dave' });
    expect(seen.body.data).toMatchObject({ seen: true });
    expect((await call(app, 'GET', '/api/preferences/tour', { token: 't1-dave' })).body.data).toMatchObject({
      seen: true,
    });
    expect((await call(app, 'GET', '/api/preferences/tour', { token: 't1-erin' })).body.data).toMatchObject({
      seen: false,
    });
  });

  it('keeps the column layout when the tour is recorded', async () => {
    await call(app, 'POST', SAVE, { token: 't1-frank', body: { columnJson: JSON.stringify(layout) } });
    await call(app, 'POST', '/api/preferences/tour/seen', { token: 't1-frank' });
    const mine = await call(app, 'POST', GET, { token: 't1-frank' });
    expect(JSON.parse((mine.body.data as { columnJson: string }).columnJson)).toEqual(layout);
  });
});

describe('case-page tour flag', () => {
  it('is recorded apart from the first-login tour, per user', async () => {
    const CASE = '/api/preferences/tour/case';
    expect((await call(app, 'GET', CASE, { token: 't1-gina' })).body.data).toMatchObject({ seen: false });
    await call(app, 'POST', '/api/preferences/tour/seen', { token: 't1-gina' });
    expect((await call(app, 'GET', CASE, { token: 't1-gina' })).body.data).toMatchObject({ seen: false });

    const seen = await call(app, 'POST', `${CASE}/seen`, { token: 't1-gina' });
    expect(seen.body.data).toMatchObject({ seen: true });
    expect((await call(app, 'GET', CASE, { token: 't1-gina' })).body.data).toMatchObject({ seen: true });
    expect((await call(app, 'GET', CASE, { token: 't1-hank' })).body.data).toMatchObject({ seen: false });
    expect((await call(app, 'GET', CASE, { token: 't2-gina' })).body.data).toMatchObject({ seen: false });
  });

  it('answers the first-login tour by its id too, and leaves it alone when the case tour is recorded', async () => {
    await call(app, 'POST', '/api/preferences/tour/case/seen', { token: 't1-ivan' });
    expect((await call(app, 'GET', '/api/preferences/tour', { token: 't1-ivan' })).body.data).toMatchObject({
      seen: false,
    });
    await call(app, 'POST', '/api/preferences/tour/main/seen', { token: 't1-ivan' });
    expect((await call(app, 'GET', '/api/preferences/tour', { token: 't1-ivan' })).body.data).toMatchObject({
      seen: true,
    });
    expect(
      (await call(app, 'GET', '/api/preferences/tour/main', { token: 't1-ivan' })).body.data,
    ).toMatchObject({
      seen: true,
    });
  });

  it('refuses an unknown tour and records nothing', async () => {
    const res = await call(app, 'POST', '/api/preferences/tour/other/seen', { token: 't1-judy', lang: 'en' });
    expect(res.body.code).toBe(400);
    expect(res.body.msg).toMatch(/^[A-Z][a-z]+ /); // the translated validation message, not a key
    expect((await call(app, 'GET', '/api/preferences/tour/other', { token: 't1-judy' })).body.code).toBe(400);
    for (const tour of ['main', 'case']) {
      const state = await call(app, 'GET', `/api/preferences/tour/${tour}`, { token: 't1-judy' });
      expect(state.body.data).toMatchObject({ seen: false });
    }
    expect((await call(app, 'GET', '/api/preferences/tour/case')).body.code).toBe(400001);
  });
});
