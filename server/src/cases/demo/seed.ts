/**
 * Demo seed (idempotent): the demo tenant (created by the identity seed) gets a clinical project
 * with two study sites, a study drug and a concomitant drug, a report-code generator, and 50
 * realistic cases spread over the workflow nodes - with their workflow history and snapshots as if
 * the demo users had moved them, some overdue or about to be.
 */
import { randomUUID } from 'node:crypto';
import { caseWorkflow } from '@pv/engine';
import type { ModuleDeps } from '../../http';
import { nextReportCode, RC } from '../../report-codes';
import type { StoredGenerator } from '../../report-codes';
import type { Handle } from '../../store';
import { InvalidStoreRequestError } from '../../store';
import type { WorkflowHistoryEntry } from '../../workflow';
import type { CaseSnapshot } from '../actions';
import { C } from '../collections';
import type { CaseDocument, CaseState } from '../document';
import { e2bNow } from '../document';
import { insertCase } from '../persistence';
import type { Project } from '../projects';
import { configureDemoProject } from '../../dictionaries';
import { demoCaseContent, REACTION_TERMS } from './factory';
import { DEMO_PROJECT_CODE, DEMO_SEED_ACTOR, demoTenantId } from './tenant';

const ACTOR = DEMO_SEED_ACTOR;

/** Node -> how many demo cases wait there; the path each took; who handles the node. */
const SPREAD: { node: string; count: number; completed?: number }[] = [
  { node: 'dataEntry', count: 12 },
  { node: 'dataQc', count: 10 },
  { node: 'medicalReview', count: 9 },
  { node: 'sponsorAudit', count: 6 },
  { node: 'createSubmissionPlan', count: 5 },
  { node: 'approveSubmissionPlan', count: 3 },
  { node: 'submissionTransmission', count: 5, completed: 3 },
];
const PATH = [
  'dataEntry',
  'dataQc',
  'medicalReview',
  'sponsorAudit',
  'createSubmissionPlan',
  'approveSubmissionPlan',
  'submissionTransmission',
];
const DUTY_ACCOUNT: Record<string, string> = {
  dataEntry: 'entry',
  dataQc: 'qc',
  medicalReview: 'medical',
  sponsorAudit: 'sponsor',
  createSubmissionPlan: 'submitter',
  approveSubmissionPlan: 'sponsor',
  submissionTransmission: 'submitter',
};
/** Demo accounts that work in the demo project without handling a node: the query desk. */
const MEMBER_ACCOUNTS = ['queries'];
/** The action that brings a case into a node, when it is not a plain submit. */
const ACTION_INTO: Record<string, { action: string; result: string; snapshot: boolean }> = {
  approveSubmissionPlan: { action: 'createPlan', result: 'planCreated', snapshot: false },
  submissionTransmission: { action: 'approvePlan', result: 'planReviewed', snapshot: true },
};

async function demoUsers(handle: Handle): Promise<Map<string, { id: string; name: string }>> {
  const users = await handle
    .collection<{ account: string; name: string; accountId?: string }>('users')
    .find({ account: { $in: [...Object.values(DUTY_ACCOUNT), ...MEMBER_ACCOUNTS] } });
  return new Map(users.map((user) => [user.account, { id: user.accountId ?? user._id, name: user.name }]));
}

/** The demo users work in the demo project (SPEC 6: projects assign users); once each. */
async function seedMembers(
  handle: Handle,
  projectId: string,
  users: Map<string, { id: string; name: string }>,
): Promise<void> {
  let members;
  try {
    members = handle.collection<{
      projectId: string;
      userId: string;
      roleIds: string[];
      permissionKeys: string[];
    }>('projectMembers');
    await members.findOne({ projectId });
  } catch (error) {
    // Without the access module there is no membership to record.
    if (error instanceof InvalidStoreRequestError) return;
    throw error;
  }
  for (const user of users.values()) {
    if (await members.findOne({ projectId, userId: user.id })) continue;
    await members.insertOne({ projectId, userId: user.id, roleIds: [], permissionKeys: [] });
  }
}

