import { afterAll, describe, expect, it } from 'vitest';
import {
  codedTermFromCoding,
  MeddraDictionary,
  meddraTermsOf,
  generateMeddra,
  meddraFiles,
  SMALL_MEDDRA,
} from '@pv/engine';
import type { MeddraRelease } from '@pv/engine';
import { caseCollectionNames, createCasesModule, workbenchModule } from '../cases/index';
import { demoCaseContent } from '../cases';
import { caseRig, demoProject, PASSWORD, recordingSigner } from '../cases/testing';
import { createTranslator } from '../i18n';
import { JobRunner } from '../jobs';
import { reportCodesModule } from '../report-codes';
import { workflowModule } from '../workflow';
import { recodeProject } from './coding';
import { auditService } from '../audit';
import { createCaller } from '../http';
import { RECODE_JOB } from './coding-job';
import type { RecodeJobPayload } from './coding-job';
import { dictionariesModule, dictionaryService, meddraCodingFindings } from './index';

const rig = await caseRig({
  modules: [
    createCasesModule({ signer: recordingSigner() }),
    workbenchModule,
    workflowModule,
    reportCodesModule,
    dictionariesModule,
  ],
});
afterAll(() => rig.close());
type Data = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- envelope data read loosely in assertions

// 27.0 and a 27.1 where one LLT is renamed and one removed.
const v1 = generateMeddra(SMALL_MEDDRA).en;
const renamed = v1.llts.find((l) => l.current && l.code !== l.ptCode)!;
const removed = v1.llts.find((l) => l.current && l.code !== l.ptCode && l !== renamed)!;
const kept = v1.llts.find((l) => l.current && l !== renamed && l !== removed)!;
const v2: MeddraRelease = {
  ...v1,
  version: '27.1',
  llts: v1.llts
    .filter((l) => l !== removed)
    .map((l) => (l === renamed ? { ...l, name: `${l.name} revised` } : l)),
};
const from = new MeddraDictionary(v1);
const coded = (code: string) => codedTermFromCoding(from.codingOf(code)!);

const handle = rig.store.tenant('t1', { userId: 'system:test' });
const service = dictionaryService(rig.store);
await service.importMeddra(handle, meddraFiles(v1));
await service.importMeddra(handle, meddraFiles(v2));
await service.saveSettings(handle, 'p1', { meddraVersion: '27.0', whodrugVersion: null });

const entry = rig.as('entry');

async function codedCase(): Promise<{ id: string; rev: number; document: Data }> {
  const answer = await entry.call('POST', '/cases', {
    projectId: 'p1',
    reportType: '2',
    happenCountry: 'CN',
    hospitalId: 'p1-s1',
  });
  expect(answer.body.code, answer.body.msg).toBe(200);
  const created = answer.body.data as Data;
  const content = demoCaseContent({ n: 1, project: demoProject('p1'), today: rig.clock.now() }) as Data;
  const reaction = (content.reactions as Data[])[0]!;
  const document = {
    ...content,
    report: { ...created.case.document.report, ...(content.report as object) },
    reactions: [
      { ...reaction, reactionNative: renamed.name, reactionTranslation: undefined, ...coded(renamed.code) },
      { ...reaction, reactionNative: removed.name, ...coded(removed.code) },
      { ...reaction, reactionNative: kept.name, ...coded(kept.code) },
    ],
  };
  const saved = await entry.call('PUT', `/cases/${created.case.id}`, {
    rev: created.case.rev,
    document,
    confirmMissing: true,
  });
  expect(saved.body.code, JSON.stringify(saved.body.msg)).toBe(200);
  return { id: created.case.id, rev: saved.body.data.case.rev, document };
}

