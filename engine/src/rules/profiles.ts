/** The rule profiles declared in schemas/rules, imported statically (no I/O in the engine). */
import ema from '../../../schemas/rules/ema.json';
import fda from '../../../schemas/rules/fda.json';
import ich from '../../../schemas/rules/ich.json';
import mandatory from '../../../schemas/rules/e2b-mandatory.json';
import nmpa from '../../../schemas/rules/nmpa.json';
import product from '../../../schemas/rules/product.json';
import type { RuleSet } from './types';

/** Product rules (SPEC section 5), ICH business rules, then the regional profiles. */
export const ruleSets: RuleSet[] = [product, ich, fda, nmpa, ema] as RuleSet[];

export const RULE_PROFILES = ['product', 'ich', 'fda', 'nmpa', 'ema'] as const;
export type RuleProfile = (typeof RULE_PROFILES)[number];

/** E2B ids the ICH table marks Mandatory or Required. */
export const mandatoryE2bIds: readonly string[] = mandatory.e2b;

/**
 * The profiles a regional check runs: the product rules always, the ICH rules except for FDA
 * (the FDA set restates the ICH conditions under its own error ids), then the region.
 */
export function profilesFor(region: 'ich' | 'fda' | 'nmpa' | 'ema'): RuleProfile[] {
  if (region === 'ich') return ['product', 'ich'];
  if (region === 'fda') return ['product', 'fda'];
  return ['product', 'ich', region];
}
