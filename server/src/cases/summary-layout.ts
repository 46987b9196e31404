/**
 * Stored summaries follow the summary layout: when what a summary holds changes (a list column or
 * filter declared in schemas/ui/case-list.json, or what buildSummary computes), every stored
 * summary is built again from its case at the next start, so lists, counts and drill-downs see the
 * new values for old cases too, not only for cases saved since.
 */
import { createHash } from 'node:crypto';
import { allTenantIds } from '../auth';
import type { Handle, Store } from '../store';
import { C } from './collections';
import type { CaseDocument } from './document';
import { caseContent } from './document';
import { deadlineOf } from './deadline';
import { buildSummary, DERIVED_FILTERS, ITEM_FILTERS, LIST_POINTERS } from './summary';
import type { CaseSummary } from './summary';
import { submittedFacts } from './submitted';

/** Raise when buildSummary computes something new from the same pointers. */
const SUMMARY_CODE_VERSION = 3;
const ACTOR = 'system:case-summaries';
const LAYOUT_ID = 'summaries';
const PAGE = 500;

export const summaryLayout = createHash('sha256')
  .update(
    JSON.stringify({
      version: SUMMARY_CODE_VERSION,
      pointers: LIST_POINTERS,
      // Filters of some items only (suspect drugs) keep values of their own.
      items: ITEM_FILTERS.map(({ id, fields, items }) => ({ id, fields, items })),
      // Values derived under a filter's id (classes met, an age in years).
      derived: DERIVED_FILTERS.map(({ id, fields, classes, years }) => ({ id, fields, classes, years })),
    }),
  )
  .digest('hex');

/** Builds every summary of a tenant again from its case, a page of cases at a time. */
export async function rebuildSummaries(handle: Handle): Promise<number> {
  const cases = handle.collection<CaseDocument>(C.cases);
  let count = 0;
  for (let after = ''; ;) {
    const page = await cases.find(after ? { _id: { $gt: after } } : {}, { sort: { _id: 1 }, limit: PAGE });
    // A page in one transaction: the embedded store commits (and syncs) once per page, not per case.
    await handle.transaction(async (tx) => {
      const summaries = tx.collection<Omit<CaseSummary, '_id'>>(C.summaries);
      for (const stored of page) {
        const doc = caseContent(stored);
        const { _id: _ignored, ...fields } = buildSummary(
          stored._id,
          doc,
          await deadlineOf(tx, stored._id, doc),
        );
        // Facts kept beside the document's: rebuilt from the case's history too.
        const submitted = await submittedFacts(tx, stored._id);
        await summaries.updateOne({ _id: stored._id }, { $set: { ...fields, submitted } });
      }
    });
    count += page.length;
    if (page.length < PAGE) return count;
    after = page[page.length - 1]!._id;
  }
}

/** At start: rebuilds all tenants' summaries when they were built with another layout. */
export async function refreshSummaryLayout(store: Store): Promise<void> {
  const layouts = store.platform({ userId: ACTOR }).collection<{ layout: string }>(C.summaryLayout);
  const stored = await layouts.findOne({ _id: LAYOUT_ID });
  if (stored?.layout === summaryLayout) return;
  for (const tenantId of await allTenantIds(store, ACTOR))
    await rebuildSummaries(store.tenant(tenantId, { userId: ACTOR }));
  if (stored) await layouts.updateOne({ _id: LAYOUT_ID }, { $set: { layout: summaryLayout } });
  else await layouts.insertOne({ _id: LAYOUT_ID, layout: summaryLayout });
}
