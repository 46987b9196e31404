import { describe, expect, it } from 'vitest';
import { parseCsv } from './csv';

describe('parseCsv', () => {
  it('keeps commas, doubled quotes and line breaks inside quoted fields', () => {
    const text = '\ufeffa,"b, c","say ""hi""\nnext line"\r\n1,,3\n';
    expect(parseCsv(text)).toEqual([
      ['a', 'b, c', 'say "hi"\nnext line'],
      ['1', '', '3'],
    ]);
  });

  it('keeps a last row that has no line break', () => {
    expect(parseCsv('x,y\nz,')).toEqual([
      ['x', 'y'],
      ['z', ''],
    ]);
  });
});
