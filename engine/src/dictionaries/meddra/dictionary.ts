/**
 * One loaded MedDRA release: search by text or code over the five levels, the hierarchy for the
 * browser, the coded value of a selection (always resolved down to LLT and up to SOC), and coding
 * suggestions for verbatim terms. Built once per release and kept in memory; every call is pure.
 */
import { MatchRank, NgramIndex, RankedHits } from '../ngram';
import type { TermLanguage } from '../text';
import { characterCount, matchKey, queryMatchesLanguage, queryScript, searchKey } from '../text';
import type { MeddraCoding, MeddraLevel, MeddraPath, MeddraRelease, MeddraSoc } from './types';

const LEVEL_ORDER: Record<MeddraLevel, number> = { llt: 0, pt: 1, hlt: 2, hlgt: 3, soc: 4 };
const LEVEL_BY_ORDER: MeddraLevel[] = ['llt', 'pt', 'hlt', 'hlgt', 'soc'];

export const MEDDRA_QUERY_MIN_CHARS = 2;
export const MEDDRA_SEARCH_MAX_LIMIT = 200;

export interface MeddraSearchOptions {
  /** At least one level. */
  levels: MeddraLevel[];
  /** Include current LLTs (default true) and non-current LLTs (default false) when LLT is searched. */
  currentLlts?: boolean;
  nonCurrentLlts?: boolean;
  offset?: number;
  /** Default 50, at most 200. */
  limit?: number;
}

export interface MeddraRef {
  code: string;
  name: string;
}

export interface MeddraHit {
  level: MeddraLevel;
  code: string;
  name: string;
  /** LLTs only. */
  current?: boolean;
  /** LLTs: their PT. */
  pt?: MeddraRef;
  /** LLTs and PTs: the primary SOC. */
  primarySoc?: MeddraRef & { abbrev: string };
}

export interface MeddraSearchResult {
  total: number;
  items: MeddraHit[];
}

export interface MeddraNode {
  level: MeddraLevel;
  code: string;
  name: string;
  /** Number of terms one level down (0 for LLTs). */
  childCount: number;
  current?: boolean;
}

export interface MeddraPathView {
  hlt: MeddraRef;
  hlgt: MeddraRef;
  soc: MeddraRef & { abbrev: string };
  primary: boolean;
}

export interface MeddraTermDetail extends MeddraHit {
  /** LLTs and PTs: every path to SOC, primary first. */
  paths: MeddraPathView[];
  /** HLTs, HLGTs: the terms one level up. */
  parents: MeddraNode[];
}

export interface MeddraSelection {
  /** An LLT code, or a PT code (coded as the LLT of the same code, as MedDRA defines every PT). */
  code: string;
  level?: 'llt' | 'pt';
  /** A secondary SOC the coder chose; the primary path when absent. */
  socCode?: string;
}

export interface MeddraSuggestion {
  match: 'exact' | 'normalised';
  coding: MeddraCoding;
}

/** Why a search was refused: a message key of the `dictionaries` namespace, or null when it may run. */
export function checkMeddraQuery(
  query: string,
  language: TermLanguage,
  options: Pick<MeddraSearchOptions, 'levels' | 'currentLlts' | 'nonCurrentLlts'>,
): { messageKey: string; params?: Record<string, string | number> } | null {
  if (characterCount(query) < MEDDRA_QUERY_MIN_CHARS) {
    return { messageKey: 'queryTooShort', params: { min: MEDDRA_QUERY_MIN_CHARS } };
  }
  if (!queryMatchesLanguage(query, language)) return { messageKey: 'queryLanguageMismatch' };
  const lltOnly = options.levels.length === 1 && options.levels[0] === 'llt';
  const noCurrency = (options.currentLlts ?? true) === false && (options.nonCurrentLlts ?? false) === false;
  if (options.levels.length === 0 || (lltOnly && noCurrency)) return { messageKey: 'queryOptionRequired' };
  return null;
}

export class MeddraDictionary {
  readonly version: string;
  readonly language: TermLanguage;
  readonly counts: Record<MeddraLevel, number>;

