/**
 * `npm run bench -- analytics`: pooled analysis at 100,000 cases (BENCH_ANALYTICS_CASES) in 5
 * tenants (the queried one holds a fifth), each a demo case document (server/src/cases/demo) with
 * its state, project, report type, country, sex, drugs and one MedDRA-coded reaction.
 *
 * Figures, through the routes (POST /api/analytics/statistic and /pivot, in process, with a member
 * of the tenant's projects): the p95 of each declared summary statistic and of a three-dimension
 * pivot (product x SOC x seriousness). Target <= 300 ms. Floor: the hand-written SQL of the same
 * aggregate on the same SQLite file (the store's generated columns where it has them, else
 * json_extract; the store's element tables for drugs and reactions; GROUP BY), and the ratio;
 * the pivot's floor counts its margins too (by product and seriousness, by seriousness), as the
 * route does besides the cells.
 * The event-level tree (POST /api/analytics/events: SOC -> HLGT -> HLT -> PT -> LLT with seriousness,
 * seven grouped counts); floor: the hand-written count of cases per PT over the reactions' element
 * table. Its details (POST /api/analytics/events/details: outcomes, time to onset, products, four
 * counts); floor: the hand-written count of cases per PT, LLT and outcome.
 * Submitted statistics count case summaries (their `submitted` facts; the queried tenant's cases
 * have summaries, 60% of them a first delivery): floor the same GROUP BY over the summaries' table.
 * Age groups by the project's rule (p1 of the queried tenant declares bands): floor one count by
 * age and unit.
 * The full signal table (POST /api/analytics/signals, by PT: every suspect drug x PT pair of the
 * queried tenant with its a, b, c, d and figures); the median of BENCH_ANALYTICS_SIGNAL_RUNS (5)
 * calls, target <= 5 s. Floor: one hand-written SQL of the same aggregate (distinct case x suspect
 * drug and case x PT over the element tables, the cases having both, a per pair, the drug's and the
 * PT's case counts and N). The route's answer is checked against the floor: the same pairs with the
 * same a, b, c, d.
 * The demo cases have one suspect drug and one of a few PTs, so the table is narrow (14 pairs);
 * BENCH_ANALYTICS_PRODUCTS=<k> names each case's suspect drug one of k variants (k x PTs pairs).
 * BENCH_ANALYTICS_ONLY=<text> measures only the lines whose name contains it (the cases are still
 * generated: there is no cache).
 */
import Database from 'better-sqlite3';
import { createCasesModule, demoCaseContent } from '../../server/src/cases/index';
import { buildSummary, caseRig, demoProject } from '../../server/src/cases/testing';
import { reportCodesModule } from '../../server/src/report-codes';
import { createUnblindingModule } from '../../server/src/unblinding';
import { analyticsModule } from '../../server/src/analytics';
import type { SignalRow } from '../../server/src/analytics';
import { demoDictionaryFiles, dictionariesModule, dictionaryService } from '../../server/src/dictionaries';
import { STATISTICS } from '../../server/src/analytics/declarations';
import { caseCollections } from '../../server/src/cases/collections';
import { elementTableName } from '../../server/src/store/embedded';
import { benchLine, percentile } from './measure';

const TOTAL = Number(process.env.BENCH_ANALYTICS_CASES ?? 100_000);
const RUNS = Number(process.env.BENCH_ANALYTICS_RUNS ?? 20);
const TENANTS = ['t1', 'other-1', 'other-2', 'other-3', 'other-4'];
const TARGET_MS = 300;
const SIGNAL_TARGET_MS = 5000;
const SIGNAL_RUNS = Number(process.env.BENCH_ANALYTICS_SIGNAL_RUNS ?? 5);
const ONLY = process.env.BENCH_ANALYTICS_ONLY ?? '';
const wanted = (name: string) => name.includes(ONLY);
/** With k > 1, each case's suspect drug is named one of k variants (a wider signal table). */
const PRODUCTS = Number(process.env.BENCH_ANALYTICS_PRODUCTS ?? 1);
const widened = (drugs: unknown, n: number) =>
  PRODUCTS > 1 && Array.isArray(drugs)
    ? drugs.map((drug: Record<string, unknown>) =>
        drug.drugCharacterisation === '1' || drug.drugCharacterisation === '3'
          ? // Not n % k: the reaction term is n % terms, and every drug should meet every term.
            { ...drug, drugName: `${String(drug.drugName)} ${Math.floor(n / 97) % PRODUCTS}` }
          : drug,
      )
    : drugs;

