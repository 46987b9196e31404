/**
 * Distribution files from an uploaded zip (as MSSO and UMC ship them) or from a directory (the
 * CLI): base file name -> bytes. Folders inside the zip are ignored; two files of the same name
 * are refused.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { errors } from '../http';

const DISTRIBUTION_FILE = /\.(asc|txt)$/i;

export function filesFromZip(zip: Uint8Array): Map<string, Uint8Array> {
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(zip, { filter: (file) => DISTRIBUTION_FILE.test(file.name) });
  } catch {
    throw errors.badRequest('dictionaries.archiveUnreadable');
  }
  const files = new Map<string, Uint8Array>();
  for (const [path, content] of Object.entries(entries)) {
    const name = path.split('/').pop()!;
    if (files.has(name)) throw errors.badRequest('dictionaries.archiveDuplicateFile', { file: name });
    files.set(name, content);
  }
  return files;
}

export function filesFromDirectory(dir: string): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (DISTRIBUTION_FILE.test(name) && statSync(path).isFile()) files.set(name, readFileSync(path));
  }
  return files;
}
