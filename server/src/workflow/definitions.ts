/** The case workflow a project runs: the base of schemas/workflows/case.json with the project's override. */
import { caseWorkflow, resolveWorkflow, WorkflowError } from '@pv/engine';
import type { WorkflowDefinition } from '@pv/engine';
import { errors } from '../http';

const cache = new Map<string, WorkflowDefinition>();

/** The resolved workflow for an override (cached by its content); an unsound override is refused. */
export function projectWorkflow(override: unknown): WorkflowDefinition {
  if (override === undefined || override === null) return caseWorkflow;
  const key = JSON.stringify(override);
  let def = cache.get(key);
  if (!def) {
    try {
      def = resolveWorkflow(caseWorkflow, override);
    } catch (error) {
      if (error instanceof WorkflowError) {
        const first = error.problems[0]!;
        throw errors.badRequest(
          'workflow.overrideRefused',
          { reason: first.messageKey },
          { problems: error.problems },
        );
      }
      throw error;
    }
    if (cache.size > 200) cache.clear();
    cache.set(key, def);
  }
  return def;
}