export async function seedDemoCases(deps: ModuleDeps): Promise<void> {
  const tenantId = await demoTenantId(deps);
  if (!tenantId) return;
  const handle = deps.store.tenant(tenantId, { userId: ACTOR });
  const projects = handle.collection<Project>(C.projects);
  const users = await demoUsers(handle);
  const existing = await projects.findOne({ code: DEMO_PROJECT_CODE });
  if (existing) {
    // Data directories seeded before membership existed get their members on the next start.
    await seedMembers(handle, existing._id, users);
    await configureDemoProject(handle, existing._id);
    return;
  }
  const handlerAt = (node: string) =>
    users.get(DUTY_ACCOUNT[node]!) ?? { id: ACTOR, name: DUTY_ACCOUNT[node]! };

  const projectId = randomUUID();
  const project: Project & { _id: string } = {
    _id: projectId,
    code: DEMO_PROJECT_CODE,
    name: '一项评价XY-101对比多西他赛治疗经治晚期非小细胞肺癌的随机、开放、多中心III期研究',
    nameEn:
      'A randomised, open-label, multicentre phase III study of XY-101 versus docetaxel in previously treated advanced NSCLC',
    sponsor: '演示药业有限公司',
    locked: false,
    studyType: '1',
    sponsorStudyNumber: DEMO_PROJECT_CODE,
    sites: [
      {
        id: randomUUID(),
        code: '01',
        name: '中国医学科学院肿瘤医院',
        nameEn: 'Cancer Hospital, Chinese Academy of Medical Sciences',
        country: 'CN',
      },
      {
        id: randomUUID(),
        code: '02',
        name: '上海市胸科医院',
        nameEn: 'Shanghai Chest Hospital',
        country: 'CN',
      },
      {
        id: randomUUID(),
        code: '03',
        name: '广东省人民医院',
        nameEn: "Guangdong Provincial People's Hospital",
        country: 'CN',
      },
    ],
    drugs: [
      {
        id: randomUUID(),
        drugName: 'XY-101注射液',
        genericName: '注射用XY-101',
        approvalNumber: '2023LP01234',
        isClinicalDrug: true,
        isBlind: false,
        substanceName: 'XY-101',
      },
      {
        id: randomUUID(),
        drugName: '多西他赛注射液',
        genericName: '多西他赛注射液',
        approvalNumber: '国药准字H20020543',
        isClinicalDrug: false,
        isBlind: false,
      },
    ],
    reportCodeGeneratorId: null,
  };
  await projects.insertOne(project);
  await seedMembers(handle, projectId, users);
  // Coded with the demo's synthetic releases, which the dictionaries module's seed imported.
  await configureDemoProject(handle, projectId);
  const generator = await handle.collection<StoredGenerator>(RC.generators).insertOne({
    name: `${DEMO_PROJECT_CODE} 报告编号`,
    projectId,
    countryCode: 'CN',
    organisation: 'DEMOPHARMA',
    cycle: 'year',
    length: 6,
    startValue: 1,
    utcOffsetMinutes: 480,
    enabled: true,
  });
  await projects.updateOne({ _id: projectId }, { $set: { reportCodeGeneratorId: generator._id } });

  const today = deps.clock.now();
  let n = 0;
  for (const { node, count, completed = 0 } of SPREAD) {
    for (let i = 0; i < count; i++, n++) {
      const content = demoCaseContent({
        n,
        project,
        today,
        receivedDaysAgo: (n * 7) % 26,
        reactionIndex: n % REACTION_TERMS.length,
      });
      await handle.transaction((tx) =>
        seedCase(tx, { content, node, completed: i < completed, today, handlerAt, projectId }),
      );
    }
  }
}

