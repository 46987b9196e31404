/**
 * The workflow designer's side of the case workflow: an edited definition becomes the smallest
 * JSON merge patch over the base (what a project stores), and an override is checked by the
 * workflow machine's own soundness check (every node reachable, every node can reach regulatory
 * submission) before it is accepted.
 */
import { checkWorkflow, mergePatch } from '../workflow/machine';
import type { WorkflowDefinition, WorkflowProblem } from '../workflow/types';

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The RFC 7386 merge patch that turns `base` into `target` (the inverse of mergePatch): removed
 * keys become null, changed objects recurse, anything else is replaced. Undefined when equal.
 */
export function mergeDiff(base: unknown, target: unknown): unknown {
  if (same(base, target)) return undefined;
  if (!isObject(base) || !isObject(target)) return structuredClone(target);
  const patch: Record<string, unknown> = {};
  for (const key of Object.keys(base)) if (!(key in target)) patch[key] = null;
  for (const [key, value] of Object.entries(target)) {
    const change = mergeDiff(base[key], value);
    if (change !== undefined) patch[key] = change;
  }
  return patch;
}

/** The override a project stores for an edited definition; null when it equals the base. */
export function workflowOverrideOf(base: WorkflowDefinition, edited: WorkflowDefinition): unknown {
  return mergeDiff(base, edited) ?? null;
}

/** The definition an override produces and its problems (empty when sound). */
export function checkWorkflowOverride(
  base: WorkflowDefinition,
  override: unknown,
): { definition: WorkflowDefinition; problems: WorkflowProblem[] } {
  if (override !== null && override !== undefined && !isObject(override))
    return { definition: base, problems: [{ messageKey: 'configurator.workflow.notObject', params: {} }] };
  const definition = (override ? mergePatch(base, override) : structuredClone(base)) as WorkflowDefinition;
  if (!isObject(definition.nodes) || !isObject(definition.actions))
    return { definition: base, problems: [{ messageKey: 'configurator.workflow.notObject', params: {} }] };
  return { definition, problems: checkWorkflow(definition) };
}