const rig = await caseRig({
  users: [{ id: 'entry', name: 'Entry' }],
  modules: [
    createCasesModule(),
    reportCodesModule,
    createUnblindingModule(),
    dictionariesModule,
    analyticsModule,
  ],
});
const today = new Date('2026-11-20T00:00:00Z');
const project = demoProject('p1');
const started = performance.now();
const perTenant = Math.ceil(TOTAL / TENANTS.length);
for (const tenant of TENANTS) {
  const cases = rig.store.tenant(tenant, { userId: 'system:bench' }).collection('cases');
  for (let from = 0; from < perTenant; from += 1000) {
    const batch = [];
    for (let n = from; n < Math.min(from + 1000, perTenant); n++) {
      const doc = demoCaseContent({ n, project, today }) as Record<string, Record<string, unknown>>;
      batch.push({
        ...doc,
        _id: `${tenant}-${n}`,
        drugs: widened(doc.drugs, n),
        state: {
          ...doc.state,
          validity: n % 10 === 0 ? 'invalid' : 'valid',
          workflowNode: ['dataEntry', 'dataQc', 'medicalReview'][n % 3],
          versionType: n % 4 === 0 ? 'followUp' : 'initial',
        },
        report: {
          ...doc.report,
          reportCode: `${tenant}-${n}`,
          studyProjectId: 'p1',
          reportType: String(1 + (n % 3)),
          happenCountry: ['CN', 'US', 'JP', 'DE'][n % 4],
        },
      });
    }
    await cases.insertMany(batch);
    // The queried tenant's summaries, with submission facts for 60% of its cases.
    if (tenant === 't1')
      await rig.store
        .tenant(tenant, { userId: 'system:bench' })
        .collection('caseSummaries')
        .insertMany(
          batch.map((doc, i) => {
            const n = from + i;
            const received = String((doc.report as Record<string, unknown>).reportDateFirst ?? '20260101');
            return {
              ...(buildSummary(doc._id, doc as never, null) as unknown as Record<string, unknown>),
              submitted:
                n % 5 < 3
                  ? { day: received, timeliness: ['onTime', 'onTime', 'late', 'noDueDate'][n % 4] }
                  : null,
            };
          }),
        );
  }
}
// The queried tenant's project declares an age-stratification rule (strata.ts counts by it).
await rig.store
  .tenant('t1', { userId: 'system:bench' })
  .collection('projects')
  .updateOne(
    { _id: 'p1' },
    {
      $set: {
        ageGroups: [
          { nameZh: '未成年', nameEn: 'Minors', fromYears: 0, toYears: 18 },
          { nameZh: '成人', nameEn: 'Adults', fromYears: 18, toYears: 65 },
          { nameZh: '老年', nameEn: 'Elderly', fromYears: 65 },
        ],
      },
    },
  );
await dictionaryService(rig.store).importMeddra(
  rig.store.tenant('t1', { userId: 'system:bench' }),
  demoDictionaryFiles().meddra.en,
);
console.log(
  `generated ${perTenant * TENANTS.length} cases in ${((performance.now() - started) / 1000).toFixed(0)} s`,
);

const db = new Database(`${rig.store.dataDir}/store.sqlite`, { readonly: true });
const time = async (fn: () => Promise<unknown> | unknown): Promise<number> => {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
};

async function measure(
  name: string,
  call: () => Promise<unknown>,
  floorSql: string,
  /** How many times the floor's SQL binds the tenant. */
  tenants = 1,
): Promise<string | undefined> {
  if (!wanted(name)) return undefined;
  const floor = db.prepare(floorSql);
  const bound = Array.from({ length: tenants }, () => 't1');
  await call();
  floor.all(...bound);
  const subject: number[] = [];
  const floors: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    floors.push(await time(() => floor.all(...bound)));
    subject.push(await time(call));
  }
  const p95 = percentile(subject, 0.95);
  const floorP95 = percentile(floors, 0.95);
  const line = benchLine({
    name,
    figure: p95,
    unit: 'ms',
    floor: floorP95,
    ratio: p95 / floorP95,
    target: `<=${TARGET_MS}ms`,
    met: p95 <= TARGET_MS,
  });
  console.log(line);
  return line;
}

