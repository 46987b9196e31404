/**
 * What reaches SQL: which regexes and boolean conditions are narrowed there, and which of them are
 * exact (so count, sort and limit run in SQLite). conformance.test.ts proves the results match mingo.
 */
import { describe, expect, it } from 'vitest';
import { canonicalFold, literalPattern, translateFilter } from './sql-filter';
import type { PathResolver } from './sql-filter';

const columns: PathResolver = (path) => ({ kind: 'column', sql: `t.${path}` });
const sideTable: PathResolver = (path) => ({ kind: 'multi', table: 'm_x', path });

describe('literal regexes', () => {
  it('reads escaped punctuation and anchors, and refuses patterns and flags that are not literal', () => {
    expect(literalPattern('^a\\.b\\%$', 'i')).toEqual({
      text: 'a.b%',
      start: true,
      end: true,
      caseInsensitive: true,
    });
    expect(literalPattern('阿莫西林', '')).toEqual({
      text: '阿莫西林',
      start: false,
      end: false,
      caseInsensitive: false,
    });
    for (const [source, flags] of [
      ['a.b', ''],
      ['\\d', ''],
      ['a|b', 'i'],
      ['^a', 'm'],
      ['a', 'u'],
      ['a', 'g'],
      ['a$b', ''],
    ])
      expect({ source, flags, pattern: literalPattern(source!, flags!) }).toEqual({
        source,
        flags,
        pattern: undefined,
      });
  });

  it('narrows a case-insensitive contains with LIKE, exact unless a letter has non-ASCII case variants', () => {
    const ascii = translateFilter({ code: { $regex: 'cn\\-2026_1%', $options: 'i' } }, columns);
    expect(ascii).toMatchObject({ exact: true, params: ['%cn-2026\\_1\\%%'] });
    expect(ascii.sql).toContain("typeof(t.code) = 'text' AND t.code LIKE ? ESCAPE '\\'");
    expect(translateFilter({ name: { $regex: '阿莫西林', $options: 'i' } }, sideTable)).toMatchObject({
      exact: true,
      params: ['name', '%阿莫西林%'],
    });
    // é also matches É: LIKE cannot fold it, so any one character stands there and mingo decides.
    expect(translateFilter({ name: /éclair/i }, columns)).toMatchObject({
      exact: false,
      params: ['%_clair%'],
    });
  });

  it('narrows case-sensitive literals by range, equality, suffix or instr', () => {
    expect(translateFilter({ code: /^CN-/ }, columns)).toMatchObject({ exact: true, params: ['CN-', 'CN.'] });
    expect(translateFilter({ code: /^CN-1$/ }, columns)).toMatchObject({ exact: true, params: ['CN-1'] });
    expect(translateFilter({ code: /片$/ }, columns)).toMatchObject({ exact: true, params: [-1, '片'] });
    expect(translateFilter({ code: { $regex: 'X-1' } }, columns).sql).toContain('instr(t.code, ?) > 0');
    expect(translateFilter({ code: /a+/ }, columns)).toMatchObject({ sql: '1', exact: false });
  });
});

describe('booleans', () => {
  it('compare with one-byte BLOBs in the side table and in generated columns', () => {
    expect(translateFilter({ 'state.isSae': true }, sideTable)).toMatchObject({
      exact: true,
      params: ['state.isSae', Buffer.from([1])],
    });
    expect(translateFilter({ flag: { $in: [false, 'x'] } }, sideTable)).toMatchObject({
      exact: true,
      params: ['flag', Buffer.from([0]), 'x'],
    });
    expect(translateFilter({ code: false }, columns)).toMatchObject({
      sql: 't.code = ?',
      exact: true,
      params: [Buffer.from([0])],
    });
  });
});

describe('$ne', () => {
  it('is exact on a scalar column (missing and null are NULL) and left to mingo along arrays', () => {
    expect(translateFilter({ code: { $ne: 'deleted' } }, columns)).toMatchObject({
      sql: 't.code IS NOT ?',
      exact: true,
      params: ['deleted'],
    });
    expect(translateFilter({ code: { $ne: null } }, columns)).toMatchObject({ sql: 't.code IS NOT NULL' });
    expect(translateFilter({ 'drugs.name': { $ne: 'x' } }, sideTable)).toMatchObject({ exact: false });
  });
});