describe('recoding a project to another MedDRA version', () => {
  const runner = new JobRunner(rig.platform.deps, rig.platform.jobDefinitions, { owner: 'test' });
  /** Starts the recode task, runs it, and answers the finished task (or the refusal of the start). */
  const recode = async (body: Data, who = entry) => {
    const started = await who.call('POST', '/dictionaries/coding/projects/p1/recode', body);
    if (started.body.code !== 200) return started;
    expect(started.body.data).toMatchObject({ type: 'dictionaries.recodeProject', status: 'queued' });
    await runner.tick();
    await runner.idle();
    return who.call('GET', `/jobs/${started.body.data.jobId as string}`);
  };

  it('runs as a task: previews what changes without writing, then saves each changed case', async () => {
    const { id, rev, document } = await codedCase();
    const preview = await recode({ version: '27.1' });
    expect(preview.body.data).toMatchObject({ status: 'succeeded', progress: { percent: 100 } });
    const report = preview.body.data.result as Data;
    expect(report).toMatchObject({ version: '27.1', applied: false, stopped: false });
    expect(report.caseCount).toBe((report.cases as Data[]).length);
    const row = (report.cases as Data[]).find((c) => c.caseId === id)!;
    expect(row.outcome).toBe('preview');
    // The demo case's other MedDRA fields are coded with the demo's synthetic 27.0 in Chinese; 27.1
    // is imported in English only, so they are recoded in English. Terms that stay as they were are
    // counted, not listed.
    const others = meddraTermsOf(document).filter((t) => t.meddraCode && t.e2b !== 'E.i.2.1');
    expect(others.length).toBeGreaterThan(0);
    expect(row.summary).toMatchObject({ updated: 1 + others.length });
    const reactionTerms = (row.terms as Data[]).filter((t) => t.e2b === 'E.i.2.1');
    expect(reactionTerms.map((t) => t.status)).toEqual(['updated', 'notFound']);
    const change = (row.terms as Data[])[0]!;
    expect(change).toMatchObject({ e2b: 'E.i.2.1', verbatim: renamed.name, status: 'updated' });
    expect(change.changes).toContainEqual({
      field: 'meddraLltName',
      before: renamed.name,
      after: `${renamed.name} revised`,
    });
    expect((await entry.call('GET', `/cases/${id}`)).body.data.rev).toBe(rev);

    const applied = await recode({ version: '27.1', apply: true });
    expect((applied.body.data.result.cases as Data[]).find((c) => c.caseId === id)!.outcome).toBe('saved');
    const after = (await entry.call('GET', `/cases/${id}`)).body.data as Data;
    expect(after.rev).toBeGreaterThan(rev);
    const reactions = after.document.reactions as Data[];
    expect(reactions[0]).toMatchObject({
      meddraVersion: '27.1',
      meddraCode: renamed.code,
      meddraLltName: `${renamed.name} revised`,
    });
    // Not in 27.1: left as coded, for a coder to recode by hand.
    expect(reactions[1]).toMatchObject({ meddraVersion: '27.0', meddraCode: removed.code });
    expect(reactions[2]).toMatchObject({ meddraVersion: '27.1', meddraCode: kept.code });

    const again = await recode({ version: '27.1', apply: true });
    expect((again.body.data.result.cases as Data[]).find((c) => c.caseId === id)!.outcome).toBe('unchanged');
  });

  it('reports a case it may not save, in both languages, and goes on with the others', async () => {
    const { id } = await codedCase();
    const other = await codedCase();
    await handle
      .collection(caseCollectionNames.cases)
      .updateOne({ _id: id }, { $set: { 'state.isFrozen': true } });
    const applied = await recode({ version: '27.1', apply: true });
    const rows = applied.body.data.result.cases as Data[];
    const refused = rows.find((c) => c.caseId === id)!;
    expect(refused.outcome).toBe('refused');
    expect(refused.message.zh).not.toBe(refused.message.en);
    expect(refused.message.en).not.toMatch(/^cases\./);
    expect(rows.find((c) => c.caseId === other.id)!.outcome).toBe('saved');
    expect((await entry.call('GET', `/cases/${id}`)).body.data.document.reactions[0].meddraVersion).toBe(
      '27.0',
    );
  });

  it('says its progress case by case, and stops between cases when the task is canceled', async () => {
    const c = createCaller({
      deps: rig.platform.deps,
      principal: { tenantId: 't1', userId: 'entry' },
      lang: 'en',
      requestId: 'test',
    });
    const steps: [number, string][] = [];
    const report = await recodeProject(c, service, 'p1', {
      version: '27.1',
      apply: false,
      progress: async (percent, message) => void steps.push([percent, message]),
    });
    expect(report.caseCount).toBeGreaterThan(1);
    expect(steps.at(-1)).toEqual([99, `${report.caseCount}/${report.caseCount}`]);
    expect(steps.map(([percent]) => percent)).toEqual(
      [...steps.map(([percent]) => percent)].sort((a, b) => a - b),
    );

    const canceled = new AbortController();
    canceled.abort();
    const stopped = await recodeProject(c, service, 'p1', {
      version: '27.1',
      apply: true,
      signal: canceled.signal,
    });
    expect(stopped).toMatchObject({ stopped: true, caseCount: 0, cases: [] });
  });

  it('saves each case through the case service as the user who started the task, with their project membership', async () => {
    const { id, rev } = await codedCase();
    const run = async (requestedBy: string) => {
      // The payload's user is what the request knew; the job acts as its record's requester.
      const payload: RecodeJobPayload = {
        projectId: 'p1',
        version: '27.1',
        apply: true,
        caller: { principal: { tenantId: 't1', userId: 'entry', name: 'x' }, lang: 'en' },
      };
      const job = await rig.platform.deps.jobs.enqueue(RECODE_JOB, payload, {
        tenantId: 't1',
        requestedBy,
        maxAttempts: 1,
      });
      await runner.tick();
      await runner.idle();
      const done = await rig.platform.deps.jobs.get(job._id);
      expect(done?.status, done?.lastError ?? '').toBe('succeeded');
      return ((done!.result as Data).cases as Data[]).find((row) => row.caseId === id)!;
    };
    // Not a member of p1: the case service refuses the save (the job carries no request to lean on).
    const members = handle.collection('projectMembers');
    await members.updateOne({ projectId: 'p1', userId: 'qc' }, { $set: { projectId: 'p2' } });
    const outsider = await run('qc').finally(() =>
      members.updateOne({ projectId: 'p2', userId: 'qc' }, { $set: { projectId: 'p1' } }),
    );
    expect(outsider.outcome).toBe('refused');
    expect(outsider.message.en).toBe(rig.platform.deps.translator.t('en', 'cases.notProjectMember'));
    expect((await entry.call('GET', `/cases/${id}`)).body.data.rev).toBe(rev);

    const saved = await run('entry');
    expect(saved.outcome).toBe('saved');
    const [last] = await auditService(handle).byDocument(caseCollectionNames.cases, id, { limit: 1 });
    expect(last).toMatchObject({ userId: 'entry' });
    expect((await entry.call('GET', `/cases/${id}`)).body.data.rev).toBeGreaterThan(rev);
  });

  it('refuses at once a version that is not imported, and callers without the configuration permission', async () => {
    const missing = await recode({ version: '9.9' });
    expect(missing.body).toMatchObject({ code: 400, msg: 'MedDRA version 9.9 en has not been imported' });
    const viewer = await recode({ version: '27.1' }, rig.as('viewer'));
    expect(viewer.body.code).not.toBe(200);
  });
});

