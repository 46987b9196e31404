/**
 * The queries tests' rig (test files only): a case rig with the modules queries need, a clock the
 * test moves, users entry and qc, and a second project p2 for an outsider; closed after the file.
 */
import { afterAll, expect } from 'vitest';
import type { ServerModule } from '../http';
import { createCasesModule, workbenchModule } from '../cases/index';
import type { Project } from '../cases/index';
import { caseRig, demoProject, filledCaseOf, recordingSigner } from '../cases/testing';
import type { RigAnswer, RigUser } from '../cases/testing';
import { workflowModule } from '../workflow';
import { reportCodesModule } from '../report-codes';
import { queriesModule } from './index';

export type Data = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- envelope data read loosely in assertions

/** C.1.5, the field most tests query. */
export const C15 = '/report/reportDateLast';

/** A clock the test sets or moves on by a minute (each move a distinct time in the trail). */
export function testClock(start = '2026-11-21T08:00:00Z') {
  let at = new Date(start);
  return {
    now: () => at,
    set: (iso: string) => (at = new Date(iso)),
    later: (ms = 60_000) => (at = new Date(at.getTime() + ms)),
  };
}

export interface QueryRigOptions {
  /** Beyond entry and qc. */
  users?: RigUser[];
  /** Modules mounted before queries (e.g. messages). */
  modules?: ServerModule[];
  /** These users work in project p2 instead of p1. */
  outsiders?: string[];
}

export async function queryRig(options: QueryRigOptions = {}) {
  const clock = testClock();
  const signer = recordingSigner();
  const rig = await caseRig({
    clock,
    modules: [
      createCasesModule({ signer }),
      workbenchModule,
      workflowModule,
      reportCodesModule,
      ...(options.modules ?? []),
      queriesModule,
    ],
    users: [{ id: 'entry', name: '录入员小王' }, { id: 'qc', name: '质控员小李' }, ...(options.users ?? [])],
  });
  afterAll(() => rig.close());
  if (options.outsiders?.length) {
    const tenant = rig.store.tenant('t1', { userId: 'admin' });
    await tenant.collection<Project>('projects').insertOne(demoProject('p2'));
    for (const userId of options.outsiders)
      await tenant.collection('projectMembers').updateOne({ userId }, { $set: { projectId: 'p2' } });
  }
  return {
    rig,
    clock,
    signer,
    qc: rig.as('qc'),
    entry: rig.as('entry'),
    /** A filled case of entry's, numbered n, in the project. */
    filled: (n = 1, projectId = 'p1') => filledCaseOf(rig, 'entry', projectId, n, clock.now()),
  };
}

/** The answer's data, after checking it succeeded (the envelope shown when not). */
export async function ok(answer: Promise<RigAnswer>): Promise<Data> {
  const { body } = await answer;
  expect(body.code, JSON.stringify(body)).toBe(200);
  return body.data as Data;
}