describe('$or over side-table paths', () => {
  it('becomes one side-table set with the paths listed when the branches differ only in path', () => {
    const contains = { $regex: 'xy\\.1', $options: 'i' };
    const where = translateFilter(
      { $or: [{ 'drugs.name': contains }, { 'drugs.whodrugName': contains }, { code: contains }] },
      (path) => (path === 'code' ? { kind: 'column', sql: 't.code' } : { kind: 'multi', table: 'm_x', path }),
    );
    expect(where.exact).toBe(true);
    expect(where.sql.match(/FROM "m_x"/g)).toHaveLength(1);
    expect(where.sql).toContain('m.path IN (?, ?)');
    expect(where.params).toEqual(['drugs.name', 'drugs.whodrugName', '%xy.1%', '%xy.1%']);
  });

  it('checks a value row by row while a page walks its order (a value most documents hold)', () => {
    const where = translateFilter(
      { state: 'sent', $or: [{ pointers: 'C.1.5' }, { 'fields.e2b': 'C.1.5' }] },
      (path) =>
        path === 'state' ? { kind: 'column', sql: 't.state' } : { kind: 'multi', table: 'm_x', path },
    );
    expect(where.sql).toContain('t._id IN (SELECT m._id FROM "m_x" m');
    expect(where.walk).toEqual({
      rest: { sql: 't.state = ?', params: ['sent'] },
      check: {
        sql: 'EXISTS (SELECT 1 FROM "m_x" m WHERE m._id = t._id AND m.path IN (?, ?) AND m.value = ?)',
        params: ['pointers', 'fields.e2b', 'C.1.5'],
      },
      probe: {
        sql: '(SELECT 1 FROM "m_x" m WHERE m._id = t._id AND m.path IN (?, ?) AND m.value = ? LIMIT 1) IS 1',
        params: ['pointers', 'fields.e2b', 'C.1.5'],
      },
    });
  });
});

describe('substring index', () => {
  const asked: string[] = [];
  const text = (path: string) => ({
    fts: 'x_c',
    keys: 'k_c',
    column: `p_${path.replace('.', '_')}`,
    trigrams: (prefix: string) => {
      asked.push(prefix);
      return prefix === 'ZZ' ? [] : prefix === 'MX' ? undefined : [`${prefix}1`, `${prefix}"`];
    },
  });
  const indexed: PathResolver = (path) =>
    path === 'code'
      ? { kind: 'column', sql: 't.code', text: text(path) }
      : { kind: 'multi', table: 'm_x', path, text: text(path) };

  it('answers an unanchored case-insensitive needle from the index alone, folded as a regex folds', () => {
    const where = translateFilter({ code: { $regex: 'cn\\-"1', $options: 'i' } }, indexed);
    expect(where.sql).toBe(
      '+t.rowid IN (SELECT k.trow FROM "x_c" x JOIN "k_c" k ON k.rowid = x.rowid WHERE "x_c" MATCH ?)',
    );
    expect(where).toMatchObject({ exact: true, params: ['{p_code} : ("CN-""1")'] });
    // é and É, σ, ς and Σ fold alike, as the regex compares them.
    expect(translateFilter({ code: /éclaiσ/i }, indexed).params).toEqual(['{p_code} : ("ÉCLAIΣ")']);
    expect(canonicalFold('aé阿ς%')).toBe('AÉ阿Σ%');
  });

  it('keeps the exact condition beside the index for anchored and case-sensitive needles', () => {
    const suffix = translateFilter({ code: /片剂a$/i }, indexed);
    expect(suffix.sql).toContain('MATCH');
    expect(suffix.sql).toContain('LIKE');
    expect(suffix.params[0]).toBe('{p_code} : ("片剂A")');
    const sensitive = translateFilter({ code: /Xy-1/ }, indexed);
    expect(sensitive.sql).toContain('instr(t.code, ?) > 0');
    expect(sensitive.params).toEqual(['{p_code} : ("XY-1")', 'Xy-1']);
    // A case-sensitive prefix is a B-tree range; a needle with the separator is not narrowed.
    expect(translateFilter({ code: /^CN-/ }, indexed).sql).not.toContain('MATCH');
    expect(translateFilter({ code: { $regex: 'a\uffffb', $options: 'i' } }, indexed).sql).not.toContain(
      'MATCH',
    );
  });

  it('narrows one or two characters by the indexed trigrams they begin', () => {
    asked.length = 0;
    const where = translateFilter({ code: { $regex: 'a\\%', $options: 'i' } }, indexed);
    expect(asked).toEqual(['A%']);
    expect(where).toMatchObject({ exact: true, params: ['{p_code} : ("A%1" OR "A%""")'] });
    // No indexed trigram begins with it: nothing matches, decided in SQL.
    expect(translateFilter({ code: { $regex: 'zz', $options: 'i' } }, indexed)).toMatchObject({
      sql: '0',
      exact: true,
    });
    // Too many trigrams: the exact condition alone.
    const many = translateFilter({ code: { $regex: 'mx', $options: 'i' } }, indexed);
    expect(many).toMatchObject({ exact: true, params: ['%mx%'] });
    expect(many.sql).not.toContain('MATCH');
  });

  it('merges $or branches over one index into one phrase over their columns', () => {
    const contains = { $regex: '注射液', $options: 'i' };
    const where = translateFilter({ $or: [{ 'drugs.name': contains }, { 'drugs.who': contains }] }, indexed);
    expect(where.sql.match(/MATCH/g)).toHaveLength(1);
    expect(where).toMatchObject({ exact: true, params: ['{p_drugs_name p_drugs_who} : ("注射液")'] });
  });
});
