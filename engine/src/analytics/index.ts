/** Pooled analysis: disproportionality measures and the per-case counting of drug-event pairs. */
export {
  DEFAULT_SIGNAL_THRESHOLDS,
  disproportionality,
  SIGNAL_FIGURES,
  signalFlags,
} from './disproportionality';
export type { Disproportionality, SignalFlags, SignalThresholds, TwoByTwo } from './disproportionality';
export { SUSPECT_DRUG_ROLES, SignalCounter, countSignalPairs, signalTable } from './signal-counts';
export type {
  PairCount,
  SignalCountOptions,
  SignalCounts,
  SignalEventLevel,
  SignalRow,
} from './signal-counts';
