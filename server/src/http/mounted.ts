/**
 * What modules provide to each other when they are mounted (a case save's participants, a case
 * check's extra findings, what names a project). Such providers belong to the platform that mounted
 * them: a new platform in the same process (every test rig) starts with none and gets exactly those
 * of the modules it mounts, never a closure over an earlier platform's store.
 */
const registries = new Set<Map<string, unknown>>();

/** A by-name registry of providers that modules fill when they are mounted. */
export function mountedRegistry<T>(): Map<string, T> {
  const registry = new Map<string, T>();
  registries.add(registry as Map<string, unknown>);
  return registry;
}

/** Called by the platform before it mounts its modules. */
export function beginMounting(): void {
  for (const registry of registries) registry.clear();
}