  /** Terms of all levels in display order (shorter name first, then by name, level, code). */
  private readonly level: Uint8Array;
  private readonly code: string[];
  private readonly name: string[];
  private readonly current: Uint8Array;
  private readonly names: NgramIndex;
  /** `${level}:${code}` -> term id. */
  private readonly idOf = new Map<string, number>();
  /** Term ids sorted by code, for code-prefix search. */
  private readonly byCode: Int32Array;

  private readonly socs = new Map<string, MeddraSoc>();
  private readonly ptOfLlt = new Map<string, string>();
  private readonly primarySocOfPt = new Map<string, string>();
  private readonly pathsOfPt = new Map<string, MeddraPath[]>();
  private readonly childrenOf = new Map<string, string[]>();
  private readonly parentsOf = new Map<string, string[]>();
  private suggestionKeys: { exact: Map<string, number[]>; normalised: Map<string, number[]> } | null = null;

  constructor(release: MeddraRelease) {
    this.version = release.version;
    this.language = release.language;
    this.counts = {
      llt: release.llts.length,
      pt: release.pts.length,
      hlt: release.hlts.length,
      hlgt: release.hlgts.length,
      soc: release.socs.length,
    };

    const all: Array<{ level: MeddraLevel; code: string; name: string; key: string; current: boolean }> = [];
    const add = (level: MeddraLevel, code: string, name: string, current = true) =>
      all.push({ level, code, name, key: searchKey(name), current });
    for (const t of release.llts) add('llt', t.code, t.name, t.current);
    for (const t of release.pts) add('pt', t.code, t.name);
    for (const t of release.hlts) add('hlt', t.code, t.name);
    for (const t of release.hlgts) add('hlgt', t.code, t.name);
    for (const t of release.socs) add('soc', t.code, t.name);
    all.sort(
      (a, b) =>
        a.key.length - b.key.length ||
        (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) ||
        LEVEL_ORDER[a.level] - LEVEL_ORDER[b.level] ||
        (a.code < b.code ? -1 : a.code > b.code ? 1 : 0),
    );

    this.level = new Uint8Array(all.length);
    this.current = new Uint8Array(all.length);
    this.code = new Array<string>(all.length);
    this.name = new Array<string>(all.length);
    all.forEach((t, id) => {
      this.level[id] = LEVEL_ORDER[t.level];
      this.current[id] = t.current ? 1 : 0;
      this.code[id] = t.code;
      this.name[id] = t.name;
      this.idOf.set(`${t.level}:${t.code}`, id);
    });
    this.names = new NgramIndex(this.name);
    this.byCode = Int32Array.from(all.keys()).sort((a, b) => {
      const x = this.code[a]!;
      const y = this.code[b]!;
      return x < y ? -1 : x > y ? 1 : this.level[a]! - this.level[b]!;
    });

    for (const soc of release.socs) this.socs.set(soc.code, soc);
    for (const llt of release.llts) this.ptOfLlt.set(llt.code, llt.ptCode);
    for (const pt of release.pts) this.primarySocOfPt.set(pt.code, pt.primarySocCode);
    for (const path of release.paths) {
      const list = this.pathsOfPt.get(path.ptCode);
      if (list) list.push(path);
      else this.pathsOfPt.set(path.ptCode, [path]);
    }
    for (const list of this.pathsOfPt.values()) list.sort((a, b) => Number(b.primary) - Number(a.primary));
    const link = (parentLevel: MeddraLevel, childLevel: MeddraLevel, pairs: Iterable<[string, string]>) => {
      for (const [parent, child] of pairs) {
        push(this.childrenOf, `${parentLevel}:${parent}`, child);
        push(this.parentsOf, `${childLevel}:${child}`, parent);
      }
    };
    link('soc', 'hlgt', release.socHlgt);
    link('hlgt', 'hlt', release.hlgtHlt);
    link('hlt', 'pt', release.hltPt);
    link(
      'pt',
      'llt',
      release.llts.map((l): [string, string] => [l.ptCode, l.code]),
    );
  }

