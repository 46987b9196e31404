import { afterAll, describe, expect, it } from 'vitest';
import { caseRig } from '../cases/testing';
import { ConfiguratorService } from '../configurator';

const rig = await caseRig();
afterAll(() => rig.close());
const entry = rig.as('entry');
const projects = () => rig.store.tenant('t1', { userId: 'x' }).collection('projects');
const skipQc = { nodes: { dataEntry: { transitions: { submit: ['medicalReview'] } } } };

describe('project workflow overrides', () => {
  it('are saved in UAT only: the project runs its PRO workflow until the signed publish', async () => {
    const refused = await entry.call(
      'PUT',
      '/workflow/case/projects/p1',
      {
        override: {
          order: [
            'dataEntry',
            'dataQc',
            'medicalReview',
            'sponsorAudit',
            'createSubmissionPlan',
            'approveSubmissionPlan',
            'submissionTransmission',
            'island',
          ],
          nodes: { island: { label: { zh: '孤岛', en: 'Island' }, transitions: {} } },
        },
      },
      'en',
    );
    expect(refused.body.code).toBe(400);
    expect(refused.body.msg).toBe('Node island cannot be reached');
    expect(refused.body.data.problems).toContainEqual({
      messageKey: 'workflow.problem.unreachable',
      params: { node: 'island' },
    });
    expect(
      (await rig.store.tenant('t1', { userId: 'x' }).collection('configuratorDrafts').find({})).length,
    ).toBe(0);

    const saved = await entry.call('PUT', '/workflow/case/projects/p1', { override: skipQc }, 'en');
    expect(saved.body).toMatchObject({
      code: 200,
      msg: 'Workflow saved in UAT; cases follow it once it is published to PRO with an e-signature',
      data: { environment: 'UAT', workflow: skipQc },
    });
    // PRO (the project the cases read) is unchanged.
    expect((await projects().findOne({ _id: 'p1' }))!.workflowOverride).toBeUndefined();
    const running = await entry.call('GET', '/workflow/case?projectId=p1');
    expect(running.body.data.nodes.dataEntry.transitions.submit).not.toEqual(['medicalReview']);
    expect((await entry.call('PUT', '/workflow/case/projects/nope', { override: skipQc })).body.code).toBe(
      404,
    );

    await new ConfiguratorService(rig.store.tenant('t1', { userId: 'admin' }), rig.clock).publish(
      async () => ({ _id: 'signature' }),
      'password',
    );
    expect((await projects().findOne({ _id: 'p1' }))!.workflowOverride).toEqual(skipQc);
    const published = await entry.call('GET', '/workflow/case?projectId=p1');
    expect(published.body.data.nodes.dataEntry.transitions.submit).toEqual(['medicalReview']);
  });
});
