/**
 * Workflow machine, conditions and reporting-clock arithmetic: the declared workflows (case, E2B
 * transmission, unblinding) applied to facts.
 */
import caseWorkflowJson from '../../../schemas/workflows/case.json';
import transmissionWorkflowJson from '../../../schemas/workflows/transmission.json';
import unblindingWorkflowJson from '../../../schemas/workflows/unblinding.json';
import type { WorkflowDefinition } from './types';

export type * from './types';
export type { Condition, Facts, FactValue } from './conditions';
export { holds, factsRead, compileCondition } from './conditions';
export {
  planAction,
  availableActions,
  checkWorkflow,
  resolveWorkflow,
  mergePatch,
  targetsOf,
  phaseOf,
  WorkflowError,
} from './machine';
export type { AvailableAction } from './machine';
export { reminderBucket, earliestDay, addDays, daysBetween, SERIOUSNESS_CRITERIA } from './deadlines';

/** The base case workflow of schemas/workflows/case.json. */
export const caseWorkflow = caseWorkflowJson as unknown as WorkflowDefinition;
/** The E2B transmission workflow of one export, schemas/workflows/transmission.json. */
export const transmissionWorkflow = transmissionWorkflowJson as unknown as WorkflowDefinition;
/** The unblinding workflow of one application, schemas/workflows/unblinding.json. */
export const unblindingWorkflow = unblindingWorkflowJson as unknown as WorkflowDefinition;
