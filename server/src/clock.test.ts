import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { settableClock, noClock } from './clock';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const eslint = new ESLint({ cwd: ROOT });

/** The wall-clock readings the rule refuses, as a server file would write them. */
const READS_WALL_CLOCK = `export function stamp(): string {
  const started = Date.now();
  const today = new Date();
  return \`\${started} \${today.toISOString()} \${Date()}\`;
}
export const wall = { now: Date.now };
`;

/** What stays allowed: a given time, parsing, durations. */
const TAKES_A_CLOCK = `import type { Clock } from '../clock';
export function stamp(clock: Clock, iso: string): string {
  const started = performance.now();
  const parsed = new Date(iso);
  return \`\${clock.now().toISOString()} \${parsed.getTime()} \${performance.now() - started} \${Date.parse(iso)}\`;
}
`;

async function clockFindings(code: string, filePath: string): Promise<{ line: number; message: string }[]> {
  const [result] = await eslint.lintText(code, { filePath: `${ROOT}${filePath}` });
  return result!.messages
    .filter((m) => m.ruleId === 'no-restricted-syntax')
    .map((m) => ({ line: m.line, message: m.message }));
}

describe('one clock (lint rule)', () => {
  it('refuses Date.now (called or passed), new Date() and Date() in server, engine and web code', async () => {
    for (const path of [
      'server/src/cases/fixture.ts',
      'engine/src/validation/fixture.ts',
      'web/src/app/fixture.tsx',
    ]) {
      const findings = await clockFindings(READS_WALL_CLOCK, path);
      expect(
        findings.map((f) => f.line),
        path,
      ).toEqual([2, 3, 4, 6]);
      expect(findings[0]!.message).toContain('deps.clock.now()');
    }
  });

  it('accepts a clock, parsing and durations', async () => {
    expect(await clockFindings(TAKES_A_CLOCK, 'server/src/cases/fixture.ts')).toEqual([]);
  });

  it('lets the declared clock modules read the wall clock, and nothing else', async () => {
    expect(await clockFindings(READS_WALL_CLOCK, 'server/src/clock.ts')).toEqual([]);
    expect(await clockFindings(READS_WALL_CLOCK, 'web/src/clock.ts')).toEqual([]);
    // The real clock modules lint clean.
    const results = await eslint.lintFiles(['server/src/clock.ts', 'web/src/clock.ts']);
    expect(results.flatMap((r) => r.messages)).toEqual([]);
  });
});

describe('clocks', () => {
  it('a settable clock moves only when told', () => {
    const clock = settableClock('2026-11-21T08:00:00Z');
    expect(clock.now().toISOString()).toBe('2026-11-21T08:00:00.000Z');
    clock.advance(86_400_000);
    expect(clock.now().toISOString()).toBe('2026-11-22T08:00:00.000Z');
    clock.set('2030-01-01T00:00:00Z');
    expect(clock.now().toISOString()).toBe('2030-01-01T00:00:00.000Z');
    expect(() => settableClock('not a date')).toThrow(/not a time/);
  });

  it('noClock refuses to answer', () => {
    expect(() => noClock.now()).toThrow(/no clock/);
  });
});
