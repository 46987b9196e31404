/**
 * One loaded WHODrug release: the drug list with advanced search (name, drug code, ATC, company,
 * country, generic names only) and the detail of a drug (generic name, trade names, ATC chain,
 * company). Built once per release and kept in memory.
 */
import { MatchRank, NgramIndex, RankedHits } from '../ngram';
import type { TermLanguage } from '../text';
import { characterCount, searchKey } from '../text';
import type { WhodrugAtc, WhodrugCompany, WhodrugDrug, WhodrugRelease } from './types';

export const WHODRUG_QUERY_MIN_CHARS = 2;

export interface WhodrugSearchOptions {
  /** Drug name (two characters or more) or the start of a drug code. */
  query?: string;
  /** ATC code or its start (e.g. "N02" finds N02BE01). */
  atcCode?: string;
  /** Text within the company name. */
  company?: string;
  countryCode?: string;
  /** Only generic names (sequence 2 = 001); trade names otherwise included. */
  genericOnly?: boolean;
  /** Only preferred base names (sequence 1 = 01, sequence 2 = 001). */
  preferredOnly?: boolean;
  offset?: number;
  limit?: number;
}

export interface WhodrugHit {
  drugCode: string;
  name: string;
  /** The generic name of the drug code (its sequence 2 = 001 record). */
  genericName: string;
  kind: 'preferred' | 'generic' | 'trade';
  atcCodes: string[];
  company: WhodrugCompany | null;
}

export interface WhodrugDetail extends WhodrugHit {
  drugRecordNumber: string;
  sequence1: string;
  sequence2: string;
  checkDigit: string;
  designation: string;
  numberOfIngredients: number;
  yearQuarter: string;
  preferredName: string;
  /** Each ATC code with its chain of texts from level 1 down. */
  atc: Array<{ code: string; official: boolean; chain: WhodrugAtc[] }>;
  /** Other names of the same record number: the generic names and the trade names. */
  tradeNames: Array<{ drugCode: string; name: string }>;
  countryName: string | null;
}

export class WhodrugDictionary {
  readonly version: string;
  readonly language: TermLanguage;
  readonly counts: { drugs: number; atc: number; companies: number };

  private readonly drugs: WhodrugDrug[];
  private readonly names: NgramIndex;
  private readonly byCode = new Map<string, number>();
  private readonly atc = new Map<string, WhodrugAtc>();
  private readonly companies = new Map<string, WhodrugCompany>();
  private readonly countries = new Map<string, string>();
  private readonly byRecord = new Map<string, number[]>();

  constructor(release: WhodrugRelease) {
    this.version = release.version;
    this.language = release.language;
    this.drugs = [...release.drugs].sort((a, b) => {
      const x = searchKey(a.name);
      const y = searchKey(b.name);
      return x.length - y.length || (x < y ? -1 : x > y ? 1 : a.drugCode < b.drugCode ? -1 : 1);
    });
    this.names = new NgramIndex(this.drugs.map((d) => d.name));
    this.drugs.forEach((drug, id) => {
      this.byCode.set(drug.drugCode, id);
      const list = this.byRecord.get(drug.drugRecordNumber);
      if (list) list.push(id);
      else this.byRecord.set(drug.drugRecordNumber, [id]);
    });
    for (const a of release.atc) this.atc.set(a.code, a);
    for (const c of release.companies) this.companies.set(c.code, c);
    for (const c of release.countries) this.countries.set(c.code, c.name);
    this.counts = { drugs: this.drugs.length, atc: this.atc.size, companies: this.companies.size };
  }