  /** Text or code search. The caller checks the query first with checkMeddraQuery. */
  search(query: string, options: MeddraSearchOptions): MeddraSearchResult {
    const offset = Math.max(0, options.offset ?? 0);
    const limit = Math.min(Math.max(1, options.limit ?? 50), MEDDRA_SEARCH_MAX_LIMIT);
    const mask = options.levels.reduce((m, level) => m | (1 << LEVEL_ORDER[level]), 0);
    const currentLlts = options.currentLlts ?? true;
    const nonCurrentLlts = options.nonCurrentLlts ?? false;
    const accept = (id: number) => {
      const level = this.level[id]!;
      if ((mask & (1 << level)) === 0) return false;
      if (level === 0) return this.current[id] ? currentLlts : nonCurrentLlts;
      return true;
    };

    const key = searchKey(query);
    const hits = new RankedHits(offset + limit);
    const byCode = new Set<number>();
    if (queryScript(key) === 'code') {
      for (const id of this.codePrefix(key)) {
        if (!accept(id)) continue;
        byCode.add(id);
        hits.add(id, this.code[id] === key ? MatchRank.exactCode : MatchRank.prefix);
      }
    }
    this.names.collect(key, (id) => accept(id) && !byCode.has(id), hits);
    return { total: hits.total, items: hits.page(offset, limit).map((id) => this.hit(id)) };
  }

  /** A term by level and code, with its paths (LLT, PT) or parents (HLT, HLGT); null when unknown. */
  term(level: MeddraLevel, code: string): MeddraTermDetail | null {
    const id = this.idOf.get(`${level}:${code}`);
    if (id === undefined) return null;
    const ptCode = level === 'llt' ? this.ptOfLlt.get(code)! : level === 'pt' ? code : null;
    const paths = ptCode ? (this.pathsOfPt.get(ptCode) ?? []).map((p) => this.pathView(p)) : [];
    const parentLevel = LEVEL_BY_ORDER[LEVEL_ORDER[level] + 1];
    const parents =
      parentLevel && level !== 'llt' && level !== 'pt'
        ? (this.parentsOf.get(`${level}:${code}`) ?? []).map((c) => this.node(parentLevel, c))
        : [];
    return { ...this.hit(id), paths, parents };
  }

  /** The hierarchy browser: the SOCs (no parent), or the terms one level below a term. */
  children(parent?: { level: MeddraLevel; code: string }): MeddraNode[] {
    if (!parent) {
      return [...this.socs.values()].map((s) => this.node('soc', s.code)).sort(byName);
    }
    const childLevel = LEVEL_BY_ORDER[LEVEL_ORDER[parent.level] - 1];
    if (!childLevel) return [];
    return (this.childrenOf.get(`${parent.level}:${parent.code}`) ?? [])
      .map((code) => this.node(childLevel, code))
      .sort(byName);
  }

  /**
   * The coded value of a selection: the LLT with its PT and the path to SOC (the primary one, or
   * the chosen SOC when it lies on one of the PT's paths). Refused with a message key otherwise.
   */
  resolve(
    selection: MeddraSelection,
  ): { coding: MeddraCoding } | { messageKey: string; params: Record<string, string> } {
    const lltCode = selection.code;
    if (!this.idOf.has(`llt:${lltCode}`)) {
      const key = selection.level === 'pt' ? 'ptWithoutLlt' : 'lltNotInVersion';
      return { messageKey: key, params: { code: lltCode, version: this.version } };
    }
    const ptCode = this.ptOfLlt.get(lltCode)!;
    const paths = this.pathsOfPt.get(ptCode) ?? [];
    const path = selection.socCode ? paths.find((p) => p.socCode === selection.socCode) : paths[0];
    if (!path || (!selection.socCode && !path.primary)) {
      return {
        messageKey: 'selectionNotReachingSoc',
        params: { code: lltCode, soc: selection.socCode ?? '' },
      };
    }
    return { coding: this.coding(lltCode, path) };
  }

  /** The LLT of a code, or null; for checks of coded values (version mismatch, recoding). */
  llt(code: string): { code: string; name: string; current: boolean; ptCode: string } | null {
    const id = this.idOf.get(`llt:${code}`);
    if (id === undefined) return null;
    return { code, name: this.name[id]!, current: this.current[id] === 1, ptCode: this.ptOfLlt.get(code)! };
  }

  /** Paths of a PT, primary first. */
  paths(ptCode: string): readonly MeddraPath[] {
    return this.pathsOfPt.get(ptCode) ?? [];
  }

