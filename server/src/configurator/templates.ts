/**
 * Handlebars templates edited in the browser (H.1 narratives, message templates): the compile
 * check that refuses a broken template with its line and reason, and the preview against a case.
 */
import Handlebars from 'handlebars';

export type TemplateKind = 'narrative' | 'message';
export const TEMPLATE_KINDS: readonly TemplateKind[] = ['narrative', 'message'];

export interface TemplateDefinition {
  id: string;
  kind: TemplateKind;
  name: { zh: string; en: string };
  body: string;
  /** The language a narrative is written in (its draft is offered for that language); absent = any. */
  lang?: 'zh' | 'en';
}

export interface CompileProblem {
  line: number;
  column: number | null;
  /** Handlebars' own reason (its parser speaks English), shown after the translated prefix. */
  reason: string;
}

interface HandlebarsNode {
  type?: string;
  loc?: { start: { line: number; column: number } };
  [key: string]: unknown;
}

/** The first partial in the tree: a template is rendered alone, a partial would fail at run time. */
function findPartial(node: unknown): HandlebarsNode | null {
  if (Array.isArray(node)) {
    for (const item of node) {
      const found = findPartial(item);
      if (found) return found;
    }
    return null;
  }
  if (!node || typeof node !== 'object') return null;
  const typed = node as HandlebarsNode;
  if (typed.type === 'PartialStatement' || typed.type === 'PartialBlockStatement') return typed;
  for (const [key, value] of Object.entries(typed)) {
    if (key === 'loc') continue;
    const found = findPartial(value);
    if (found) return found;
  }
  return null;
}

/** Why the template does not compile, or null when it does. */
export function compileProblem(body: string): CompileProblem | null {
  try {
    Handlebars.precompile(body, { strict: false });
    const partial = findPartial(Handlebars.parse(body));
    if (partial)
      return {
        line: partial.loc?.start.line ?? 1,
        column: partial.loc?.start.column ?? null,
        reason: 'partials ({{> ...}}) are not available in templates',
      };
    return null;
  } catch (error) {
    const failure = error as { message?: string; lineNumber?: number; column?: number };
    const message = String(failure.message ?? error);
    const lineMatch = /line (\d+)/.exec(message) ?? /- (\d+):\d+$/.exec(message);
    const line = failure.lineNumber ?? (lineMatch ? Number(lineMatch[1]) : 1);
    const lines = message.split('\n');
    const reason = (lines.length > 1 ? lines[lines.length - 1]! : message).replace(/ - \d+:\d+$/, '');
    return { line, column: typeof failure.column === 'number' ? failure.column : null, reason };
  }
}

/**
 * Renders a template over a case document as text (no HTML escaping: narratives and messages are
 * plain text). A run-time failure (e.g. an unknown helper) is returned, not thrown.
 */
export function renderTemplate(body: string, data: unknown): { text: string } | { error: string } {
  const env = Handlebars.create();
  try {
    const template = env.compile(body, { noEscape: true, strict: false });
    return { text: template(data) };
  } catch (error) {
    return { error: String((error as Error).message ?? error) };
  }
}
