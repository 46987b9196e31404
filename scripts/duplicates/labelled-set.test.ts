/**
 * Duplicate detection measured on the labelled set (issue 21 item 4): every pair of the 1,000 cases
 * scored by the engine's matcher, a pair predicted a duplicate at or above the default threshold.
 */
import { describe, expect, it } from 'vitest';
import { DUPLICATE_SCORE_THRESHOLD, matchCases } from '@pv/engine';
import { generateLabelledSet } from './labelled-set';

describe('duplicate detection on the labelled set', () => {
  it('reaches precision >= 0.9 and recall >= 0.8 at the default threshold', () => {
    const { records, duplicates } = generateLabelledSet();
    expect(records).toHaveLength(1000);
    expect(duplicates).toHaveLength(150);
    const truth = new Set(duplicates.map(([a, b]) => `${a}:${b}`));
    let truePositives = 0;
    let falsePositives = 0;
    for (let i = 0; i < records.length; i++)
      for (let j = i + 1; j < records.length; j++) {
        if (matchCases(records[i]!, records[j]!).score < DUPLICATE_SCORE_THRESHOLD) continue;
        if (truth.has(`${i}:${j}`)) truePositives++;
        else falsePositives++;
      }
    const precision = truePositives / (truePositives + falsePositives);
    const recall = truePositives / duplicates.length;
    console.log(
      `duplicates: threshold ${DUPLICATE_SCORE_THRESHOLD} precision ${precision.toFixed(3)} recall ${recall.toFixed(3)} (${truePositives} found, ${falsePositives} false, ${duplicates.length} planted)`,
    );
    expect(precision).toBeGreaterThanOrEqual(0.9);
    expect(recall).toBeGreaterThanOrEqual(0.8);
  });
});
