/**
 * A distribution file the importer refuses: each issue names the file and the line (1-based; 0
 * when the issue concerns the file as a whole) and carries a message key of the `dictionaries`
 * namespace with its parameters.
 */
export interface FormatIssue {
  file: string;
  line: number;
  messageKey: string;
  params: Record<string, string | number>;
}

export class DictionaryFormatError extends Error {
  constructor(readonly issues: FormatIssue[]) {
    const first = issues[0];
    super(first ? `${first.file}:${first.line}: ${first.messageKey}` : 'dictionary format error');
    this.name = 'DictionaryFormatError';
  }
}

/** Collects issues up to a limit; the importer reports the first ones rather than thousands. */
export class IssueList {
  readonly issues: FormatIssue[] = [];

  constructor(private readonly max = 20) {}

  add(file: string, line: number, messageKey: string, params: Record<string, string | number> = {}): void {
    if (this.issues.length < this.max) this.issues.push({ file, line, messageKey, params });
  }

  get full(): boolean {
    return this.issues.length >= this.max;
  }

  throwIfAny(): void {
    if (this.issues.length) throw new DictionaryFormatError(this.issues);
  }
}

/**
 * Decodes a distribution file: UTF-8 (with or without BOM); a file that is not valid UTF-8 is read
 * as GB18030, the encoding older Chinese releases used.
 */
export function decodeText(content: Uint8Array | string): string {
  if (typeof content === 'string') return content.replace(/^\uFEFF/u, '');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(content).replace(/^\uFEFF/u, '');
  } catch {
    return new TextDecoder('gb18030').decode(content);
  }
}

/** The lines of a file with their 1-based numbers, line ends (LF or CRLF) removed, blank lines skipped. */
export function* numberedLines(text: string): Generator<[number, string]> {
  let lineNo = 0;
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    lineNo += 1;
    let line = text.slice(start, end);
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (line.trim() !== '') yield [lineNo, line];
    start = end + 1;
  }
}

/** Looks a file up by name, ignoring case (distributions differ: LLT.ASC, llt.asc). */
export function fileLookup<T>(files: ReadonlyMap<string, T>): (name: string) => [string, T] | undefined {
  const byLower = new Map<string, [string, T]>();
  for (const [name, content] of files) byLower.set(name.toLowerCase(), [name, content]);
  return (name) => byLower.get(name.toLowerCase());
}