const columnsOf = (table: string) =>
  db.prepare<[], { name: string }>(`SELECT name FROM pragma_table_xinfo('${table}')`).all();
const columns = columnsOf('c_cases');
const summaryColumns = columnsOf('c_caseSummaries');
/** The best hand-written read of a path: its generated column when the store made one, else json_extract. */
const at = (path: string, of = columns) =>
  of.find((c) => c.name.startsWith(`g_${path.replace(/\./g, '_')}_`))?.name ??
  `json_extract(doc, '$.${path}')`;
const casesDefinition = caseCollections.find((c) => c.name === 'cases')!;
/** The element table of an array and the column of a path in it (v<i>). */
const element = (each: string) => {
  const declared = casesDefinition.elements!.find((e) => e.each === each)!;
  return {
    table: elementTableName('cases', declared),
    v: (path: string) => `v${declared.paths.indexOf(path)}`,
  };
};
const drugs = element('drugs');
const reactions = element('reactions');
const base = `tenantId = ? AND ${at('state.validity')} = 'valid' AND ${at('report.studyProjectId')} IN ('p1')`;
const baseT = `t.tenantId = ? AND t.${at('state.validity')} = 'valid' AND t.${at('report.studyProjectId')} IN ('p1')`;
const entry = rig.as('entry');
/** One drug x PT pair's 2x2 table, as the route answers it. */
type Pair = Pick<SignalRow, 'drug' | 'event' | 'a' | 'b' | 'c' | 'd'>;
const ok = async (path: string, body: unknown) => {
  const answer = await entry.call('POST', path, body);
  if (answer.status !== 200) throw new Error(`${path}: ${JSON.stringify(answer.body).slice(0, 300)}`);
};

/** A statistic the bench has no hand-written floor for stops the bench (not a floor of another count). */
const unfloored = (dimension: string): never => {
  throw new Error(`no floor for the dimension ${dimension}: write its SQL here`);
};

