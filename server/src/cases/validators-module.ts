/**
 * The browser module of a configuration (served by validators.ts, measured by the validate and
 * case-form benches): the engine's AJV standalone validators, without per-field validators (the
 * case form checks the whole document), bundled by esbuild with the ajv-formats checks they use
 * into one minified ES module that imports nothing and evaluates no code at run time.
 */
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { standaloneValidatorsModule } from '@pv/engine';
import type { ResolvedConfiguration } from '@pv/engine';

const HERE = dirname(fileURLToPath(import.meta.url));

export async function bundleValidatorsModule(configuration: ResolvedConfiguration): Promise<string> {
  const result = await build({
    stdin: {
      contents: standaloneValidatorsModule(configuration, { fieldValidators: false }),
      // ajv-formats resolves from here as it does for the server.
      resolveDir: HERE,
      sourcefile: `validators-${configuration.hash}.mjs`,
      loader: 'js',
    },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    minify: true,
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}
