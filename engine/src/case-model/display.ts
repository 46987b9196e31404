/**
 * E2B partial dates as people read them, in ISO order whatever the language (the case list, the
 * case form's headers, the line listing): `20261120` -> `2026-11-20`, `202611` -> `2026-11`,
 * `20261120103015+0800` -> `2026-11-20 10:30:15 +08:00`, each at the precision it was recorded with.
 */
const E2B_DATE = /^(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?([+-]\d{4})?$/;

/** True for an E2B date string `CCYY[MM[DD[hh[mm[ss]]]]][+/-hhmm]`. */
export function isE2bDate(value: unknown): value is string {
  return typeof value === 'string' && E2B_DATE.test(value);
}

/** The date in ISO order at its precision; anything that is not an E2B date is returned as it is. */
export function e2bDateText(value: string): string {
  const match = E2B_DATE.exec(value);
  if (!match) return value;
  const [, year, month, day, hour, minute, second, zone] = match;
  let text = [year, month, day].filter(Boolean).join('-');
  if (hour) text += ` ${[hour, minute, second].filter(Boolean).join(':')}`;
  if (zone) text += ` ${zone.slice(0, 3)}:${zone.slice(3)}`;
  return text;
}

/**
 * The kinds of object a case or a list refers to by id and shows by name (GET /api/names): the
 * server resolves them, the web asks for them in batches.
 */
export const NAME_KINDS = [
  'project',
  'site',
  'drug',
  'user',
  'receiver',
  'regulator',
  'organisation',
  /** A tenant by its code and name: only an operator (platform staff) reads these. */
  'tenant',
] as const;
export type NameKind = (typeof NAME_KINDS)[number];

/** What is shown for an id: a code (project code, site number) and a name in zh and, when kept, en. */
export interface DisplayName {
  code?: string;
  name: string;
  nameEn?: string;
}

/** The largest batch of one kind a names request takes (one page of a list asks far fewer). */
export const NAME_BATCH_MAX = 200;
