/**
 * Blinded outputs: a copy of the case in which every field of schemas/reports/blinding.json that would
 * reveal a study drug's treatment assignment holds the BLINDED marker, printed as "Blinded". The case
 * itself is not changed.
 */
import declaration from '../../../schemas/reports/blinding.json';
import { BLINDED, BLINDED_IN_TEXT, pointerOf, valuesAt } from './values';

interface BlindingDeclaration {
  drugWhen: string[];
  drugFields: string[];
  textSecrets: string[];
}

const blinding: BlindingDeclaration = declaration as BlindingDeclaration;
const DRUGS = '/drugs/*';

function setAt(root: unknown, pointer: string, value: unknown): void {
  const tokens = pointer.split('/').slice(1);
  let node = root as Record<string, unknown>;
  for (const token of tokens.slice(0, -1)) node = node[token] as Record<string, unknown>;
  node[tokens[tokens.length - 1] as string] = value;
}

/** True when the drug at `drug` (`/drugs/2`) is one whose identity the blinding hides. */
export function isBlindedDrug(document: unknown, drug: string): boolean {
  const binding = new Map([[DRUGS, drug]]);
  return blinding.drugWhen.some((ref) =>
    valuesAt(document, pointerOf(ref), binding).some(({ value }) => value === true),
  );
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Replaces every secret in every string of the document (free text naming the study drug). */
function blotText(node: unknown, secrets: RegExp): unknown {
  if (typeof node === 'string') return node.replace(secrets, BLINDED_IN_TEXT);
  if (Array.isArray(node)) return node.map((item) => blotText(item, secrets));
  if (node && typeof node === 'object')
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, blotText(value, secrets)]));
  return node;
}

export function blindCase<T extends Record<string, unknown>>(document: T): T {
  const copy = structuredClone(document);
  const drugs = Array.isArray(copy['drugs']) ? (copy['drugs'] as unknown[]) : [];
  const secrets = new Set<string>();
  drugs.forEach((_, i) => {
    const drug = `/drugs/${i}`;
    if (!isBlindedDrug(copy, drug)) return;
    const binding = new Map([[DRUGS, drug]]);
    for (const ref of blinding.textSecrets)
      for (const { value } of valuesAt(copy, pointerOf(ref), binding))
        if (typeof value === 'string' && value.trim().length >= 3) secrets.add(value.trim());
    for (const ref of blinding.drugFields)
      for (const { pointer, value } of valuesAt(copy, pointerOf(ref), binding))
        if (value !== undefined && value !== null && value !== '') setAt(copy, pointer, { ...BLINDED });
  });
  if (secrets.size === 0) return copy;
  // Longest first, so that a name containing another is blotted whole.
  const pattern = new RegExp(
    [...secrets]
      .sort((a, b) => b.length - a.length)
      .map(escape)
      .join('|'),
    'gi',
  );
  return blotText(copy, pattern) as T;
}
