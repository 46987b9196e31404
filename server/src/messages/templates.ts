/**
 * Message templates: the zh and en subject and body of an event, in Handlebars. A template is
 * refused (nothing saved) when a text does not compile - the configurator's compile check, with
 * the line and Handlebars' reason - or uses anything but its event's variables and `if`/`unless`.
 * Messages are plain text (the web shows them as text), so nothing is HTML-escaped.
 */
import Handlebars from 'handlebars';
import { compileProblem, renderTemplate } from '../configurator';
import { errors } from '../http';
import type { Lang } from '../i18n';
import type { MessageEvent, MessageVariables } from './events';
import { EVENT_VARIABLES } from './events';

export interface MessageTemplate {
  event: MessageEvent;
  status: 'enabled' | 'disabled';
  subjectZh: string;
  bodyZh: string;
  subjectEn: string;
  bodyEn: string;
  deleted?: boolean;
}

export const TEMPLATE_FIELDS = ['subjectZh', 'bodyZh', 'subjectEn', 'bodyEn'] as const;
export type TemplateField = (typeof TEMPLATE_FIELDS)[number];

const BLOCK_HELPERS = new Set(['if', 'unless']);

interface Node {
  type: string;
  loc?: { start: { line: number } };
  path?: Node & { original?: string; parts?: string[]; data?: boolean };
  params?: Node[];
  hash?: { pairs: unknown[] };
  program?: { body: Node[] } | null;
  inverse?: { body: Node[] } | null;
  original?: unknown;
  parts?: string[];
  data?: boolean;
}

type Misuse = { kind: 'unknownVariable' | 'unknownHelper'; name: string; line: number };

/** The first thing the template uses that its event does not offer, or null. */
function firstMisuse(body: string, variables: ReadonlySet<string>): Misuse | null {
  const line = (node: Node) => node.loc?.start.line ?? 1;
  const value = (node: Node): Misuse | null => {
    if (node.type === 'SubExpression')
      return { kind: 'unknownHelper', name: String(node.path?.original ?? ''), line: line(node) };
    if (node.type !== 'PathExpression') return null; // literals
    const name = String(node.original);
    const plain = !node.data && node.parts?.length === 1 && node.parts[0] === name;
    return plain && variables.has(name) ? null : { kind: 'unknownVariable', name, line: line(node) };
  };
  const walk = (nodes: Node[]): Misuse | null => {
    for (const node of nodes) {
      if (node.type === 'MustacheStatement') {
        const called = (node.params?.length ?? 0) > 0 || (node.hash?.pairs.length ?? 0) > 0;
        if (called)
          return { kind: 'unknownHelper', name: String(node.path?.original ?? ''), line: line(node) };
        const found = value(node.path!);
        if (found) return found;
      } else if (node.type === 'BlockStatement') {
        const helper = String(node.path?.original ?? '');
        if (!BLOCK_HELPERS.has(helper) || node.params?.length !== 1)
          return { kind: 'unknownHelper', name: helper, line: line(node) };
        const found =
          value(node.params[0]!) ?? walk(node.program?.body ?? []) ?? walk(node.inverse?.body ?? []);
        if (found) return found;
      }
    }
    return null;
  };
  return walk((Handlebars.parse(body) as unknown as { body: Node[] }).body);
}

/** Refuses (translated, with the field and line) a template whose texts do not fit its event. */
export function assertTemplate(event: MessageEvent, texts: Pick<MessageTemplate, TemplateField>): void {
  const variables = new Set(EVENT_VARIABLES[event]);
  for (const field of TEMPLATE_FIELDS) {
    const body = texts[field];
    const problem = compileProblem(body);
    if (problem)
      throw errors.badRequest(
        `messages.doesNotCompile.${field}`,
        { line: problem.line, reason: problem.reason },
        { field, line: problem.line },
      );
    const misuse = firstMisuse(body, variables);
    if (misuse)
      throw errors.badRequest(
        `messages.${misuse.kind}.${field}`,
        { line: misuse.line, name: misuse.name, variables: EVENT_VARIABLES[event].join(', ') },
        { field, line: misuse.line },
      );
  }
}

export interface RenderedMessage {
  subject: string;
  body: string;
}

/** Renders a checked template in one language. */
export function renderMessage(
  template: Pick<MessageTemplate, TemplateField>,
  lang: Lang,
  variables: MessageVariables,
): RenderedMessage {
  const [subjectText, bodyText] =
    lang === 'en' ? [template.subjectEn, template.bodyEn] : [template.subjectZh, template.bodyZh];
  const subject = renderTemplate(subjectText, variables);
  const body = renderTemplate(bodyText, variables);
  if ('error' in subject) throw errors.badRequest('messages.renderError', { reason: subject.error });
  if ('error' in body) throw errors.badRequest('messages.renderError', { reason: body.error });
  return { subject: subject.text.trim(), body: body.text.trim() };
}
