/**
 * RJSF's own texts (array buttons "Add Item", "Move up", empty-array hints, Yes/No) in the display
 * language: each TranslatableString has a catalogue key form.rjsf.<name>; RJSF's positional
 * parameters %1, %2 ... become {p1}, {p2} ...
 */
import { TranslatableString } from '@rjsf/utils';

type Translate = (key: string, params?: Record<string, string>) => string;

const NAME_OF = new Map<string, string>(
  Object.entries(TranslatableString).map(([name, text]) => [text, name]),
);

/** The catalogue key of each RJSF text (the catalogue test checks all exist in zh and en). */
export const rjsfKeys = Object.keys(TranslatableString).map((name) => `form.rjsf.${name}`);

export function rjsfTranslator(t: Translate): (text: TranslatableString, params?: string[]) => string {
  return (text, params) => {
    const name = NAME_OF.get(text);
    if (name === undefined) return text;
    const named = Object.fromEntries((params ?? []).map((value, i) => [`p${i + 1}`, value]));
    return t(`form.rjsf.${name}`, named);
  };
}
