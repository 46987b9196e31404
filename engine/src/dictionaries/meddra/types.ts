/** A MedDRA release as the importer reads it from the distribution's ASCII files. */
import type { TermLanguage } from '../text';

export type MeddraLevel = 'soc' | 'hlgt' | 'hlt' | 'pt' | 'llt';
export const MEDDRA_LEVELS: readonly MeddraLevel[] = ['llt', 'pt', 'hlt', 'hlgt', 'soc'];

export interface MeddraSoc {
  code: string;
  name: string;
  abbrev: string;
}

export interface MeddraGroupTerm {
  code: string;
  name: string;
}

export interface MeddraPt {
  code: string;
  name: string;
  /** pt_soc_code of pt.asc: the primary SOC. */
  primarySocCode: string;
}

export interface MeddraLlt {
  code: string;
  name: string;
  ptCode: string;
  /** llt_currency Y: current; N: non-current (kept for coding history, not for new coding). */
  current: boolean;
}

/** One PT-HLT-HLGT-SOC path of the multi-axial hierarchy (a row of mdhier.asc). */
export interface MeddraPath {
  ptCode: string;
  hltCode: string;
  hlgtCode: string;
  socCode: string;
  primary: boolean;
}

export interface MeddraRelease {
  /** meddra_release.asc, first field (e.g. "27.0"). */
  version: string;
  language: TermLanguage;
  /** meddra_release.asc, second field as distributed (e.g. "English", "Chinese"). */
  languageName: string;
  socs: MeddraSoc[];
  hlgts: MeddraGroupTerm[];
  hlts: MeddraGroupTerm[];
  pts: MeddraPt[];
  llts: MeddraLlt[];
  /** hlt_pt.asc, hlgt_hlt.asc, soc_hlgt.asc as [parent, child] code pairs. */
  hltPt: [string, string][];
  hlgtHlt: [string, string][];
  socHlgt: [string, string][];
  /** Every PT's paths to SOC: from mdhier.asc, or composed from the link files when it is absent. */
  paths: MeddraPath[];
}

/** A term as the case stores a coded MedDRA value: the LLT with its PT and primary (or chosen) path. */
export interface MeddraCoding {
  version: string;
  language: TermLanguage;
  llt: { code: string; name: string; current: boolean };
  pt: { code: string; name: string };
  hlt: { code: string; name: string };
  hlgt: { code: string; name: string };
  soc: { code: string; name: string; abbrev: string };
  primary: boolean;
}
