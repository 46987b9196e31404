import { describe, expect, it } from 'vitest';
import { DEFAULT_SIGNAL_THRESHOLDS, disproportionality, signalFlags } from './disproportionality';

/** Regularised lower incomplete gamma P(s, x) by its series (enough for the checks below). */
function gammaCdf(shape: number, rate: number, x: number): number {
  const y = rate * x;
  if (y <= 0) return 0;
  let term = 1 / shape;
  let total = term;
  for (let n = 1; n < 10_000 && term > total * 1e-15; n++) {
    term *= y / (shape + n);
    total += term;
  }
  return total * Math.exp(-y + shape * Math.log(y) - logGamma(shape));
}

/** Lanczos approximation (g = 7, 9 terms). */
function logGamma(z: number): number {
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (z < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * z)) - logGamma(1 - z);
  const x = z - 1;
  let sum = c[0]!;
  for (let i = 1; i < 9; i++) sum += c[i]! / (x + i);
  const t = x + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(sum);
}

describe('disproportionality', () => {
  it('equals the hand computation on a full table', () => {
    // a=20 b=180 c=80 d=9720, N=10000.
    const f = disproportionality({ a: 20, b: 180, c: 80, d: 9720 });
    expect(f.corrected).toBe(false);
    // PRR = (20/200) / (80/9800) = 0.1 / 0.0081633 = 12.25
    expect(f.prr).toBeCloseTo(12.25, 10);
    // chi2 (Yates) = N (|ad - bc| - N/2)^2 / ((a+b)(c+d)(a+c)(b+d))
    //             = 10000 (|194400 - 14400| - 5000)^2 / (200 * 9800 * 100 * 9900) = 157.8283
    expect(f.chi2).toBeCloseTo(157.828283, 5);
    // ROR = ad/bc = 194400/14400 = 13.5; se = sqrt(1/20 + 1/180 + 1/80 + 1/9720) = 0.2610717
    expect(f.ror).toBeCloseTo(13.5, 10);
    expect(f.rorLower).toBeCloseTo(13.5 * Math.exp(-1.96 * 0.2610717), 4); // 8.0929
    expect(f.rorUpper).toBeCloseTo(13.5 * Math.exp(1.96 * 0.2610717), 4); // 22.5197
    expect(f.rorLower).toBeCloseTo(8.0929, 3);
    // E = (a+b)(a+c)/N = 200*100/10000 = 2; IC = log2(20.5/2.5) = log2(8.2) = 3.0356
    expect(f.ic).toBeCloseTo(3.035624, 5);
    // IC025 = 3.0356 - 3.3/sqrt(20.5) - 2/20.5^1.5 = 3.0356 - 0.72885 - 0.02155 = 2.2852
    expect(f.ic025).toBeCloseTo(2.285228, 5);
    expect(signalFlags(20, f)).toEqual({ prr: true, ror: true, ic: true });
  });

  it('a = 0: PRR and ROR take +0.5 in every cell; chi2 on raw counts; IC by its shrinkage', () => {
    const f = disproportionality({ a: 0, b: 50, c: 30, d: 920 });
    expect(f.corrected).toBe(true);
    expect(f.prr).toBeCloseTo(0.5 / 51 / (30.5 / 951), 10); // 0.3057
    expect(f.ror).toBeCloseTo((0.5 * 920.5) / (50.5 * 30.5), 10); // 0.2988
    const se = Math.sqrt(1 / 0.5 + 1 / 50.5 + 1 / 30.5 + 1 / 920.5);
    expect(f.rorUpper).toBeCloseTo(((0.5 * 920.5) / (50.5 * 30.5)) * Math.exp(1.96 * se), 10);
    // |0 - 1500| - 500 = 1000; 1000 * 1000^2 / (50 * 950 * 30 * 970)
    expect(f.chi2).toBeCloseTo(1e9 / (50 * 950 * 30 * 970), 10); // 0.7235
    // E = 50*30/1000 = 1.5; IC = log2(0.5/2) = -2
    expect(f.ic).toBeCloseTo(-2, 10);
    expect(f.ic025).toBeCloseTo(-2 - 3.3 / Math.sqrt(0.5) - 2 / 0.5 ** 1.5, 10);
    expect(signalFlags(0, f)).toEqual({ prr: false, ror: false, ic: false });
  });

  it('c = 0 (the event only with this drug): finite PRR and ROR through the correction', () => {
    const f = disproportionality({ a: 4, b: 6, c: 0, d: 990 });
    expect(f.corrected).toBe(true);
    expect(f.prr).toBeCloseTo(4.5 / 11 / (0.5 / 991), 8); // 810.8
    expect(f.ror).toBeCloseTo((4.5 * 990.5) / (6.5 * 0.5), 8); // 1371.5
    // |3960 - 0| - 500 = 3460; 1000 * 3460^2 / (10 * 990 * 4 * 996)
    expect(f.chi2).toBeCloseTo((1000 * 3460 ** 2) / (10 * 990 * 4 * 996), 8); // 303.6
    // E = 10*4/1000 = 0.04; IC = log2(4.5/0.54)
    expect(f.ic).toBeCloseTo(Math.log2(4.5 / 0.54), 10);
    expect(signalFlags(4, f)).toEqual({ prr: true, ror: true, ic: true });
  });

  it('a zero margin gives chi2 0; Yates never makes a negative difference positive', () => {
    // Every case has the drug: c + d = 0.
    const all = disproportionality({ a: 3, b: 2, c: 0, d: 0 });
    expect(all.chi2).toBe(0);
    expect(all.ic).toBeCloseTo(0, 10); // E = 5*3/5 = 3: log2(3.5/3.5)
    expect(signalFlags(3, all).prr).toBe(false);
    // ad = bc: no association, |0| - N/2 floored at 0.
    const none = disproportionality({ a: 1, b: 9, c: 9, d: 81 });
    expect(none.chi2).toBe(0);
    expect(none.prr).toBeCloseTo(1, 10);
    expect(none.ror).toBeCloseTo(1, 10);
  });

  it('an empty table has no figures; a bad cell is refused', () => {
    expect(disproportionality({ a: 0, b: 0, c: 0, d: 0 })).toMatchObject({
      prr: null,
      chi2: null,
      ror: null,
      ic: null,
      ic025: null,
    });
    expect(() => disproportionality({ a: -1, b: 0, c: 0, d: 0 })).toThrow(RangeError);
    expect(() => disproportionality({ a: 1.5, b: 0, c: 0, d: 0 })).toThrow(RangeError);
  });

  it('needs at least the minimum cases to flag, at the configured thresholds', () => {
    const f = disproportionality({ a: 2, b: 0, c: 0, d: 5000 });
    expect(f.prr).toBeGreaterThan(2);
    expect(signalFlags(2, f)).toEqual({ prr: false, ror: false, ic: false });
    expect(signalFlags(2, f, { ...DEFAULT_SIGNAL_THRESHOLDS, minCases: 2 }).prr).toBe(true);
  });

  it("IC025's closed form sits at the 2.5% quantile of the Gamma(a + 0.5, E + 0.5) posterior", () => {
    // Norén 2013's approximation: close to 0.025 for the small counts where it matters, and
    // conservative (further into the tail) as counts grow.
    for (const [a, expected] of [
      [0, 0.3],
      [1, 0.1],
      [3, 0.5],
      [5, 5],
      [10, 2],
    ] as const) {
      const ic025 = Math.log2((a + 0.5) / (expected + 0.5)) - 3.3 * (a + 0.5) ** -0.5 - 2 * (a + 0.5) ** -1.5;
      const p = gammaCdf(a + 0.5, expected + 0.5, 2 ** ic025);
      expect(p).toBeGreaterThan(0.017);
      expect(p).toBeLessThan(0.027);
    }
    const large = Math.log2(100.5 / 40.5) - 3.3 * 100.5 ** -0.5 - 2 * 100.5 ** -1.5;
    const p = gammaCdf(100.5, 40.5, 2 ** large);
    expect(p).toBeGreaterThan(0.01);
    expect(p).toBeLessThan(0.025);
  });
});
