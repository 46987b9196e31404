import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { validateXML, memoryPages } from 'xmllint-wasm';

const xsdRoot = fileURLToPath(new URL('../../../schemas/e2b/xsd/', import.meta.url));

export interface XsdError {
  message: string;
  line?: number;
}

export interface XsdResult {
  valid: boolean;
  errors: XsdError[];
}

interface SchemaSet {
  main: { fileName: string; contents: string };
  preload: { fileName: string; contents: string }[];
}

let schemaSet: SchemaSet | undefined;

/** The ICH XSDs the product ships (schemas/e2b/xsd), read once. */
function schemas(): SchemaSet {
  if (schemaSet) return schemaSet;
  const preload: { fileName: string; contents: string }[] = [];
  for (const dir of ['coreschemas', 'multicacheschemas']) {
    for (const file of readdirSync(`${xsdRoot}${dir}`))
      preload.push({
        fileName: `${dir}/${file}`,
        contents: readFileSync(`${xsdRoot}${dir}/${file}`, 'utf8'),
      });
  }
  const main = preload.find((p) => p.fileName === 'multicacheschemas/MCCI_IN200100UV01.xsd');
  if (!main) throw new Error('schemas/e2b/xsd: MCCI_IN200100UV01.xsd missing');
  schemaSet = { main, preload };
  return schemaSet;
}

const closures = new Map<string, { fileName: string; contents: string }[]>();

/** The schema files a root schema includes, transitively (libxml2 then reads ~40 files, not ~160). */
function includedBy(
  main: { fileName: string; contents: string },
  set: SchemaSet,
): { fileName: string; contents: string }[] {
  const cached = closures.get(main.fileName);
  if (cached) return cached;
  const byName = new Map(set.preload.map((p) => [p.fileName, p]));
  const seen = new Set<string>([main.fileName]);
  const queue = [main];
  const out: { fileName: string; contents: string }[] = [];
  while (queue.length) {
    const file = queue.pop() as { fileName: string; contents: string };
    const dir = file.fileName.slice(0, file.fileName.lastIndexOf('/') + 1);
    for (const m of file.contents.matchAll(/schemaLocation="([^"]+)"/g)) {
      const target = new URL(m[1] as string, `file:///${dir}`).pathname.slice(1);
      const found = byName.get(target);
      if (!found || seen.has(target)) continue;
      seen.add(target);
      out.push(found);
      queue.push(found);
    }
  }
  closures.set(main.fileName, out);
  return out;
}

const rootSchema: Record<string, string> = {
  MCCI_IN200100UV01: 'multicacheschemas/MCCI_IN200100UV01.xsd',
  MCCI_IN200101UV01: 'multicacheschemas/MCCI_IN200101UV01.xsd',
};

/**
 * Validates an E2B(R3) batch or acknowledgement against the official XSD with libxml2 (xmllint-wasm).
 * The schema is chosen by the document's root element.
 */
export async function validateR3Xml(xml: string): Promise<XsdResult> {
  const set = schemas();
  const rootName =
    /<([A-Za-z_][\w.-]*)[\s>]/.exec(xml.replace(/<\?xml[^>]*\?>/, '').replace(/<!--[\s\S]*?-->/g, ''))?.[1] ??
    '';
  const schemaFile = rootSchema[rootName];
  if (!schemaFile)
    return {
      valid: false,
      errors: [{ message: `not an E2B(R3) batch or acknowledgement: root element ${rootName || '(none)'}` }],
    };
  const main = set.preload.find((p) => p.fileName === schemaFile) ?? set.main;
  const result = await validateXML({
    xml: [{ fileName: 'message.xml', contents: xml }],
    schema: [main],
    preload: includedBy(main, set),
    initialMemoryPages: 512,
    maxMemoryPages: memoryPages.GiB,
  });
  return {
    valid: result.valid,
    errors: result.errors.map((e) =>
      e.loc?.lineNumber ? { message: e.message, line: e.loc.lineNumber } : { message: e.message },
    ),
  };
}

/**
 * Validates several E2B(R3) batches in one libxml2 run (the schema is compiled once): one result per
 * document, in order. All must be batches (MCCI_IN200100UV01).
 */
export async function validateR3Batches(xmls: string[]): Promise<XsdResult[]> {
  if (xmls.length === 0) return [];
  const set = schemas();
  const result = await validateXML({
    xml: xmls.map((contents, i) => ({ fileName: `message-${i}.xml`, contents })),
    schema: [set.main],
    preload: includedBy(set.main, set),
    initialMemoryPages: 512,
    maxMemoryPages: memoryPages.GiB,
  });
  return xmls.map((_, i) => {
    const errors = result.errors
      .filter(
        (e) =>
          e.loc?.fileName === `message-${i}.xml` || (!e.loc && e.rawMessage.includes(`message-${i}.xml`)),
      )
      .map((e) =>
        e.loc?.lineNumber ? { message: e.message, line: e.loc.lineNumber } : { message: e.message },
      );
    return { valid: errors.length === 0, errors };
  });
}
