/**
 * Evaluates an authority's reporting rules for a case and a receiver to a plan proposal: submit
 * or not (with the no-submission reason), the clock and due date, and the explanation (rule id,
 * facts read with their values and E2B sources). Dates come from the case, never the clock.
 */
import { addDays, earliestDay } from '../workflow/deadlines';
import { factsRead, holds } from '../workflow/conditions';
import type { Facts } from '../workflow/conditions';
import { caseFacts, factsFor, REPORTING_FACTS } from './facts';
import type { CaseFacts } from './facts';
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

// Facts read by each rule, in order, computed once per rule set.
const readCache = new WeakMap<ReportingRules, string[][]>();
function factsReadByRule(rules: ReportingRules): string[][] {
  let read = readCache.get(rules);
  if (!read) {
    read = rules.rules.map((r) => (r.when ? [...factsRead(r.when)] : []));
    readCache.set(rules, read);
  }
  return read;
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

/** Evaluates one authority's rules on facts already computed for the case (the bulk path). */
export function evaluateFacts(
  rules: ReportingRules,
  computed: CaseFacts,
  receiver: RuleReceiver,
  options: EvaluateOptions = {},
): PlanProposal {
  const all = factsFor(computed, { countries: rules.countries, reportedBefore: options.reportedBefore });
  const values: Facts = {};
  for (const name of REPORTING_FACTS) values[name] = all[name].value;
  const read = factsReadByRule(rules);
  const seen = new Set<string>();
  const facts: FactRead[] = [];
  let index = rules.rules.length - 1;
  for (let i = 0; i < rules.rules.length; i++) {
    for (const name of read[i]) {
      if (seen.has(name)) continue;
      seen.add(name);
      const fact = all[name as keyof typeof all];
      facts.push({ fact: name, value: fact.value, from: fact.from });
    }
    const when = rules.rules[i].when;
    if (!when || holds(when, values)) {
      index = i;
      break;
    }
  }
  const rule = rules.rules[index];
  const explanation = { ruleId: rule.id, label: rule.label, source: rule.source, facts };
  const base = { receiverId: receiver.receiverId ?? null, authority: rules.authority, explanation };
  if (rule.outcome === 'noSubmission') {
    return {
      ...base,
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
  const day = earliestDay(startValue);
  return {
    ...base,
    isSubmit: true,
    noneSubmitWhy: null,
    clockKind,
    days: clock.days,
    clockStart: startValue ? { e2b: clock.clockStart, value: startValue } : null,
    dueDate: day ? addDays(day, clock.days) : null,
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
