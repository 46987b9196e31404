/**
 * Drafting the H.1 case narrative from a Handlebars template (templates/narratives). Templates
 * get a fixed set of helpers only, output plain text, and are refused at compile time with the
 * line and the reason when they are not valid. The configurator owns the templates, so it compiles
 * and renders them; the narratives module serves a case's narrative with them.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Handlebars from 'handlebars';
import { codelists, SERIOUSNESS_CRITERIA, getCaseProperty } from '@pv/engine';
import { AppError } from '../http';
import { Code } from '../http';

export type NarrativeLang = 'zh' | 'en';

const TEMPLATE_DIR = fileURLToPath(new URL('../../../templates/narratives/', import.meta.url));
const HELPERS = ['codelabel', 'e2bDate', 'join'] as const;

type Doc = Record<string, unknown>;

/** The bundled default template of a language. */
export function defaultTemplate(lang: NarrativeLang): string {
  return readFileSync(`${TEMPLATE_DIR}default.${lang}.hbs`, 'utf8');
}

function engineFor(lang: NarrativeLang): typeof Handlebars {
  const hbs = Handlebars.create();
  hbs.registerHelper('codelabel', (list: unknown, code: unknown) => {
    const value = codelists[String(list)]?.values.find((v) => v.code === String(code));
    return value ? value[lang] : code === undefined || code === null ? '' : String(code);
  });
  hbs.registerHelper('e2bDate', (value: unknown) => {
    const match = typeof value === 'string' ? /^(\d{4})(\d{2})?(\d{2})?/.exec(value) : null;
    return match ? [match[1], match[2], match[3]].filter(Boolean).join('-') : '';
  });
  hbs.registerHelper('join', (list: unknown, separator: unknown) =>
    Array.isArray(list) ? list.map(String).join(typeof separator === 'string' ? separator : ', ') : '',
  );
  return hbs;
}

const compileOptions = {
  noEscape: true,
  strict: false,
  knownHelpersOnly: true,
  knownHelpers: Object.fromEntries(HELPERS.map((name) => [name, true])),
};

/** Compiles a template or refuses it with the line and the reason (narratives.compileError). */
export function compileTemplate(body: string, lang: NarrativeLang): HandlebarsTemplateDelegate {
  const hbs = engineFor(lang);
  try {
    // precompile parses and checks helpers now, not at first render.
    hbs.precompile(body, compileOptions);
  } catch (error) {
    const message = (error as Error).message;
    const line = /line (\d+)/.exec(message)?.[1] ?? /^(\d+):/.exec(message)?.[1] ?? '1';
    const helper = /You specified knownHelpersOnly, but used the unknown helper (\S+)/.exec(message)?.[1];
    if (helper) throw new AppError(Code.badRequest, 'narratives.unknownHelper', { name: helper }, 400);
    throw new AppError(
      Code.badRequest,
      'narratives.compileError',
      { line, reason: message.split('\n')[0]! },
      400,
    );
  }
  return hbs.compile(body, compileOptions);
}

function seriousnessText(reaction: Doc, lang: NarrativeLang): string {
  return SERIOUSNESS_CRITERIA.filter((key) => reaction[key] === true)
    .map((key) => {
      const label = getCaseProperty(`/reactions/*/${key}`)?.['x-label'] as
        { zh: string; en: string } | undefined;
      return label ? label[lang] : key;
    })
    .join(lang === 'zh' ? '、' : ', ');
}

function firstDose(drug: Doc): string | undefined {
  const starts = ((drug.dosages ?? []) as Doc[])
    .map((dosage) => dosage.startDate)
    .filter((date): date is string => typeof date === 'string')
    .sort();
  return starts[0];
}

/** What a template sees: the case sections plus the derived lists the README names. */
export function narrativeContext(doc: Doc, lang: NarrativeLang): Doc {
  const drugs = (Array.isArray(doc.drugs) ? doc.drugs : []) as Doc[];
  const withFirstDose = (drug: Doc) => ({ ...drug, firstDose: firstDose(drug) });
  return {
    ...doc,
    lang,
    reactions: ((Array.isArray(doc.reactions) ? doc.reactions : []) as Doc[]).map((reaction) => ({
      ...reaction,
      seriousness: seriousnessText(reaction, lang),
    })),
    suspectDrugs: drugs
      .filter((d) => d.drugCharacterisation === '1' || d.drugCharacterisation === '3')
      .map(withFirstDose),
    concomitantDrugs: drugs.filter((d) => d.drugCharacterisation === '2').map(withFirstDose),
  };
}

export function renderNarrative(body: string, doc: Doc, lang: NarrativeLang): string {
  const template = compileTemplate(body, lang);
  try {
    return template(narrativeContext(doc, lang))
      .split('\n')
      .map((line) => line.trimEnd())
      .filter((line) => line !== '')
      .join('\n');
  } catch (error) {
    throw new AppError(Code.badRequest, 'narratives.renderError', { reason: (error as Error).message }, 400);
  }
}
