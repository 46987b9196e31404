import { describe, expect, it } from 'vitest';
import { DEFAULT_FILE_NAME_PATTERN, checkFileNamePattern, fileNameOf } from './file-name';

const values = {
  reportCode: 'CN-ACME-2026-001',
  version: '2',
  lang: 'zh',
  date: '20261126',
  kind: 'CIOMS',
  blinding: 'blinded',
};

describe('report file name pattern', () => {
  it('fills the placeholders', () => {
    expect(checkFileNamePattern(DEFAULT_FILE_NAME_PATTERN)).toBeNull();
    expect(fileNameOf('{reportCode}_v{version}_{lang}', values)).toBe('CN-ACME-2026-001_v2_zh');
    expect(fileNameOf('报告{reportCode}', values)).toBe('报告CN-ACME-2026-001');
  });
  it('refuses unsafe, unknown and duplicate-prone patterns', () => {
    expect(checkFileNamePattern('')?.key).toBe('reports.fileName.empty');
    expect(checkFileNamePattern('../{reportCode}')?.key).toBe('reports.fileName.unsafe');
    expect(checkFileNamePattern('a/{reportCode}')?.key).toBe('reports.fileName.unsafe');
    expect(checkFileNamePattern('.{reportCode}')?.key).toBe('reports.fileName.unsafe');
    expect(checkFileNamePattern('{owner}_{reportCode}')?.key).toBe('reports.fileName.unknownPlaceholder');
    expect(checkFileNamePattern('cioms_{date}')?.key).toBe('reports.fileName.duplicate');
  });
  it('makes a value with path characters safe', () => {
    expect(fileNameOf('{reportCode}', { ...values, reportCode: '../../etc/passwd' })).toBe('____etc_passwd');
  });
});
