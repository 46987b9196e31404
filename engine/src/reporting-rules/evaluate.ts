/**
 * Evaluates an authority's reporting rules for a case and a receiver to a plan proposal: submit
 * or not (with the no-submission reason), the clock and due date, and the explanation (rule id,
 * facts read with their values and E2B sources). Dates come from the case, never the clock.
 */
import { addDays, earliestDay } from '../workflow/deadlines';
import { compileCondition, factsRead } from '../workflow/conditions';
import type { Facts, FactValue } from '../workflow/conditions';
import { caseFacts, factsFor, REPORTING_FACTS } from './facts';
import type { CaseFacts, ComputedFact, ReportingFact } from './facts';
import type { Authority, FactRead, PlanProposal, ReportingRules } from './types';

/** The receiver as the rules need it (the receiver entity's authority, or its profile). */
export interface RuleReceiver {
  receiverId?: string | null;
  authority?: Authority | null;
  profile?: string | null;
}

export interface EvaluateOptions {
  /** The case was already submitted to this receiver (downgrade and follow-up rules). */
  reportedBefore?: boolean;
}

/** The authority a receiver names; receivers saved before `authority` existed fall back to their profile. */
export function receiverAuthority(receiver: RuleReceiver): Authority {
  const named = receiver.authority ?? receiver.profile;
  if (named === 'nmpa' || named === 'fda' || named === 'ema' || named === 'ich') return named;
  return 'ich';
}

/**
 * A rule set prepared once: each rule's condition as a function, and for each rule the facts its
 * explanation lists when evaluation stops there (every fact read by it and the rules before it,
 * first reading first: the facts the evaluation looked at).
 */
interface CompiledRules {
  tests: (((facts: Facts) => boolean) | null)[];
  explained: ReportingFact[][];
}
const compiledCache = new WeakMap<ReportingRules, CompiledRules>();
function compiled(rules: ReportingRules): CompiledRules {
  let found = compiledCache.get(rules);
  if (!found) {
    const seen = new Set<ReportingFact>();
    const explained: ReportingFact[][] = [];
    for (const rule of rules.rules) {
      for (const name of rule.when ? factsRead(rule.when) : []) seen.add(name as ReportingFact);
      explained.push([...seen]);
    }
    found = { tests: rules.rules.map((r) => (r.when ? compileCondition(r.when) : null)), explained };
    compiledCache.set(rules, found);
  }
  return found;
}

// Due dates by clock start and days: a case selection has few distinct report dates.
const dueDates = new Map<string, string | null>();
function dueDate(startValue: string | null, days: number): string | null {
  if (startValue === null) return null;
  const key = `${startValue}|${days}`;
  let due = dueDates.get(key);
  if (due === undefined) {
    const day = earliestDay(startValue);
    due = day ? addDays(day, days) : null;
    if (dueDates.size >= 10_000) dueDates.clear();
    dueDates.set(key, due);
  }
  return due;
}

/** Problems of a rule file: unknown facts, a missing final catch-all, duplicate ids, wrong authority prefix. */
export function checkReportingRules(rules: ReportingRules): string[] {
  const problems: string[] = [];
  const known = new Set<string>(REPORTING_FACTS);
  const ids = new Set<string>();
  rules.rules.forEach((rule, i) => {
    if (ids.has(rule.id)) problems.push(`${rule.id}: duplicate id`);
    ids.add(rule.id);
    if (!rule.id.startsWith(`${rules.authority}.`))
      problems.push(`${rule.id}: id must start with ${rules.authority}.`);
    for (const fact of rule.when ? factsRead(rule.when) : []) {
      if (!known.has(fact)) problems.push(`${rule.id}: unknown fact ${fact}`);
    }
    if (!rule.when && i !== rules.rules.length - 1)
      problems.push(`${rule.id}: only the last rule may have no condition`);
    if (rule.outcome === 'submit' && (!rule.initial || !rule.followUp))
      problems.push(`${rule.id}: clock missing`);
    if (rule.outcome === 'noSubmission' && !rule.noSubmissionReason)
      problems.push(`${rule.id}: reason missing`);
  });
  if (rules.rules.at(-1)?.when) problems.push('the last rule must have no condition');
  return problems;
}

// One object shape for every evaluation: a record filled key by key is a slow dictionary.
const valuesOf = (all: Record<ReportingFact, ComputedFact>): Record<ReportingFact, FactValue> => ({
  isStudy: all.isStudy.value,
  isSerious: all.isSerious.value,
  isFatal: all.isFatal.value,
  isLifeThreatening: all.isLifeThreatening.value,
  fatalOrLifeThreatening: all.fatalOrLifeThreatening.value,
  isUnexpected: all.isUnexpected.value,
  isSusar: all.isSusar.value,
  occurrenceCountry: all.occurrenceCountry.value,
  isLocal: all.isLocal.value,
  isApprovedHere: all.isApprovedHere.value,
  isFollowUp: all.isFollowUp.value,
  reportedBefore: all.reportedBefore.value,
});

/** Evaluates one authority's rules on facts already computed for the case (the bulk path). */
export function evaluateFacts(
  rules: ReportingRules,
  computed: CaseFacts,
  receiver: RuleReceiver,
  options: EvaluateOptions = {},
): PlanProposal {
  const all = factsFor(computed, { countries: rules.countries, reportedBefore: options.reportedBefore });
  const values: Facts = valuesOf(all);
  const { tests, explained } = compiled(rules);
  let index = tests.length - 1;
  for (let i = 0; i < tests.length; i++) {
    const test = tests[i];
    if (!test || test(values)) {
      index = i;
      break;
    }
  }
  const facts: FactRead[] = explained[index].map((name) => ({
    fact: name,
    value: all[name].value,
    from: all[name].from,
  }));
  const rule = rules.rules[index];
  const explanation = { ruleId: rule.id, label: rule.label, source: rule.source, facts };
  // Literals rather than spreading a shared base: the spread cost more than the evaluation.
  const receiverId = receiver.receiverId ?? null;
  if (rule.outcome === 'noSubmission') {
    return {
      receiverId,
      authority: rules.authority,
      explanation,
      isSubmit: false,
      noneSubmitWhy: rule.noSubmissionReason ?? rule.label,
      clockKind: null,
      days: null,
      clockStart: null,
      dueDate: null,
    };
  }
  const clockKind = computed.isFollowUp.value === true ? 'followUp' : 'initial';
  // checkReportingRules guarantees both clocks on a submitting rule.
  const clock = (clockKind === 'followUp' ? rule.followUp : rule.initial) ?? { days: 0, clockStart: 'C.1.4' };
  const startValue = clock.clockStart === 'C.1.4' ? computed.reportDateFirst : computed.reportDateLast;
  return {
    receiverId,
    authority: rules.authority,
    explanation,
    isSubmit: true,
    noneSubmitWhy: null,
    clockKind,
    days: clock.days,
    clockStart: startValue ? { e2b: clock.clockStart, value: startValue } : null,
    dueDate: dueDate(startValue, clock.days),
  };
}

/** The plan proposal for a case and one receiver under that receiver's authority's rules. */
export function proposePlan(
  rules: ReportingRules,
  caseDoc: unknown,
  receiver: RuleReceiver,
  options: EvaluateOptions = {},
): PlanProposal {
  return evaluateFacts(rules, caseFacts(caseDoc), receiver, options);
}
