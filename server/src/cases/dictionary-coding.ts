/**
 * Hands the dictionaries' coding across cases (the bulk recode, the medical review tasks, the
 * MedDRA coding findings of every case check) the case service's save and the case collections:
 * the dictionaries module sits below cases and does not import it.
 */
import { registerCaseCoding } from '../dictionaries';
import { C } from './collections';
import { saveCase } from './service';
import { provideCaseCheckFindings } from './validation';

registerCaseCoding({
  collections: { cases: C.cases, summaries: C.summaries },
  save: (caller, caseId, input) => saveCase(caller, caseId, input),
  provideCheckFindings: provideCaseCheckFindings,
});
