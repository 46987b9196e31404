/**
 * pdf.js, loaded on first use without changing the process's built-ins. Its legacy build (the one
 * Node 20 runs) bundles core-js, which on import replaces built-ins of the whole process with
 * JavaScript versions - JSON.parse and JSON.stringify, Array.prototype.push, and
 * Function.prototype.toString so they still read as native - making every JSON answer slower
 * (JSON.stringify alone was 13% of an authenticated request's time once the imports module loaded
 * pdf.js). The built-ins it replaced are put back right after the import; what it adds (such as
 * Promise.withResolvers and Uint8Array.prototype.toBase64, which Node 20 lacks and pdf.js uses)
 * stays.
 */
import type * as PdfJsModule from 'pdfjs-dist/legacy/build/pdf.mjs';

type PdfJs = typeof PdfJsModule;

/** The intrinsics core-js may replace (globalThis itself it leaves alone; only lazy getters resolve there). */
const iteratorPrototype = Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())) as object;
const GUARDED: object[] = [
  JSON,
  Math,
  Object,
  Object.prototype,
  Function.prototype,
  Array,
  Array.prototype,
  String,
  String.prototype,
  Number,
  Number.prototype,
  Promise,
  Promise.prototype,
  Map.prototype,
  Set.prototype,
  WeakMap.prototype,
  RegExp.prototype,
  Date.prototype,
  Reflect,
  Symbol,
  ArrayBuffer.prototype,
  Uint8Array.prototype,
  Object.getPrototypeOf(Uint8Array.prototype) as object,
  iteratorPrototype,
  Error.prototype,
];

function replaced(before: PropertyDescriptor, now: PropertyDescriptor | undefined): boolean {
  return !now || !Object.is(now.value, before.value) || now.get !== before.get || now.set !== before.set;
}

let loading: Promise<PdfJs> | null = null;

export function loadPdfjs(): Promise<PdfJs> {
  loading ??= (async () => {
    const saved = GUARDED.map(
      (target) =>
        new Map(Reflect.ownKeys(target).map((key) => [key, Object.getOwnPropertyDescriptor(target, key)!])),
    );
    const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
    GUARDED.forEach((target, i) => {
      for (const [key, before] of saved[i]!)
        if (replaced(before, Object.getOwnPropertyDescriptor(target, key)))
          Object.defineProperty(target, key, before);
    });
    return pdfjs;
  })();
  return loading;
}
