/**
 * Blinded outputs: a copy of the case in which every field of schemas/reports/blinding.json that would
 * reveal a study drug's treatment assignment holds the BLINDED marker, printed as "Blinded". The case
 * itself is not changed.
 */
import declaration from '../../../schemas/reports/blinding.json';
import { BLINDED, pointerOf, valuesAt } from './values';

interface BlindingDeclaration {
  drugWhen: string[];
  drugFields: string[];
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

export function blindCase<T extends Record<string, unknown>>(document: T): T {
  const copy = structuredClone(document);
  const drugs = Array.isArray(copy['drugs']) ? (copy['drugs'] as unknown[]) : [];
  drugs.forEach((_, i) => {
    const drug = `/drugs/${i}`;
    if (!isBlindedDrug(copy, drug)) return;
    const binding = new Map([[DRUGS, drug]]);
    for (const ref of blinding.drugFields)
      for (const { pointer, value } of valuesAt(copy, pointerOf(ref), binding))
        if (value !== undefined && value !== null && value !== '') setAt(copy, pointer, { ...BLINDED });
  });
  return copy;
}
