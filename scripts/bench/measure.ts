/** Measuring helpers shared by the benchmarks, and the one BENCH line format they all print. */

export interface BenchFigure {
  name: string;
  figure: number;
  unit: string;
  floor: number;
  /** Defaults to `unit`. */
  floorUnit?: string;
  /** Computed by the caller: figure/floor for times, floor/figure for rates. */
  ratio: number;
  target: string;
  met: boolean;
  /** Decimals of figure and floor (default 1). */
  digits?: number;
}

/** `BENCH <name> <figure> <unit> floor <figure> <unit> ratio <r> target <target> met|missed` */
export function benchLine(f: BenchFigure): string {
  const digits = f.digits ?? 1;
  return `BENCH ${f.name} ${f.figure.toFixed(digits)} ${f.unit} floor ${f.floor.toFixed(digits)} ${f.floorUnit ?? f.unit} ratio ${f.ratio.toFixed(2)} target ${f.target} ${f.met ? 'met' : 'missed'}`;
}

/** Mean milliseconds per call after a warm-up, running at least `minRuns` calls and `minMs`. */
export function timePerCall(fn: () => void, minMs: number, minRuns: number, warmup: number): number {
  for (let i = 0; i < warmup; i++) fn();
  let runs = 0;
  const started = performance.now();
  let elapsed = 0;
  while (runs < minRuns || elapsed < minMs) {
    fn();
    runs++;
    elapsed = performance.now() - started;
  }
  return elapsed / runs;
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Median milliseconds per call of a subject and its floor over several rounds, alternating them so
 * that machine load hits both alike.
 */
export function compareAlternating(
  subject: () => void,
  floor: () => void,
  options: { rounds: number; minMs: number; minRuns: number; warmup: number },
): { subject: number; floor: number } {
  const subjects: number[] = [];
  const floors: number[] = [];
  for (let i = 0; i < options.rounds; i++) {
    floors.push(timePerCall(floor, options.minMs, options.minRuns, options.warmup));
    subjects.push(timePerCall(subject, options.minMs, options.minRuns, options.warmup));
  }
  return { subject: median(subjects), floor: median(floors) };
}

/** The p-th percentile (0..1) of samples, nearest rank. */
export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * p) - 1))]!;
}
