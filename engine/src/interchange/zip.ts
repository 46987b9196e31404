import { inflateSync } from 'fflate';
import { InterchangeError } from './errors';

/** Bounds a zip upload must respect before anything is decompressed. */
export interface ZipLimits {
  maxEntries: number;
  /** Sum of the declared uncompressed sizes. */
  maxTotalBytes: number;
  maxEntryBytes: number;
  /** Largest uncompressed / compressed ratio of one entry (zip bombs compress at 1000:1 and more). */
  maxRatio: number;
}

export const defaultZipLimits: ZipLimits = {
  maxEntries: 10_000,
  maxTotalBytes: 2 * 1024 * 1024 * 1024,
  maxEntryBytes: 64 * 1024 * 1024,
  maxRatio: 200,
};

export interface ZipEntry {
  name: string;
  compressedSize: number;
  size: number;
  method: number;
  offset: number;
}

const u16 = (b: Uint8Array, i: number): number => (b[i] as number) | ((b[i + 1] as number) << 8);
const u32 = (b: Uint8Array, i: number): number => (u16(b, i) | (u16(b, i + 2) << 16)) >>> 0;

function unsafePath(name: string): boolean {
  if (name.startsWith('/') || name.startsWith('\\') || /^[A-Za-z]:/.test(name)) return true;
  return name.split(/[\\/]/).some((part) => part === '..');
}

/**
 * Reads and checks a zip's central directory (entry count, declared sizes, compression ratio, paths,
 * encryption) without decompressing anything; returns the wanted entries (XML unless told) in archive order.
 */
export function listZipEntries(
  bytes: Uint8Array,
  limits: Partial<ZipLimits> = {},
  wanted: { extension: RegExp; noneKey: string } = { extension: /\.xml$/i, noneKey: 'zip.noXml' },
): ZipEntry[] {
  const bounds = { ...defaultZipLimits, ...limits };
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 65_535); i--) {
    if (u32(bytes, i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new InterchangeError('zip.invalid', { detail: 'no end of central directory' });
  const count = u16(bytes, eocd + 10);
  const directoryOffset = u32(bytes, eocd + 16);
  if (count === 0xffff || directoryOffset === 0xffffffff)
    throw new InterchangeError('zip.invalid', { detail: 'ZIP64 archives are not accepted' });
  if (count > bounds.maxEntries)
    throw new InterchangeError('zip.tooManyEntries', { limit: bounds.maxEntries });
  const entries: ZipEntry[] = [];
  let total = 0;
  let p = directoryOffset;
  for (let n = 0; n < count; n++) {
    if (p + 46 > bytes.length || u32(bytes, p) !== 0x02014b50)
      throw new InterchangeError('zip.invalid', { detail: 'corrupt central directory' });
    const flags = u16(bytes, p + 8);
    const method = u16(bytes, p + 10);
    const compressedSize = u32(bytes, p + 20);
    const size = u32(bytes, p + 24);
    const nameLength = u16(bytes, p + 28);
    const extraLength = u16(bytes, p + 30);
    const commentLength = u16(bytes, p + 32);
    const offset = u32(bytes, p + 42);
    const name = new TextDecoder().decode(bytes.subarray(p + 46, p + 46 + nameLength));
    p += 46 + nameLength + extraLength + commentLength;
    if (unsafePath(name)) throw new InterchangeError('zip.path', { entry: name });
    if (name.endsWith('/')) continue;
    if (flags & 1) throw new InterchangeError('zip.encrypted', { entry: name });
    if (size > bounds.maxEntryBytes)
      throw new InterchangeError('zip.tooLarge', { limit: bounds.maxEntryBytes });
    total += size;
    if (total > bounds.maxTotalBytes)
      throw new InterchangeError('zip.tooLarge', { limit: bounds.maxTotalBytes });
    if (size > 0 && size / Math.max(compressedSize, 1) > bounds.maxRatio)
      throw new InterchangeError('zip.ratio', { entry: name, limit: bounds.maxRatio });
    if (method !== 0 && method !== 8)
      throw new InterchangeError('zip.invalid', { detail: `${name}: compression method ${method}` });
    const base = name.split('/').pop() ?? name;
    if (!wanted.extension.test(base) || base.startsWith('.') || name.startsWith('__MACOSX/')) continue;
    entries.push({ name, compressedSize, size, method, offset });
  }
  if (entries.length === 0) throw new InterchangeError(wanted.noneKey);
  return entries;
}

/** Decompresses one checked entry; its actual size must be the declared one. */
export function readZipEntry(bytes: Uint8Array, entry: ZipEntry): Uint8Array {
  const p = entry.offset;
  if (u32(bytes, p) !== 0x04034b50)
    throw new InterchangeError('zip.invalid', { detail: `${entry.name}: bad local header` });
  const start = p + 30 + u16(bytes, p + 26) + u16(bytes, p + 28);
  const data = bytes.subarray(start, start + entry.compressedSize);
  if (entry.method === 0) {
    if (data.length !== entry.size)
      throw new InterchangeError('zip.invalid', { detail: `${entry.name}: size mismatch` });
    return data;
  }
  let out: Uint8Array;
  try {
    // A fixed output buffer one byte larger than declared: a lying header cannot make it grow, and
    // filling the extra byte proves the entry is longer than it claims.
    out = inflateSync(data, { out: new Uint8Array(entry.size + 1) });
  } catch (e) {
    throw new InterchangeError('zip.invalid', {
      detail: `${entry.name}: ${e instanceof Error ? e.message : String(e)}`,
    });
  }
  if (out.length !== entry.size)
    throw new InterchangeError('zip.invalid', { detail: `${entry.name}: size mismatch` });
  return out;
}

/** Each XML entry of a checked zip, decompressed one at a time (memory stays flat). */
export function* zipXmlEntries(
  bytes: Uint8Array,
  limits: Partial<ZipLimits> = {},
): Generator<{ name: string; bytes: Uint8Array }> {
  for (const entry of listZipEntries(bytes, limits))
    yield { name: entry.name, bytes: readZipEntry(bytes, entry) };
}
