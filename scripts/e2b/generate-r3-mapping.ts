/**
 * Derives schemas/e2b/mapping/r3.json (the E2B(R3) element -> XPath table the engine's mapper walks)
 * from FDA's "Core and Regional Data Elements" table, whose XPath column names every element, then
 * applies the reviewed corrections of schemas/e2b/mapping/r3-overrides.json.
 *
 *   node --import tsx scripts/e2b/generate-r3-mapping.ts [--check]
 *
 * --check exits 1 when the committed r3.json differs from what this script produces.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format } from 'prettier';
import { parseCsv } from './csv';

const root = fileURLToPath(new URL('../../', import.meta.url));
const csvPath = `${root}schemas/e2b/elements/fda-core-regional-data-elements-v1.csv`;
const overridesPath = `${root}schemas/e2b/mapping/r3-overrides.json`;
const outPath = `${root}schemas/e2b/mapping/r3.json`;

interface ElementEntry {
  id: string;
  group: string;
  path: string;
  carrier: string;
  prefix?: string;
  dataType: string;
  codeSystem?: string;
  source: string;
  context?: string;
  default?: string;
}
interface GroupEntry {
  id: string;
  parent: string;
  path: string;
}
interface Overrides {
  comment?: string;
  groups: Record<string, Partial<GroupEntry> & { path: string; parent: string }>;
  elements: Record<string, Partial<ElementEntry> | null>;
  fixed: unknown[];
  profiles: unknown;
}

/** Removes whitespace outside quotes and repairs the table's recurring typos. */
function normalise(xpath: string): string {
  let out = '';
  let quote = '';
  for (const c of xpath) {
    if (quote) {
      out += c;
      if (c === quote) quote = '';
    } else if (c === "'" || c === '"') {
      quote = c;
      out += c;
    } else if (!/\s/.test(c)) out += c;
  }
  return (
    out
      .replace(/([A-Za-z0-9\]])@/g, '$1/@')
      .replace(/'UUID of k-th drug'/g, "'{G.k}'")
      .replace(/'UUID of i-th reaction'/g, "'{G.k.9.i}'")
      // Placeholder OIDs, and route/dose-form code systems that EDQM terms may replace, are not
      // conditions on the node: the code system travels as the value's own attribute.
      .replace(/\[@codeSystem='TBD-[^']*'\]/g, '')
      // The parent is the role with code PRN: a condition on reading, written with the role.
      .replace(
        /role\[@classCode='PRS'\]\[1\]/g,
        "role[@classCode='PRS'][code[@code='PRN'][@codeSystem='2.16.840.1.113883.5.111']]",
      )
      .replace(
        /(routeCode|value\[@xsi:type='CE'\])\[@codeSystem='2\.16\.840\.1\.113883\.3\.989\.2\.1\.1\.14'\]/g,
        '$1',
      )
  );
}

/** Splits a path on the slashes outside brackets. */
export function splitSteps(path: string): string[] {
  const steps: string[] = [];
  let depth = 0;
  let quote = '';
  let current = '';
  for (const c of path) {
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === "'") quote = c;
    else if (c === '[' || c === '(') depth++;
    else if (c === ']' || c === ')') depth--;
    if (c === '/' && depth === 0 && !quote) {
      steps.push(current);
      current = '';
    } else current += c;
  }
  steps.push(current);
  return steps;
}

const repeatMarker = /\[(r|k|i|j)\]/;
const messagePrefix = /^\/MCCI_IN200100UV01\/PORR_IN049016UV\[r\]\//;
const batchPrefix = /^\/MCCI_IN200100UV01\//;

function dataTypeCode(label: string): string {
  const m = /\(([A-Z_<>]+)\)/.exec(label);
  return m ? (m[1] as string).replace('IVL<TS>', 'IVL_TS') : label.trim();
}