  /** Coding of an LLT on a path (the primary one when socCode is absent or not on the PT's paths). */
  codingOf(lltCode: string, socCode?: string): MeddraCoding | null {
    const ptCode = this.ptOfLlt.get(lltCode);
    if (ptCode === undefined) return null;
    const paths = this.pathsOfPt.get(ptCode) ?? [];
    const path = paths.find((p) => p.socCode === socCode) ?? paths[0];
    return path ? this.coding(lltCode, path) : null;
  }

  /**
   * Coding suggestions for a verbatim term: LLTs whose name equals it (ignoring case, width and
   * spacing), then LLTs equal after punctuation and spaces are removed. Current LLTs first.
   */
  suggest(verbatim: string, limit = 5): MeddraSuggestion[] {
    const keys = this.suggestionIndex();
    const out: MeddraSuggestion[] = [];
    const seen = new Set<number>();
    const take = (ids: number[] | undefined, match: MeddraSuggestion['match']) => {
      const sorted = [...(ids ?? [])].sort((a, b) => this.current[b]! - this.current[a]!);
      for (const id of sorted) {
        if (seen.has(id) || out.length >= limit) continue;
        seen.add(id);
        const coding = this.codingOf(this.code[id]!);
        if (coding) out.push({ match, coding });
      }
    };
    take(keys.exact.get(searchKey(verbatim)), 'exact');
    take(keys.normalised.get(matchKey(verbatim)), 'normalised');
    return out;
  }

  private suggestionIndex() {
    if (this.suggestionKeys) return this.suggestionKeys;
    const exact = new Map<string, number[]>();
    const normalised = new Map<string, number[]>();
    for (let id = 0; id < this.level.length; id++) {
      if (this.level[id] !== 0) continue;
      push(exact, this.names.keys[id]!, id);
      push(normalised, matchKey(this.name[id]!), id);
    }
    return (this.suggestionKeys = { exact, normalised });
  }

  private *codePrefix(prefix: string): Generator<number> {
    let lo = 0;
    let hi = this.byCode.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.code[this.byCode[mid]!]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < this.byCode.length; i++) {
      const id = this.byCode[i]!;
      if (!this.code[id]!.startsWith(prefix)) return;
      yield id;
    }
  }

  private hit(id: number): MeddraHit {
    const level = LEVEL_BY_ORDER[this.level[id]!]!;
    const code = this.code[id]!;
    const hit: MeddraHit = { level, code, name: this.name[id]! };
    let ptCode: string | undefined;
    if (level === 'llt') {
      hit.current = this.current[id] === 1;
      ptCode = this.ptOfLlt.get(code)!;
      hit.pt = this.ref('pt', ptCode);
    } else if (level === 'pt') ptCode = code;
    if (ptCode) {
      const soc = this.socs.get(this.primarySocOfPt.get(ptCode)!)!;
      hit.primarySoc = { code: soc.code, name: soc.name, abbrev: soc.abbrev };
    }
    return hit;
  }

  private ref(level: MeddraLevel, code: string): MeddraRef {
    return { code, name: this.name[this.idOf.get(`${level}:${code}`)!]! };
  }

  private node(level: MeddraLevel, code: string): MeddraNode {
    const id = this.idOf.get(`${level}:${code}`)!;
    const node: MeddraNode = {
      level,
      code,
      name: this.name[id]!,
      childCount: level === 'llt' ? 0 : (this.childrenOf.get(`${level}:${code}`)?.length ?? 0),
    };
    if (level === 'llt') node.current = this.current[id] === 1;
    return node;
  }

  private pathView(path: MeddraPath): MeddraPathView {
    const soc = this.socs.get(path.socCode)!;
    return {
      hlt: this.ref('hlt', path.hltCode),
      hlgt: this.ref('hlgt', path.hlgtCode),
      soc: { code: soc.code, name: soc.name, abbrev: soc.abbrev },
      primary: path.primary,
    };
  }

  private coding(lltCode: string, path: MeddraPath): MeddraCoding {
    const id = this.idOf.get(`llt:${lltCode}`)!;
    const view = this.pathView(path);
    return {
      version: this.version,
      language: this.language,
      llt: { code: lltCode, name: this.name[id]!, current: this.current[id] === 1 },
      pt: this.ref('pt', path.ptCode),
      hlt: view.hlt,
      hlgt: view.hlgt,
      soc: view.soc,
      primary: path.primary,
    };
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function byName(a: MeddraNode, b: MeddraNode): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
