/**
 * Per-project feature switches (SPEC section 6) and the decisions that depend on them. Pure: the
 * server loads a project's switches and the modules that own the behaviour ask these functions.
 */

export interface FeatureSwitches {
  /** Users may edit case data entered by someone else. */
  editOthersData: boolean;
  /** Source data verification. */
  sdv: boolean;
  /** Data manager review. */
  dmReview: boolean;
  /** Medical monitor review. */
  mmReview: boolean;
  /** Queries may be raised on the project's cases. */
  dataQuery: boolean;
  /** Principal investigator signature. */
  piSign: boolean;
  /** Case data can be frozen. */
  freeze: boolean;
  /** The patient-side application is enabled. */
  patientSide: boolean;
  /** Patients bind by QR code and phone number (needs the patient side). */
  qrPhoneBinding: boolean;
  /** Hours after entry during which case data may be edited; null = unlimited. */
  editTimeLimitHours: number | null;
}

export type FeatureSwitchName = keyof FeatureSwitches;

export const FEATURE_SWITCH_NAMES: readonly FeatureSwitchName[] = [
  'editOthersData',
  'sdv',
  'dmReview',
  'mmReview',
  'dataQuery',
  'piSign',
  'freeze',
  'patientSide',
  'qrPhoneBinding',
  'editTimeLimitHours',
];

/** What a project runs with until someone configures it: the platform's behaviour without switches. */
export const DEFAULT_FEATURES: Readonly<FeatureSwitches> = Object.freeze({
  editOthersData: true,
  sdv: false,
  dmReview: false,
  mmReview: false,
  dataQuery: true,
  piSign: false,
  freeze: false,
  patientSide: false,
  qrPhoneBinding: false,
  editTimeLimitHours: null,
});

/** Ten years: a longer limit is a typing error, not a policy. */
export const MAX_EDIT_TIME_LIMIT_HOURS = 87_600;

export interface ConfiguratorProblem {
  /** i18n key in schemas/i18n/configurator. */
  messageKey: string;
  params: Record<string, string | number>;
}

const problem = (messageKey: string, params: Record<string, string | number> = {}): ConfiguratorProblem => ({
  messageKey,
  params,
});

/** Problems of a (partial) set of switches; empty when it may be saved. */
export function checkFeatureSwitches(input: Record<string, unknown>): ConfiguratorProblem[] {
  const problems: ConfiguratorProblem[] = [];
  for (const [name, value] of Object.entries(input)) {
    if (!FEATURE_SWITCH_NAMES.includes(name as FeatureSwitchName)) {
      problems.push(problem('configurator.feature.unknown', { name }));
    } else if (name === 'editTimeLimitHours') {
      if (
        value !== null &&
        (typeof value !== 'number' ||
          !Number.isInteger(value) ||
          value < 1 ||
          value > MAX_EDIT_TIME_LIMIT_HOURS)
      )
        problems.push(problem('configurator.feature.badTimeLimit', { max: MAX_EDIT_TIME_LIMIT_HOURS }));
    } else if (typeof value !== 'boolean') {
      problems.push(problem('configurator.feature.notBoolean', { name }));
    }
  }
  const merged = { ...DEFAULT_FEATURES, ...input };
  if (merged.qrPhoneBinding === true && merged.patientSide !== true)
    problems.push(problem('configurator.feature.bindingNeedsPatientSide'));
  return problems;
}

/** The switches a project runs with: the defaults under what was configured. */
export function resolveFeatures(configured?: Partial<FeatureSwitches> | null): FeatureSwitches {
  return { ...DEFAULT_FEATURES, ...(configured ?? {}) };
}

export interface CaseEditAttempt {
  /** Who is editing. */
  userId: string;
  /** Who entered the case (the store's createdBy). */
  enteredBy: string | null | undefined;
  /** When the case was entered (ISO date-time, the store's createdAt). */
  enteredAt: string | null | undefined;
  now: Date;
}

/**
 * Why a case edit is refused by the project's switches, or null when they allow it:
 * another user's data with "edit others' entered data" off, or past the data edit time limit.
 */
export function caseEditRefusal(
  features: FeatureSwitches,
  attempt: CaseEditAttempt,
): ConfiguratorProblem | null {
  if (!features.editOthersData && attempt.enteredBy && attempt.enteredBy !== attempt.userId)
    return problem('configurator.feature.editOthersRefused');
  if (features.editTimeLimitHours !== null && attempt.enteredAt) {
    const entered = Date.parse(attempt.enteredAt);
    const limitMs = features.editTimeLimitHours * 3_600_000;
    if (Number.isFinite(entered) && attempt.now.getTime() - entered > limitMs)
      return problem('configurator.feature.editTimeLimitPassed', { hours: features.editTimeLimitHours });
  }
  return null;
}

/** Why raising a query is refused by the project's switches, or null. */
export function queryRefusal(features: FeatureSwitches): ConfiguratorProblem | null {
  return features.dataQuery ? null : problem('configurator.feature.queriesOff');
}