const lines: (string | undefined)[] = [];
for (const statistic of STATISTICS) {
  const fixed = Object.entries(statistic.fixed ?? {})
    .map(([id]) => ` AND ${at(id === 'susar' ? 'state.isSusar' : 'state.isSae')} = x'01'`)
    .join('');
  const perElement = statistic.dimensions[0] === 'product' || statistic.dimensions[0] === 'soc';
  const submitted = {
    submittedMonth: `substr(${at('submitted.day', summaryColumns)}, 1, 6)`,
    submittedQuarter: `substr(${at('submitted.day', summaryColumns)}, 1, 6)`,
    submissionTimeliness: at('submitted.timeliness', summaryColumns),
  }[statistic.dimensions[0]!];
  // Cases with a reaction holding the class's flag (E.i.3.2a/b), and those with neither: as many
  // counts as the route's classes dimension makes, a case in both classes counted in both.
  const flagged = (path: string) =>
    `EXISTS (SELECT 1 FROM json_each(doc, '$.reactions') r WHERE json_extract(r.value, '$.${path}') = 1)`;
  const classCount = (key: string, condition: string) =>
    `SELECT '${key}' k, COUNT(*) n FROM counted WHERE ${condition}`;
  const floorSql = submitted
    ? `SELECT ${submitted} k, COUNT(*) n FROM c_caseSummaries WHERE tenantId = ? AND ${at('state.validity', summaryColumns)} = 'valid' AND ${at('v.report_studyProjectId', summaryColumns)} IN ('p1') AND ${at('submitted.day', summaryColumns)} > '' GROUP BY k`
    : statistic.dimensions[0] === 'fatalLifeThreatening'
      ? `WITH counted AS (SELECT doc FROM c_cases WHERE ${base}${fixed}) ` +
        [
          classCount('fatal', flagged('isResultInDeath')),
          classCount('lifeThreatening', flagged('isThreadToLife')),
          classCount('neither', `NOT ${flagged('isResultInDeath')} AND NOT ${flagged('isThreadToLife')}`),
        ].join(' UNION ALL ')
      : statistic.dimensions[0] === 'ageStratum'
        ? `SELECT ${at('patient.age')} a, ${at('patient.ageUnit')} u, COUNT(*) n FROM c_cases WHERE ${base} GROUP BY a, u`
        : perElement
          ? statistic.dimensions.join() === 'product,concomitant'
            ? `SELECT s.${drugs.v('drugName')} p, c.${drugs.v('drugName')} k, COUNT(DISTINCT t._id) n FROM c_cases t, "${drugs.table}" s, "${drugs.table}" c WHERE s._id = t._id AND c._id = t._id AND ${baseT} AND s.${drugs.v('drugCharacterisation')} IN ('1','3') AND c.${drugs.v('drugCharacterisation')} = '2' GROUP BY p, k`
            : statistic.dimensions[0] === 'product'
              ? `SELECT e.${drugs.v('drugName')} k, COUNT(DISTINCT t._id) n FROM c_cases t, "${drugs.table}" e WHERE e._id = t._id AND ${baseT}${fixed.replace(/ AND /g, ' AND t.')} AND e.${drugs.v('drugCharacterisation')} IN ('1','3') GROUP BY k`
              : `SELECT e.${reactions.v('meddraSocCode')} k, COUNT(DISTINCT t._id) n FROM c_cases t, "${reactions.table}" e WHERE e._id = t._id AND ${baseT}${fixed.replace(/ AND /g, ' AND t.')} GROUP BY k`
          : statistic.dimensions[0] === 'receivedMonth' || statistic.dimensions[0] === 'receivedQuarter'
            ? `SELECT substr(${at('report.reportDateFirst')}, 1, 6) k, COUNT(*) n FROM c_cases WHERE ${base}${fixed} GROUP BY k`
            : `SELECT ${at(
                {
                  reportType: 'report.reportType',
                  reportClassify: 'report.cnReportClassify',
                  reportSource: 'report.cnReportSource',
                  serious: 'state.isSae',
                  versionType: 'state.versionType',
                  workflowNode: 'state.workflowNode',
                  ageGroup: 'patient.ageGroup',
                }[statistic.dimensions[0]!] ?? unfloored(statistic.dimensions[0]!),
              )} k, COUNT(*) n FROM c_cases WHERE ${base}${fixed} GROUP BY k`;
  lines.push(
    await measure(
      `analytics-statistic-${statistic.id}-p95`,
      () => ok('/analytics/statistic', { statisticId: statistic.id }),
      floorSql,
    ),
  );
}
// The pivot's cells and the margins the route counts besides them (seriousness is one value per
// case, so the route sums the others from these): by product and seriousness (the subtotal rows),
// by seriousness (the column totals), each over cases with a suspect drug and a reaction. An array
// a margin leaves out is only required (EXISTS), as the store counts it: no join multiplying rows.
const suspect = `d.${drugs.v('drugCharacterisation')} IN ('1','3')`;
const hasSuspect = `EXISTS (SELECT 1 FROM "${drugs.table}" d WHERE d._id = t._id AND ${suspect})`;
const hasReaction = `EXISTS (SELECT 1 FROM "${reactions.table}" r WHERE r._id = t._id)`;
const pivotFloor = [
  `SELECT d.${drugs.v('drugName')} p, r.${reactions.v('meddraSocCode')} s, t.${at('state.isSae')} k, COUNT(DISTINCT t._id) n FROM c_cases t, "${drugs.table}" d, "${reactions.table}" r WHERE d._id = t._id AND r._id = t._id AND ${baseT} AND ${suspect} GROUP BY p, s, k`,
  `SELECT d.${drugs.v('drugName')} p, NULL s, t.${at('state.isSae')} k, COUNT(DISTINCT t._id) n FROM c_cases t, "${drugs.table}" d WHERE d._id = t._id AND ${baseT} AND ${suspect} AND ${hasReaction} GROUP BY p, k`,
  `SELECT NULL p, NULL s, t.${at('state.isSae')} k, COUNT(*) n FROM c_cases t WHERE ${baseT} AND ${hasSuspect} AND ${hasReaction} GROUP BY k`,
].join(' UNION ALL ');
lines.push(
  await measure(
    'analytics-pivot-product-soc-serious-p95',
    () => ok('/analytics/pivot', { dimensions: ['product', 'soc', 'serious'] }),
    pivotFloor,
    3,
  ),
);
lines.push(
  await measure(
    'analytics-event-tree-p95',
    () => ok('/analytics/events', {}),
    `SELECT r.${reactions.v('meddraPtCode')} k, COUNT(DISTINCT t._id) n FROM c_cases t, "${reactions.table}" r WHERE r._id = t._id AND ${baseT} GROUP BY k`,
  ),
);
// The tree's second request: events by outcome, time to onset, the product choices.
lines.push(
  await measure(
    'analytics-event-details-p95',
    () => ok('/analytics/events/details', {}),
    `SELECT r.${reactions.v('meddraPtCode')} p, r.${reactions.v('meddraCode')} l, r.${reactions.v('reactionResult')} o, COUNT(DISTINCT t._id) n FROM c_cases t, "${reactions.table}" r WHERE r._id = t._id AND ${baseT} GROUP BY p, l, o`,
  ),
);

