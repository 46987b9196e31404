/**
 * The workflow machine: pure functions over a declared workflow and the facts of one case.
 * `planAction` decides whether an action may run and where it takes the case; the server applies
 * the plan (store writes, history, signature). Per-project overrides are JSON merge patches.
 */
import { factsRead, holds } from './conditions';
import type { Facts } from './conditions';
import type {
  ActionChoice,
  PlannedAction,
  RefusedAction,
  WorkflowDefinition,
  WorkflowProblem,
} from './types';

const refuse = (messageKey: string, params: Record<string, string> = {}): RefusedAction => ({
  ok: false,
  messageKey,
  params,
});

/** The transition key an action takes: `submit`, or `approvePlan:disagree` for a branch. */
function transitionKey(def: WorkflowDefinition, actionId: string, option: string | undefined): string {
  const branches = def.actions[actionId]?.option?.branches ?? [];
  return option !== undefined && branches.includes(option) ? `${actionId}:${option}` : actionId;
}

/** Targets of an action from a node (empty when the action does not move the case from there). */
export function targetsOf(
  def: WorkflowDefinition,
  node: string,
  actionId: string,
  option?: string,
): string[] {
  return def.nodes[node]?.transitions[transitionKey(def, actionId, option)] ?? [];
}

/** The phase of a node, or the node itself when it belongs to none. */
export function phaseOf(def: WorkflowDefinition, node: string): string {
  return def.nodes[node]?.phase ?? node;
}

/**
 * Decides an action. `facts.node` is the case's current node. The first guard that holds refuses;
 * then the caller's choices are checked against what the node allows.
 */
export function planAction(
  def: WorkflowDefinition,
  actionId: string,
  facts: Facts,
  choice: ActionChoice = {},
): PlannedAction | RefusedAction {
  const action = def.actions[actionId];
  if (!action) return refuse('workflow.unknownAction', { action: actionId });
  const fromNode = String(facts.node ?? '');
  const node = def.nodes[fromNode];
  if (!node) return refuse('workflow.unknownNode', { node: fromNode });
  if (action.system && choice.bySystem !== true) return refuse('workflow.systemOnly', { action: actionId });
  const allFacts: Facts = { ...facts, phase: phaseOf(def, fromNode) };
  for (const guard of action.guards) {
    if (holds(guard.when, allFacts)) return refuse(guard.message, { node: fromNode });
  }
  if (action.option) {
    if (choice.option === undefined || !action.option.values.includes(choice.option)) {
      return refuse(action.option.message);
    }
  }
  let toNode = fromNode;
  if (action.moves) {
    const targets = targetsOf(def, fromNode, actionId, choice.option);
    if (targets.length === 0) return refuse('workflow.noTransition', { action: actionId, node: fromNode });
    if (choice.toNode === undefined || choice.toNode === '') {
      if (targets.length > 1) return refuse('workflow.chooseNode');
      toNode = targets[0]!;
    } else if (!targets.includes(choice.toNode)) {
      return refuse('workflow.nodeNotAllowed', { node: choice.toNode });
    } else {
      toNode = choice.toNode;
    }
  }
  if (action.needsUser && !choice.userId) return refuse('workflow.specifyUser');
  if (action.needsOpinion && !choice.opinion?.trim()) return refuse('workflow.opinionRequired');
  const permissions = action.permission ? [action.permission] : [];
  if (node.permission) permissions.push(node.permission);
  return {
    ok: true,
    action: actionId,
    fromNode,
    toNode,
    permissions,
    signature: action.signature === true,
    snapshot: action.snapshot ?? null,
    result: action.result,
    history: action.history !== false,
    validate: action.validate === true,
  };
}

export interface AvailableAction {
  action: string;
  allowed: boolean;
  /** Why not, when refused by a guard. */
  messageKey?: string;
  targets: string[];
  needsUser: boolean;
  needsOpinion: boolean;
  signature: boolean;
  /** Present (true) for an action driven by the system only: a user's screen leaves it out. */
  system?: true;
  option: { name: string; values: string[] } | null;
}

