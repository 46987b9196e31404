import { afterAll, describe, expect, it } from 'vitest';
import { caseRig, demoProject } from '../cases/testing';
import { demoCaseContent, REACTION_TERMS } from '../cases';
import { ConfiguratorService } from '../configurator';

const rig = await caseRig();
afterAll(() => rig.close());
const entry = rig.as('entry');

const created = await entry.call('POST', '/cases', { projectId: 'p1', reportType: '2', happenCountry: 'CN' });
const caseId = created.body.data.case.id as string;
const content = demoCaseContent({
  n: 6,
  project: demoProject('p1'),
  today: new Date('2026-11-21T00:00:00Z'),
  reactionIndex: 5,
});
/** The demo's (synthetic MedDRA) reaction term 5: serious, hospitalisation. */
const reaction = REACTION_TERMS[5]!;
const saved = await entry.call('PUT', `/cases/${caseId}`, {
  rev: 1,
  document: {
    ...content,
    report: { ...created.body.data.case.document.report, ...(content.report as object) },
  },
});
const rev = saved.body.data.case.rev as number;

describe('H.1 narrative drafts', () => {
  it('drafts from the bundled default template in the request language', async () => {
    const zh = await entry.call('POST', `/narratives/cases/${caseId}/draft`, {}, 'cn');
    expect(zh.body.data.templateId).toBeNull();
    expect(zh.body.data.text).toContain('受试者 ZQ（受试者编号 01-0106），男，年龄 ');
    expect(zh.body.data.text).toContain(`受试者出现${reaction.zh}（严重性标准：`);
    expect(zh.body.data.text).toContain('转归为');
    const en = await entry.call('POST', `/narratives/cases/${caseId}/draft`, { lang: 'en' });
    expect(en.body.data.text).toContain('Subject ZQ (subject number 01-0106); sex: Male; age: ');
    expect(en.body.data.text).toContain(`experienced ${reaction.en} (seriousness: `);
    expect(en.body.data.text).toMatch(/The subject received XY-101注射液 \(first dose \d{4}-\d{2}-\d{2}\)/);
    // Drafting leaves the case as it was.
    expect((await entry.call('GET', `/cases/${caseId}`)).body.data.rev).toBe(rev);
  });

  it('drafts from the template published to PRO, never from a UAT draft; refuses templates that do not compile or use unknown helpers', async () => {
    const configurator = () =>
      new ConfiguratorService(rig.store.tenant('t1', { userId: 'admin' }), rig.clock);
    const narrative = (id: string, body: string) => ({
      id,
      kind: 'narrative' as const,
      name: { zh: id, en: id },
      lang: 'en' as const,
      body,
    });
    await expect(
      configurator().saveTemplate(
        'p1',
        narrative('broken', 'Line one\n{{#each reactions}}{{reactionNative}}'),
      ),
    ).rejects.toMatchObject({ code: 400 });
    await expect(
      configurator().saveTemplate('p1', narrative('helper', '{{lookupSecrets patient}}')),
    ).rejects.toMatchObject({ code: 400, params: { name: 'lookupSecrets' } });

    await configurator().saveTemplate(
      'p1',
      narrative(
        'p1-en',
        '{{report.reportCode}}: {{codelabel "sex" patient.gender}}{{#each reactions}}; {{reactionTranslation}} from {{e2bDate startDate}}{{/each}}',
      ),
    );
    // In UAT only: cases still draft from the bundled default.
    const before = await entry.call('POST', `/narratives/cases/${caseId}/draft`, { lang: 'en' });
    expect(before.body.data.templateId).toBeNull();
    expect((await entry.call('GET', '/narratives/templates?projectId=p1')).body.data.items).toEqual([]);

    await configurator().publish(async () => ({ _id: 'signature' }), 'password');
    const draft = await entry.call('POST', `/narratives/cases/${caseId}/draft`, { lang: 'en' });
    expect(draft.body.data.templateId).toBe('p1-en');
    expect(draft.body.data.text).toMatch(
      new RegExp(`^CN-XYPHARMA-\\d{10}: Male; ${reaction.en} from \\d{4}-\\d{2}-\\d{2}$`),
    );
    expect(
      (await entry.call('GET', '/narratives/templates?projectId=p1')).body.data.items.map(
        (item: { id: string }) => item.id,
      ),
    ).toEqual(['p1-en']);
    // An English template is not offered for a Chinese draft.
    expect(
      (await entry.call('POST', `/narratives/cases/${caseId}/draft`, { lang: 'zh' })).body.data.templateId,
    ).toBeNull();
    // Template configuration has no unsigned way around the publish any more.
    expect(
      (await entry.call('POST', '/narratives/templates', { name: 'x', lang: 'en', body: 'x' })).body.code,
    ).toBe(404);
    const tried = await entry.call('POST', `/narratives/cases/${caseId}/draft`, {
      lang: 'zh',
      body: '{{patient.patientsName}}，{{lang}}',
    });
    expect(tried.body.data.text).toBe('ZQ，zh');
  });
});
