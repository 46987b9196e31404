/**
 * Every catalogue key the web code names exists in zh and en, and the two catalogues have the
 * same keys with the same placeholders. (The browser walk checks what actually renders.)
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { catalogues } from './index';
import { rjsfKeys } from '../renderers/form/translate';

const SRC = fileURLToPath(new URL('..', import.meta.url));
/** The shell's folders (other modules' pages keep their own catalogues). */
const FOLDERS = ['api', 'app', 'components', 'i18n', 'pages', 'renderers', 'shell', 'tour'];
/** Keys built at run time from a prefix: each possible suffix is listed here. */
const DYNAMIC: Record<string, string[]> = {
  'shell.environment.': ['dev', 'uat', 'pro'],
  'version.store.': ['embedded', 'mongodb'],
  'tasks.shape.': ['minutes', 'hourly', 'daily', 'weekly', 'monthly', 'custom'],
  'tasks.weekday.': ['0', '1', '2', '3', '4', '5', '6'],
  'tasks.column.': ['name', 'type', 'expression', 'timezone', 'status', 'nextRun', 'lastRun', 'actions'],
  'tasks.logColumn.': ['created', 'started', 'finished', 'status', 'attempts', 'outcome'],
  'tasks.run.': ['queued', 'running', 'succeeded', 'failed', 'canceled'],
  ...Object.fromEntries(
    ['version', 'top-menu', 'second-menu', 'organisation', 'personal', 'language', 'report-entry'].map(
      (step) => [`tour.${step}.`, ['title', 'text']],
    ),
  ),
  'registration.': [
    'tenantName',
    'tenantNameEn',
    'code',
    'contactName',
    'account',
    'email',
    'phone',
    'password',
    'confirmPassword',
  ],
};
/** String literals that look like keys but are not catalogue keys (storage keys, schema paths). */
const NOT_KEYS = /^(pv\.|contact\.|kind\.|x\.)/;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('web catalogues', () => {
  it('have the same keys and placeholders in zh and en', () => {
    expect(Object.keys(catalogues.zh).sort()).toEqual(Object.keys(catalogues.en).sort());
    const names = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const key of Object.keys(catalogues.zh)) {
      expect(names(catalogues.zh[key]!), key).toEqual(names(catalogues.en[key]!));
      expect(catalogues.zh[key]!.trim(), key).not.toBe('');
    }
  });

  it('hold every key the code names', () => {
    const used = new Set<string>();
    for (const file of FOLDERS.flatMap((folder) => sources(join(SRC, folder)))) {
      // Module specifiers ('chart.js') name files, not keys.
      const code = readFileSync(file, 'utf8').replace(/\b(?:from|import)\s*\(?\s*'[^']*'/g, '');
      for (const match of code.matchAll(/'([a-z][a-zA-Z]*\.[a-zA-Z][a-zA-Z0-9.]*)'/g)) {
        if (!NOT_KEYS.test(match[1]!)) used.add(match[1]!);
      }
    }
    for (const [prefix, suffixes] of Object.entries(DYNAMIC)) for (const s of suffixes) used.add(prefix + s);
    for (const key of rjsfKeys) used.add(key);
    const missing = [...used].filter((key) => !(key in catalogues.zh) || !(key in catalogues.en));
    expect(missing).toEqual([]);
  });
});