/** Every action with whether its guards let it run now, and where it could go: what the header shows. */
export function availableActions(def: WorkflowDefinition, facts: Facts): AvailableAction[] {
  const node = String(facts.node ?? '');
  const allFacts: Facts = { ...facts, phase: phaseOf(def, node) };
  return Object.entries(def.actions).map(([id, action]) => {
    const refusedBy = action.guards.find((guard) => holds(guard.when, allFacts));
    const targets = action.moves
      ? [
          ...new Set([
            ...targetsOf(def, node, id),
            ...(action.option?.branches ?? []).flatMap((b) => targetsOf(def, node, id, b)),
          ]),
        ]
      : [];
    const entry: AvailableAction = {
      action: id,
      allowed: !refusedBy && (!action.moves || targets.length > 0),
      targets,
      needsUser: action.needsUser === true,
      needsOpinion: action.needsOpinion === true,
      signature: action.signature === true,
      option: action.option ? { name: action.option.name, values: action.option.values } : null,
    };
    if (refusedBy) entry.messageKey = refusedBy.message;
    if (action.system) entry.system = true;
    return entry;
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** RFC 7386 JSON merge patch: objects merge, null removes, anything else replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return structuredClone(patch);
  const out: Record<string, unknown> = isObject(target) ? structuredClone(target) : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}

/**
 * Problems of a workflow: unknown references, nodes a case cannot reach, nodes from which a case
 * cannot reach the goal phase, guards reading undeclared facts. Empty when the workflow is sound.
 */
export function checkWorkflow(def: WorkflowDefinition): WorkflowProblem[] {
  const problems: WorkflowProblem[] = [];
  const problem = (messageKey: string, params: Record<string, string> = {}) =>
    problems.push({ messageKey, params });
  const nodeIds = Object.keys(def.nodes ?? {});
  if (!def.nodes?.[def.initial]) problem('workflow.problem.initialUnknown', { node: String(def.initial) });
  const ordered = new Set(def.order ?? []);
  for (const id of nodeIds) if (!ordered.has(id)) problem('workflow.problem.notOrdered', { node: id });
  for (const id of ordered) if (!def.nodes?.[id]) problem('workflow.problem.orderUnknown', { node: id });
  for (const [phaseId, phase] of Object.entries(def.phases ?? {})) {
    for (const id of phase.nodes) {
      if (def.nodes?.[id]?.phase !== phaseId)
        problem('workflow.problem.phaseMismatch', { node: id, phase: phaseId });
    }
  }
  if (!def.phases?.[def.goalPhase]) problem('workflow.problem.goalUnknown', { phase: String(def.goalPhase) });
  const knownFacts = new Set([...Object.keys(def.facts ?? {}), 'node', 'phase']);
  for (const [actionId, action] of Object.entries(def.actions ?? {})) {
    if (!action.permission && !action.system) problem('workflow.problem.noPermission', { action: actionId });
    for (const guard of action.guards ?? []) {
      for (const fact of factsRead(guard.when)) {
        if (!knownFacts.has(fact)) problem('workflow.problem.unknownFact', { action: actionId, fact });
      }
    }
  }
  const edges = new Map<string, string[]>();
  for (const [id, node] of Object.entries(def.nodes ?? {})) {
    const out: string[] = [];
    for (const [key, targets] of Object.entries(node.transitions ?? {})) {
      const actionId = key.split(':')[0]!;
      const action = def.actions?.[actionId];
      if (!action) problem('workflow.problem.unknownAction', { node: id, action: actionId });
      else if (!action.moves) problem('workflow.problem.actionDoesNotMove', { node: id, action: actionId });
      for (const target of targets) {
        if (!def.nodes[target]) problem('workflow.problem.unknownTarget', { node: id, target });
        else out.push(target);
      }
    }
    edges.set(id, out);
  }
  if (problems.length) return problems;
  const reachable = new Set<string>([def.initial]);
  const queue = [def.initial];
  while (queue.length) {
    for (const next of edges.get(queue.shift()!) ?? []) {
      if (reachable.has(next)) continue;
      reachable.add(next);
      queue.push(next);
    }
  }
  for (const id of nodeIds) if (!reachable.has(id)) problem('workflow.problem.unreachable', { node: id });
  // Backwards from the goal phase: every node must reach it.
  const reachesGoal = new Set(nodeIds.filter((id) => def.nodes[id]!.phase === def.goalPhase));
  let grew = true;
  while (grew) {
    grew = false;
    for (const id of nodeIds) {
      if (!reachesGoal.has(id) && (edges.get(id) ?? []).some((t) => reachesGoal.has(t))) {
        reachesGoal.add(id);
        grew = true;
      }
    }
  }
  for (const id of nodeIds)
    if (!reachesGoal.has(id)) problem('workflow.problem.noWayToGoal', { node: id, phase: def.goalPhase });
  return problems;
}

export class WorkflowError extends Error {
  constructor(readonly problems: WorkflowProblem[]) {
    super(
      `workflow refused: ${problems.map((p) => `${p.messageKey} ${JSON.stringify(p.params)}`).join('; ')}`,
    );
    this.name = 'WorkflowError';
  }
}

/** The base workflow with a project's override applied; refused (WorkflowError) when unsound. */
export function resolveWorkflow(base: WorkflowDefinition, override?: unknown): WorkflowDefinition {
  const def = (
    override === undefined || override === null ? structuredClone(base) : mergePatch(base, override)
  ) as WorkflowDefinition;
  const problems = checkWorkflow(def);
  if (problems.length) throw new WorkflowError(problems);
  return def;
}
