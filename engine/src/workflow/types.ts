/** Shapes of a workflow declared in schemas/workflows (see schemas/workflows/README.md). */
import type { Condition } from './conditions';

export interface Bilingual {
  zh: string;
  en: string;
}

export interface WorkflowNode {
  label: Bilingual;
  /** The phase the node belongs to (regulatory submission holds three sub-steps). */
  phase?: string;
  /** Extra permission needed to act on a case at this node, besides the action's own. */
  permission?: string;
  /** For each moving action, the nodes a case may go to from here (the user picks one). */
  transitions: Record<string, string[]>;
}

/** Refuse the action when `when` holds, with `message` (an i18n key). */
export interface Guard {
  when: Condition;
  message: string;
}

/** A choice the caller must make, e.g. the challenge kind or the approval result. */
export interface ActionOption {
  name: string;
  values: string[];
  /** Message when the option is missing or not one of the values. */
  message: string;
  /** For a moving action: the value that takes the alternative transition `${action}:${value}`. */
  branches?: string[];
}

export interface WorkflowAction {
  label: Bilingual;
  /** Permission identifier (schemas/menus) the caller needs; required unless `system`. */
  permission?: string;
  /**
   * Driven by the system (a gateway, a job), never by a user: not offered among a user's actions,
   * and planAction refuses it unless the choice says the system takes it.
   */
  system?: boolean;
  /** True: the case moves along the node's transitions for this action. */
  moves: boolean;
  /**
   * Only the case's current handler takes the action (another user only where the project lets
   * users edit others' data and they hold that permission; the server checks it first).
   */
  byHandler?: boolean;
  /** The caller names the next handler (a user of the tenant). */
  needsUser?: boolean;
  /** The caller writes an opinion (reason); required when true. */
  needsOpinion?: boolean;
  /** Electronic signature with password re-verification. */
  signature?: boolean;
  /** The case is fully validated first; the fact `errorCount` is then known to the guards. */
  validate?: boolean;
  option?: ActionOption;
  guards: Guard[];
  /** Result written to the workflow history (i18n key in the workflow namespace). */
  result: string;
  /** False for actions that leave no workflow-history line (save, copy). Default true. */
  history?: boolean;
  /** Kind of immutable snapshot the action takes of the case, if any. */
  snapshot?: 'submitted' | 'completed';
}

export interface WorkflowPhase {
  label: Bilingual;
  nodes: string[];
}

export interface WorkflowDefinition {
  id: string;
  label: Bilingual;
  initial: string;
  /** Display order of the nodes (lists, diagrams, "back to an earlier node"). */
  order: string[];
  /** The phase every case must be able to reach (regulatory submission). */
  goalPhase: string;
  phases: Record<string, WorkflowPhase>;
  nodes: Record<string, WorkflowNode>;
  actions: Record<string, WorkflowAction>;
  /** The facts guards may read, with what each means. */
  facts: Record<string, Bilingual>;
}

/** What the caller chose for an action. */
export interface ActionChoice {
  toNode?: string;
  userId?: string;
  opinion?: string;
  option?: string;
  /** The system (not a user) takes the action: only then may a `system` action run. */
  bySystem?: boolean;
}

export interface PlannedAction {
  ok: true;
  action: string;
  fromNode: string;
  /** Equal to fromNode for actions that do not move the case. */
  toNode: string;
  /** Every permission the caller must hold. */
  permissions: string[];
  signature: boolean;
  snapshot: WorkflowAction['snapshot'] | null;
  result: string;
  history: boolean;
  validate: boolean;
}

export interface RefusedAction {
  ok: false;
  messageKey: string;
  params: Record<string, string>;
}

export interface WorkflowProblem {
  messageKey: string;
  params: Record<string, string>;
}