describe('medical review tasks', () => {
  it("lists cases at medical review with their coding status, the reviewer's own with mine", async () => {
    const { id, document } = await codedCase();
    const terms = meddraTermsOf(document);
    const coded = terms.filter((t) => t.meddraCode);
    const notIn27 = coded.filter((t) => !from.llt(t.meddraCode!)).length;
    let rev = (await entry.call('GET', `/cases/${id}`)).body.data.rev as number;
    for (const [who, toNode, next] of [
      ['entry', 'dataQc', 'qc'],
      ['qc', 'medicalReview', 'medical'],
    ] as const) {
      const moved = await rig.as(who).call('POST', `/cases/${id}/submit`, {
        rev,
        toNode,
        userId: next,
        opinion: 'ok',
        password: PASSWORD,
      });
      expect(moved.body.code, JSON.stringify(moved.body.msg)).toBe(200);
      rev = moved.body.data.case.rev;
    }
    const mine = await rig.as('medical').call('GET', '/dictionaries/coding/medical-review-tasks?mine=true');
    expect(mine.body.code).toBe(200);
    expect(mine.body.data.total).toBe(1);
    expect(mine.body.data.items[0]).toMatchObject({
      id,
      node: 'medicalReview',
      handlerId: 'medical',
      projectId: 'p1',
      // The project's version is 27.0: its issues are the demo codes not in it.
      coding: {
        total: terms.length,
        coded: coded.length,
        uncoded: terms.length - coded.length,
        issues: notIn27,
        configuredVersion: '27.0',
      },
    });
    expect(
      (await entry.call('GET', '/dictionaries/coding/medical-review-tasks?mine=true')).body.data.total,
    ).toBe(0);
    expect((await entry.call('GET', '/dictionaries/coding/medical-review-tasks')).body.data.total).toBe(1);

    await service.saveSettings(handle, 'p1', { meddraVersion: '27.1', whodrugVersion: null });
    const moved = await rig.as('medical').call('GET', '/dictionaries/coding/medical-review-tasks?mine=true');
    // Every coded term is now of another version than the project's.
    expect(moved.body.data.items[0].coding).toMatchObject({
      issues: coded.length,
      configuredVersion: '27.1',
    });
    await service.saveSettings(handle, 'p1', { meddraVersion: '27.0', whodrugVersion: null });
  });
});

