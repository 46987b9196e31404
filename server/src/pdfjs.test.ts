import { expect, it } from 'vitest';
import { loadPdfjs } from './pdfjs';

it('loads pdf.js without replacing the built-ins its bundled polyfills would replace', async () => {
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const push = Array.prototype.push;
  const toString = Function.prototype.toString;
  const pdfjs = await loadPdfjs();
  expect(typeof pdfjs.getDocument).toBe('function');
  expect(JSON.stringify).toBe(stringify);
  expect(JSON.parse).toBe(parse);
  expect(Array.prototype.push).toBe(push);
  expect(Function.prototype.toString).toBe(toString);
  // What pdf.js needs and Node 20 lacks stays.
  expect('withResolvers' in Promise).toBe(true);
});