async function seedCase(
  tx: Handle,
  input: {
    content: Record<string, unknown>;
    node: string;
    completed: boolean;
    today: Date;
    handlerAt: (node: string) => { id: string; name: string };
    projectId: string;
  },
): Promise<void> {
  const { content, node, completed, today, handlerAt, projectId } = input;
  const caseId = randomUUID();
  const reportCode = await nextReportCode(tx, projectId, today);
  const steps = PATH.slice(0, PATH.indexOf(node) + 1);
  const creator = handlerAt('dataEntry');
  // Each step a day apart, ending today.
  const stepTime = (k: number) => new Date(today.getTime() - (steps.length - k) * 86_400_000).toISOString();
  const handler = handlerAt(node);
  const state: CaseState = {
    ...(content.state as Partial<CaseState>),
    workflowNode: node as CaseState['workflowNode'],
    handlerId: handler.id,
    handlerName: handler.name,
    isCompleted: completed,
    validity: 'valid',
    isLocked: false,
    version: 1,
    versionType: 'initial',
    followUpNumber: 0,
    createdBy: creator.id,
    createdAt: stepTime(0),
    updatedAt: today.toISOString(),
  };
  const doc = {
    ...content,
    state,
    report: {
      ...(content.report as object),
      reportCode,
      reportAllCode: reportCode,
      creationDate: e2bNow(new Date(stepTime(0))),
      studyProjectId: projectId,
    },
  } as CaseDocument;
  await insertCase(tx, caseId, doc);
  for (let k = 1; k < steps.length; k++) {
    const from = steps[k - 1]!;
    const to = steps[k]!;
    const kind = ACTION_INTO[to] ?? { action: 'submit', result: 'submitted', snapshot: true };
    const processer = handlerAt(from);
    const next = handlerAt(to);
    const entry: WorkflowHistoryEntry = {
      caseId,
      reportCode,
      action: kind.action,
      result: kind.result,
      option: kind.action === 'approvePlan' ? 'agree' : null,
      node: from,
      opinion: null,
      processerId: processer.id,
      processerName: processer.name,
      nextNode: to,
      nextProcesserId: next.id,
      nextProcesserName: next.name,
      at: stepTime(k),
      dataVersion: { version: 1, rev: 1 },
      signatureId: null,
    };
    const history = await tx
      .collection<WorkflowHistoryEntry>(C.history)
      .insertOne({ _id: randomUUID(), ...entry });
    if (kind.snapshot) {
      await tx
        .collection<CaseSnapshot>(C.versions)
        .insertOne(snapshot(caseId, reportCode, doc, from, to, processer, history._id, stepTime(k), false));
    }
  }
  if (completed) {
    const processer = handlerAt(node);
    await tx.collection<WorkflowHistoryEntry>(C.history).insertOne({
      _id: randomUUID(),
      caseId,
      reportCode,
      action: 'markCompleted',
      result: caseWorkflow.actions.markCompleted!.result,
      option: null,
      node,
      opinion: null,
      processerId: processer.id,
      processerName: processer.name,
      nextNode: node,
      nextProcesserId: null,
      nextProcesserName: null,
      at: today.toISOString(),
      dataVersion: { version: 1, rev: 1 },
      signatureId: null,
    });
    await tx
      .collection<CaseSnapshot>(C.versions)
      .insertOne(snapshot(caseId, reportCode, doc, node, node, processer, null, today.toISOString(), true));
  }
}

function snapshot(
  caseId: string,
  reportCode: string,
  doc: CaseDocument,
  from: string,
  to: string,
  by: { id: string; name: string },
  historyId: string | null,
  at: string,
  completed: boolean,
): CaseSnapshot & { _id: string } {
  // The document as it was handed on: at the node it left, not yet completed.
  const document = structuredClone(doc);
  document.state = {
    ...document.state,
    workflowNode: (completed ? to : from) as CaseState['workflowNode'],
    isCompleted: completed,
    updatedAt: at,
  };
  return {
    _id: randomUUID(),
    caseId,
    reportCode,
    version: 1,
    versionType: 'initial',
    kind: completed ? 'completed' : 'submitted',
    node: from,
    caseRev: 1,
    at,
    by: by.id,
    byName: by.name,
    historyId,
    document,
  };
}