  search(options: WhodrugSearchOptions): { total: number; items: WhodrugHit[] } {
    const offset = Math.max(0, options.offset ?? 0);
    const limit = Math.min(Math.max(1, options.limit ?? 50), 200);
    const atcPrefix = options.atcCode?.trim().toUpperCase();
    const company = options.company ? searchKey(options.company) : '';
    const accept = (drug: WhodrugDrug) => {
      if (options.preferredOnly && !(drug.sequence1 === '01' && drug.sequence2 === '001')) return false;
      if (options.genericOnly && drug.sequence2 !== '001') return false;
      if (atcPrefix && !drug.atcCodes.some((c) => c.startsWith(atcPrefix))) return false;
      if (company || options.countryCode) {
        const holder = this.companies.get(drug.companyCode);
        if (!holder) return false;
        if (company && !searchKey(holder.name).includes(company)) return false;
        if (options.countryCode && holder.countryCode !== options.countryCode) return false;
      }
      return true;
    };

    const hits = new RankedHits(offset + limit);
    const query = options.query ? searchKey(options.query) : '';
    if (query && /^[0-9]+$/.test(query)) {
      for (let id = 0; id < this.drugs.length; id++) {
        const drug = this.drugs[id]!;
        if (drug.drugCode.startsWith(query) && accept(drug)) {
          hits.add(id, drug.drugCode === query ? MatchRank.exactCode : MatchRank.prefix);
        }
      }
    } else if (query) {
      this.names.collect(query, (id) => accept(this.drugs[id]!), hits);
    } else {
      for (let id = 0; id < this.drugs.length; id++) {
        if (accept(this.drugs[id]!)) hits.add(id, MatchRank.contains);
      }
    }
    return { total: hits.total, items: hits.page(offset, limit).map((id) => this.hit(this.drugs[id]!)) };
  }

  detail(drugCode: string): WhodrugDetail | null {
    const id = this.byCode.get(drugCode);
    if (id === undefined) return null;
    const drug = this.drugs[id]!;
    const preferred = this.drugs[this.byCode.get(`${drug.drugRecordNumber}01001`) ?? id]!;
    const company = this.companies.get(drug.companyCode) ?? null;
    return {
      ...this.hit(drug),
      drugRecordNumber: drug.drugRecordNumber,
      sequence1: drug.sequence1,
      sequence2: drug.sequence2,
      checkDigit: drug.checkDigit,
      designation: drug.designation,
      numberOfIngredients: drug.numberOfIngredients,
      yearQuarter: drug.yearQuarter,
      preferredName: preferred.name,
      atc: drug.atcCodes.map((code, i) => ({ code, official: i === 0, chain: this.atcChain(code) })),
      tradeNames: (this.byRecord.get(drug.drugRecordNumber) ?? [])
        .map((other) => this.drugs[other]!)
        .filter((other) => other.drugCode !== drug.drugCode)
        .sort((a, b) => (a.drugCode < b.drugCode ? -1 : 1))
        .map((other) => ({ drugCode: other.drugCode, name: other.name })),
      countryName: company ? (this.countries.get(company.countryCode) ?? null) : null,
    };
  }

  /** The ATC code's ancestors and itself (levels 1 to 5: 1, 3, 4, 5 and 7 characters). */
  atcChain(code: string): WhodrugAtc[] {
    return [1, 3, 4, 5, 7]
      .filter((length) => length <= code.length)
      .map((length) => this.atc.get(code.slice(0, length)))
      .filter((a): a is WhodrugAtc => a !== undefined);
  }

  private hit(drug: WhodrugDrug): WhodrugHit {
    const genericId = this.byCode.get(`${drug.drugRecordNumber}${drug.sequence1}001`);
    const generic = genericId === undefined ? drug : this.drugs[genericId]!;
    const kind = drug.sequence2 !== '001' ? 'trade' : drug.sequence1 === '01' ? 'preferred' : 'generic';
    return {
      drugCode: drug.drugCode,
      name: drug.name,
      genericName: generic.name,
      kind,
      atcCodes: drug.atcCodes,
      company: this.companies.get(drug.companyCode) ?? null,
    };
  }
}

/** Why a WHODrug search was refused (a `dictionaries` message key), or null. */
export function checkWhodrugQuery(
  options: WhodrugSearchOptions,
): { messageKey: string; params?: Record<string, number> } | null {
  const query = options.query?.trim() ?? '';
  if (query !== '' && characterCount(query) < WHODRUG_QUERY_MIN_CHARS) {
    return { messageKey: 'queryTooShort', params: { min: WHODRUG_QUERY_MIN_CHARS } };
  }
  if (!query && !options.atcCode?.trim() && !options.company?.trim() && !options.countryCode?.trim()) {
    return { messageKey: 'whodrugCriterionRequired' };
  }
  return null;
}
