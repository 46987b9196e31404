/** Test rig of the submission tests: cases, projects, receivers and this module on one platform. */
import { expect } from 'vitest';
import { createCasesModule, demoCaseContent, workbenchModule } from '../cases';
import { caseRig, demoProject, recordingSigner } from '../cases/testing';
import { exportsModule } from '../exports';
import { openFileStore } from '../files';
import { projectsModule } from '../projects';
import { reportCodesModule } from '../report-codes';
import { workflowModule } from '../workflow';
import { createSubmissionsModule } from './index';

export async function submissionRig(today: Date, options: { bulkMaxBytes?: number } = {}) {
  const signer = recordingSigner();
  const rig = await caseRig({
    clock: { now: () => today },
    modules: [
      createCasesModule({ signer }),
      workbenchModule,
      workflowModule,
      reportCodesModule,
      projectsModule,
      exportsModule,
      createSubmissionsModule({ signer, ...options }),
    ],
  });
  // E2B export keeps its files (exports' own tests do the same).
  rig.platform.deps.files = await openFileStore(rig.store, { dataDir: rig.store.dataDir });
  const entry = rig.as('entry');

  /** A p1 case saved with demo content n, received `receivedDaysAgo` days before today. */
  async function seeded(
    n: number,
    options: { receivedDaysAgo: number; reactionIndex: number; susar?: boolean },
    projectId = 'p1',
  ) {
    const created = await entry.call('POST', '/cases', { projectId, reportType: '2', happenCountry: 'CN' });
    const { id, document } = created.body.data.case;
    const content = demoCaseContent({ n, project: demoProject(projectId), today, ...options });
    const saved = await entry.call('PUT', `/cases/${id}`, {
      rev: 1,
      document: { ...content, report: { ...document.report, ...(content.report as object) } },
    });
    expect(saved.body.code, JSON.stringify(saved.body)).toBe(200);
    return {
      id: id as string,
      rev: saved.body.data.case.rev as number,
      reportCode: saved.body.data.case.document.report.reportCode as string,
    };
  }

  async function receiver(name: string, identifier: string, profile: string): Promise<string> {
    const answer = await entry.call('POST', '/exports/receivers', {
      name,
      receiverIdentifier: identifier,
      senderIdentifier: 'XYPHARMA',
      profile,
      format: 'r3',
    });
    expect(answer.body.code, JSON.stringify(answer.body)).toBe(200);
    return answer.body.data.receiverId as string;
  }

  /**
   * The administrator's project form: the project's fields and the receivers it reports to (no
   * sponsor: the rig's tenant has no sponsor allowance).
   */
  async function linkReceivers(receiverIds: string[]) {
    const project = (await entry.call('GET', '/projects/p1')).body.data;
    const p = demoProject('p1');
    const answer = await entry.call('PUT', '/projects/p1', {
      code: p.code,
      name: p.name,
      nameEn: p.nameEn,
      studyType: p.studyType,
      sponsorStudyNumber: p.sponsorStudyNumber,
      receiverIds,
      rev: project.rev,
    });
    expect(answer.body.code, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data.receiverIds).toEqual(receiverIds);
  }

  return { ...rig, signer, entry, seeded, receiver, linkReceivers };
}
