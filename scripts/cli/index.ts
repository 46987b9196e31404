/**
 * `npm run -s cli -- <command> [args...]`: runs scripts/cli/commands/<command>.ts, whose
 * `run(args: string[]): Promise<number>` returns the exit code.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const commandsDir = fileURLToPath(new URL('./commands/', import.meta.url));

interface Command {
  run(args: string[]): Promise<number>;
  /** One line shown in the usage list. */
  summary?: string;
}

function available(): string[] {
  if (!existsSync(commandsDir)) return [];
  return readdirSync(commandsDir)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .map((file) => file.slice(0, -3))
    .sort();
}

async function usage(): Promise<void> {
  const lines = ['Usage: npm run -s cli -- <command> [args...]', '', 'Commands:'];
  for (const name of available()) {
    const command = (await import(pathToFileURL(join(commandsDir, `${name}.ts`)).href)) as Partial<Command>;
    lines.push(`  ${name.padEnd(16)} ${command.summary ?? ''}`.trimEnd());
  }
  console.error(lines.join('\n'));
}

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    await usage();
    return name ? 0 : 2;
  }
  if (!/^[\w-]+$/.test(name) || !available().includes(name)) {
    console.error(`Unknown command: ${name}\n`);
    await usage();
    return 2;
  }
  const command = (await import(pathToFileURL(join(commandsDir, `${name}.ts`)).href)) as Partial<Command>;
  if (typeof command.run !== 'function') {
    console.error(`scripts/cli/commands/${name}.ts does not export run(args)`);
    return 2;
  }
  return command.run(args);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  },
);
