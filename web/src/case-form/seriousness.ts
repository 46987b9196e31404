/** The seriousness criteria of a reaction (E.i.3.2a-f): what the highlight shows. */
export const SERIOUSNESS_CRITERIA = [
  ['isResultInDeath', 'E.i.3.2a'],
  ['isThreadToLife', 'E.i.3.2b'],
  ['isCauseInHospital', 'E.i.3.2c'],
  ['isDisability', 'E.i.3.2d'],
  ['isBirthDefect', 'E.i.3.2e'],
  ['isOtherMedicalEvents', 'E.i.3.2f'],
] as const;

export type SeriousnessKey = (typeof SERIOUSNESS_CRITERIA)[number][0];

/** The criteria a reaction meets (true values only). */
export function seriousnessOf(reaction: unknown): SeriousnessKey[] {
  if (!reaction || typeof reaction !== 'object') return [];
  const item = reaction as Record<string, unknown>;
  return SERIOUSNESS_CRITERIA.filter(([key]) => item[key] === true).map(([key]) => key);
}