// The full signal table. Each call takes long, so the median of a few, not a p95.
const signalsName = 'analytics-signals-table';
if (wanted(signalsName)) {
  const drugCase = `SELECT DISTINCT t._id id, e.${drugs.v('drugName')} drug FROM c_cases t, "${drugs.table}" e WHERE e._id = t._id AND ${baseT} AND e.${drugs.v('drugCharacterisation')} IN ('1','3') AND e.${drugs.v('drugName')} IS NOT NULL`;
  const ptCase = `SELECT DISTINCT t._id id, e.${reactions.v('meddraPtCode')} pt FROM c_cases t, "${reactions.table}" e WHERE e._id = t._id AND ${baseT} AND e.${reactions.v('meddraPtCode')} IS NOT NULL`;
  // Only cases with both a suspect drug and a PT count, in N and in the margins, as in the route.
  const floor = db.prepare<[string, string], Pair>(
    `WITH dc AS (${drugCase}), pc AS (${ptCase}),
      k AS (SELECT id FROM dc INTERSECT SELECT id FROM pc),
      dk AS (SELECT dc.id, dc.drug FROM dc JOIN k ON k.id = dc.id),
      pk AS (SELECT pc.id, pc.pt FROM pc JOIN k ON k.id = pc.id),
      pairs AS (SELECT dk.drug, pk.pt, COUNT(*) a FROM dk JOIN pk ON pk.id = dk.id GROUP BY dk.drug, pk.pt),
      dn AS (SELECT drug, COUNT(*) n FROM dk GROUP BY drug),
      pn AS (SELECT pt, COUNT(*) n FROM pk GROUP BY pt),
      total AS (SELECT COUNT(*) n FROM k)
    SELECT p.drug drug, p.pt event, p.a a, dn.n - p.a b, pn.n - p.a c, total.n - dn.n - pn.n + p.a d
    FROM pairs p JOIN dn ON dn.drug = p.drug JOIN pn ON pn.pt = p.pt, total`,
  );
  const table = async () => {
    const answer = await entry.call('POST', '/analytics/signals', { by: 'pt' });
    if (answer.status !== 200)
      throw new Error(`/analytics/signals: ${JSON.stringify(answer.body).slice(0, 300)}`);
    return answer.body.data as { blinded: boolean; rows: Pair[] };
  };
  // Honesty: the route's table has exactly the floor's pairs with the same a, b, c, d.
  const answer = await table();
  const expected = floor.all('t1', 't1');
  const key = (p: Pair) => `${p.drug}\u0000${p.event}`;
  const counted = new Map(expected.map((p) => [key(p), p]));
  const differing = answer.rows.filter((row) => {
    const p = counted.get(key(row));
    return !p || p.a !== row.a || p.b !== row.b || p.c !== row.c || p.d !== row.d;
  });
  if (answer.blinded || answer.rows.length !== expected.length || differing.length > 0)
    throw new Error(
      `signal table differs from the hand-written SQL: blinded ${answer.blinded}, ${answer.rows.length} rows vs ${expected.length} pairs, first differing ${JSON.stringify(differing[0])}`,
    );
  console.log(`signal table: ${answer.rows.length} drug x PT pairs, all a/b/c/d equal to the floor's`);
  const subject: number[] = [];
  const floors: number[] = [];
  for (let i = 0; i < SIGNAL_RUNS; i++) {
    floors.push(await time(() => floor.all('t1', 't1')));
    subject.push(await time(table));
  }
  const figure = percentile(subject, 0.5);
  const floorFigure = percentile(floors, 0.5);
  const line = benchLine({
    name: signalsName,
    figure,
    unit: 'ms',
    floor: floorFigure,
    ratio: figure / floorFigure,
    target: `<=${SIGNAL_TARGET_MS}ms`,
    met: figure <= SIGNAL_TARGET_MS,
  });
  console.log(line);
  lines.push(line);
}
db.close();
await rig.close();
console.log(`\n${lines.filter((line) => line !== undefined).join('\n')}`);