describe('coding findings for the case check', () => {
  const translator = createTranslator();
  const doc = {
    reactions: [
      { reactionNative: 'a', ...coded(kept.code) },
      { reactionNative: 'b', ...coded(renamed.code), meddraVersion: '26.0' },
    ],
    tests: [{ testName: 'x', meddraCode: '99999999', meddraVersion: '27.0' }],
  };

  it('names each coded term of another version or not in the configured one, in zh and en', async () => {
    const findings = await meddraCodingFindings(handle, service, translator, doc, 'p1');
    expect(findings.map((f) => [f.path, f.e2b, f.messageKey, f.severity])).toEqual([
      ['/reactions/1/meddraCode', 'E.i.2.1b', 'dictionaries.meddraVersionMismatch', 'warning'],
      ['/tests/0/meddraCode', 'F.r.2.2b', 'dictionaries.lltNotInVersion', 'warning'],
    ]);
    expect(findings[0]!.message.en).toBe(
      `MedDRA version differs from group LLT codes: LLT ${renamed.code} is coded in MedDRA 26.0, the configured version is 27.0`,
    );
    expect(findings[0]!.message.zh).toBe(
      `MedDRA 版本与组 LLT 编码不一致：LLT ${renamed.code} 编码于 MedDRA 26.0，配置的版本为 27.0`,
    );
  });

  it('names a coded LLT whose stored SOC is not on a path of its PT (the coding does not reach SOC)', async () => {
    const elsewhere = v1.socs.find((soc) => soc.code !== coded(kept.code).meddraSocCode)!;
    const findings = await meddraCodingFindings(
      handle,
      service,
      translator,
      { reactions: [{ reactionNative: 'a', ...coded(kept.code), meddraSocCode: elsewhere.code }] },
      'p1',
    );
    expect(findings.map((f) => [f.path, f.messageKey, f.message.en])).toEqual([
      [
        '/reactions/0/meddraCode',
        'dictionaries.selectionNotReachingSoc',
        `The selection must reach SOC level (term ${kept.code})`,
      ],
    ]);
  });

  it('says the version is not configured, and nothing for a case without coded terms', async () => {
    const findings = await meddraCodingFindings(handle, service, translator, doc, 'nope');
    expect(findings.map((f) => f.message.en)).toEqual(['MedDRA version not configured']);
    expect(await meddraCodingFindings(handle, service, translator, { reactions: [{}] }, 'p1')).toEqual([]);
  });
});

describe('the case check with the MedDRA coding rules', () => {
  type CheckFinding = { path: string; e2b: string; severity: string; messageKey: string; message: Data };
  const checkOf = async (id: string, lang: 'cn' | 'en' = 'en') => {
    const answer = await entry.call('POST', `/cases/${id}/check`, {}, lang);
    expect(answer.body.code, answer.body.msg).toBe(200);
    return answer.body.data as { warningCount: number; groups: { tab: string; findings: CheckFinding[] }[] };
  };
  const meddraFindings = (check: Awaited<ReturnType<typeof checkOf>>) =>
    check.groups
      .flatMap((g) => g.findings.map((f) => ({ tab: g.tab, ...f })))
      .filter((f) => f.messageKey.startsWith('dictionaries.'));

  it('reports a code of another version at its field, saves anyway (a warning), and says when no version is configured', async () => {
    const { id, rev, document } = await codedCase();
    const reactions = (document.reactions as Data[]).map((r, i) =>
      i === 0 ? { ...r, meddraVersion: '26.0' } : r,
    );
    const saved = await entry.call('PUT', `/cases/${id}`, {
      rev,
      document: { ...document, reactions },
      confirmMissing: true,
    });
    expect(saved.body.code, JSON.stringify(saved.body.msg)).toBe(200);

    const found = meddraFindings(await checkOf(id));
    expect(found.find((f) => f.path === '/reactions/0/meddraCode')).toMatchObject({
      tab: 'reaction',
      e2b: 'E.i.2.1b',
      severity: 'warning',
      messageKey: 'dictionaries.meddraVersionMismatch',
      message: {
        en: `MedDRA version differs from group LLT codes: LLT ${renamed.code} is coded in MedDRA 26.0, the configured version is 27.0`,
        zh: `MedDRA 版本与组 LLT 编码不一致：LLT ${renamed.code} 编码于 MedDRA 26.0，配置的版本为 27.0`,
      },
    });
    // The other reactions are codes of 27.0: nothing to say about them.
    expect(found.filter((f) => /^\/reactions\/[12]\//.test(f.path))).toEqual([]);

    await service.saveSettings(handle, 'p1', { meddraVersion: null, whodrugVersion: null });
    try {
      const unconfigured = meddraFindings(await checkOf(id));
      expect(unconfigured.map((f) => [f.path, f.message.zh, f.message.en])).toEqual([
        ['/reactions/0/meddraCode', 'MedDRA 版本未配置', 'MedDRA version not configured'],
      ]);
    } finally {
      await service.saveSettings(handle, 'p1', { meddraVersion: '27.0', whodrugVersion: null });
    }
  });
});

describe('a release asked for without a language', () => {
  it('is any language of the version (a picker in the zh display coding from an English-only release)', async () => {
    const picked = await entry.call(
      'POST',
      '/dictionaries/meddra/select',
      { version: '27.0', code: kept.code },
      'cn',
    );
    expect(picked.body.data).toMatchObject({ language: 'en', llt: { code: kept.code, name: kept.name } });
    const asked = await entry.call(
      'POST',
      '/dictionaries/meddra/select',
      { version: '27.0', language: 'zh', code: kept.code },
      'cn',
    );
    expect(asked.body.code).toBe(400);
  });
});