async function main(): Promise<void> {
  const rows = parseCsv(readFileSync(csvPath, 'utf8'));
  const overrides = JSON.parse(readFileSync(overridesPath, 'utf8')) as Overrides;
  const groups = new Map<string, GroupEntry>();
  const elements: ElementEntry[] = [];
  const problems: string[] = [];
  for (const row of rows.slice(2)) {
    const source = (row[0] ?? '').trim();
    const id = (row[2] ?? '').trim();
    let xpath = normalise(row[32] ?? '');
    if (!id || id.startsWith('(') || !xpath) continue;
    if (xpath.startsWith('PORR_IN049016UV[r]/')) xpath = `/MCCI_IN200100UV01/${xpath}`;
    let prefix: string | undefined;
    const sub = /^substring\((.*),(\d+)\)$/.exec(xpath);
    if (sub) {
      xpath = sub[1] as string;
      const starts = /starts-with\(@value,'([^']*)'\)/.exec(xpath);
      prefix = starts?.[1];
    }
    let group: string;
    let groupBase: string;
    if (messagePrefix.test(xpath)) {
      xpath = xpath.replace(messagePrefix, '');
      group = 'report';
      groupBase = 'report';
    } else if (batchPrefix.test(xpath)) {
      xpath = xpath.replace(batchPrefix, '');
      group = 'batch';
      groupBase = 'batch';
    } else {
      problems.push(`${id}: path outside the batch: ${xpath.slice(0, 80)}`);
      continue;
    }
    const steps = splitSteps(xpath);
    const idParts = id.split('.');
    const repeatParts = idParts
      .map((p, i) => (['r', 'k', 'i', 'j'].includes(p) ? i : -1))
      .filter((i) => i >= 0);
    let from = 0;
    let marker = 0;
    for (let s = 0; s < steps.length; s++) {
      if (!repeatMarker.test(steps[s] as string)) continue;
      const partIndex = repeatParts[marker];
      if (partIndex === undefined) {
        problems.push(`${id}: more repeat markers in the path than in the element id`);
        break;
      }
      let groupId = idParts.slice(0, partIndex + 1).join('.');
      // A regional element inside an ICH repeat (FDA.C.2.r.2.8) belongs to the ICH group (C.2.r).
      const ichGroup = groupId.replace(/^[A-Z]+\./, '');
      if (ichGroup !== groupId && groups.has(ichGroup)) groupId = ichGroup;
      const groupPath = [...steps.slice(from, s), (steps[s] as string).replace(repeatMarker, '')].join('/');
      const known = groups.get(groupId);
      if (!known) groups.set(groupId, { id: groupId, parent: groupBase, path: groupPath });
      else if (known.path !== groupPath && !overrides.groups[groupId])
        problems.push(`${id}: group ${groupId} path differs from an earlier element's`);
      groupBase = groupId;
      group = groupId;
      from = s + 1;
      marker++;
    }
    const rest = steps.slice(from);
    const last = rest.pop() ?? '';
    const carrier = last === 'text()' ? 'text' : last.startsWith('@') ? last : '';
    if (!carrier) problems.push(`${id}: no value carrier at the end of its path`);
    const oid = (row[29] ?? '').trim();
    const entry: ElementEntry = {
      id,
      group,
      path: rest.join('/'),
      carrier,
      dataType: dataTypeCode(row[30] ?? ''),
      source,
    };
    if (prefix) entry.prefix = prefix;
    if (oid && oid !== '-')
      entry.codeSystem = oid
        .split(/[\s,]+/)
        .filter(Boolean)
        .join(' ');
    elements.push(entry);
  }
  for (const [id, group] of Object.entries(overrides.groups)) groups.set(id, { id, ...group } as GroupEntry);
  const byId = new Map(elements.map((e) => [e.id, e]));
  for (const [id, patch] of Object.entries(overrides.elements)) {
    if (patch === null) {
      byId.delete(id);
      continue;
    }
    const base = byId.get(id);
    byId.set(id, { ...(base ?? { id, source: 'override' }), ...patch, id } as ElementEntry);
  }
  const out = {
    comment:
      'Generated by scripts/e2b/generate-r3-mapping.ts from elements/fda-core-regional-data-elements-v1.csv and r3-overrides.json. Do not edit: change the overrides and regenerate.',
    groups: [...groups.values()],
    elements: [...byId.values()],
    fixed: overrides.fixed,
    profiles: overrides.profiles,
  };
  const text = await format(JSON.stringify(out), { parser: 'json', filepath: outPath });
  if (process.argv.includes('--check')) {
    const current = readFileSync(outPath, 'utf8');
    if (current !== text) {
      console.error('schemas/e2b/mapping/r3.json is stale: run scripts/e2b/generate-r3-mapping.ts');
      process.exit(1);
    }
    return;
  }
  writeFileSync(outPath, text);
  for (const p of problems) console.error(p);
  console.log(`${out.groups.length} groups, ${out.elements.length} elements, ${problems.length} problems`);
}

await main();
