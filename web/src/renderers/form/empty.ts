/**
 * The form's content without empty values: the form fills defaults ([] for a list, '' for a
 * cleared text) on its first change, which is not an edit and must not ask about unsaved data.
 */
export function withoutEmpty(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutEmpty);
  if (value === null || typeof value !== 'object') return value;
  const kept: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const cleaned = withoutEmpty(item);
    const empty =
      cleaned === undefined ||
      cleaned === null ||
      cleaned === '' ||
      (Array.isArray(cleaned) && cleaned.length === 0) ||
      (typeof cleaned === 'object' && cleaned !== null && Object.keys(cleaned).length === 0);
    if (!empty) kept[key] = cleaned;
  }
  return kept;
}
