/**
 * Report file names from a tenant's pattern (SPEC 9: export file name customisable): placeholders
 * {reportCode} {version} {lang} {date} {kind} {blinding}. A pattern is refused when a name it gives could
 * be unsafe (path separators, control characters, leading dot, too long) or the same for two reports
 * (it must name the report code, and a zip of several forms refuses two equal names).
 */
export const FILE_NAME_PLACEHOLDERS = ['reportCode', 'version', 'lang', 'date', 'kind', 'blinding'] as const;
export type FileNamePlaceholder = (typeof FILE_NAME_PLACEHOLDERS)[number];
export const DEFAULT_FILE_NAME_PATTERN = '{kind}_{reportCode}_v{version}_{lang}_{blinding}_{date}';
const MAX_LENGTH = 150;

export type FileNameProblem =
  | { key: 'reports.fileName.empty'; params: Record<string, string> }
  | { key: 'reports.fileName.unknownPlaceholder'; params: { placeholder: string } }
  | { key: 'reports.fileName.unsafe'; params: { pattern: string } }
  | { key: 'reports.fileName.duplicate'; params: { pattern: string; name: string } };

/** Letters and digits of any script, space, dot, dash, underscore, parentheses: nothing a file system reads as a path. */
const SAFE = /^[\p{L}\p{N} ._()\-+]+$/u;

const isSafe = (name: string): boolean =>
  name.length > 0 &&
  name.length <= MAX_LENGTH &&
  SAFE.test(name) &&
  !name.startsWith('.') &&
  !name.includes('..');

/** The problem with a pattern, or null when every name it gives is safe and names the report. */
export function checkFileNamePattern(pattern: string): FileNameProblem | null {
  if (!pattern.trim()) return { key: 'reports.fileName.empty', params: {} };
  for (const [, name] of pattern.matchAll(/\{([^}]*)\}/g))
    if (!(FILE_NAME_PLACEHOLDERS as readonly string[]).includes(name as string))
      return { key: 'reports.fileName.unknownPlaceholder', params: { placeholder: String(name) } };
  // The literal text must be safe on its own; placeholder values are made safe when filled.
  const literal = pattern.replace(/\{[^}]*\}/g, 'x');
  if (!isSafe(literal) || /[{}]/.test(literal))
    return { key: 'reports.fileName.unsafe', params: { pattern } };
  if (!pattern.includes('{reportCode}'))
    return { key: 'reports.fileName.duplicate', params: { pattern, name: literal } };
  return null;
}

/** A placeholder value as it may stand in a file name: unsafe characters become "_". */
const clean = (value: string): string => value.replace(/[^\p{L}\p{N} ._\-+]/gu, '_').replace(/\.{2,}/g, '_');

/** The file name (without extension) the pattern gives; throws nothing: an unsafe result comes back as null. */
export function fileNameOf(pattern: string, values: Record<FileNamePlaceholder, string>): string | null {
  const name = pattern.replace(/\{(\w+)\}/g, (_, key: string) =>
    clean(values[key as FileNamePlaceholder] ?? ''),
  );
  return isSafe(name) ? name : null;
}
