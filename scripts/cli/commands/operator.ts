/**
 * `operator create <account> [--name <name>]` creates a platform operator account (every
 * /holoxcontrol permission) in the store DATA_DIR / MONGODB_URI select, and prints its password
 * once. A deployment started with PV_DEMO_SEED=off has no account until this is run.
 */
import { authCollections } from '../../../server/src/auth/collections';
import { accessCollections } from '../../../server/src/access';
import { ACCOUNT_PATTERN } from '../../../server/src/auth/policy';
import { DEFAULT_SCRYPT_COST, randomToken } from '../../../server/src/auth/crypto';
import { systemClock } from '../../../server/src/http/module';
import { openStore } from '../../../server/src/store';
import { createPlatformOperator } from '../../../server/src/users/seed';

export const summary =
  'create <account> [--name <name>]: a platform operator account (password printed once)';

type Env = Record<string, string | undefined>;

export async function run(args: string[], env: Env = process.env): Promise<number> {
  const [action, account] = args;
  const nameAt = args.indexOf('--name');
  const name = nameAt >= 0 ? args[nameAt + 1] : account;
  if (action !== 'create' || !account || account.startsWith('--') || !name) {
    console.error(`Usage: npm run -s cli -- operator ${summary}`);
    return 2;
  }
  if (!new RegExp(ACCOUNT_PATTERN).test(account)) {
    console.error('The account takes 3 to 64 letters, digits or . _ @ - (no Chinese or other characters).');
    return 1;
  }
  const store = await openStore({
    dataDir: env.DATA_DIR || './data',
    mongodbUri: env.MONGODB_URI || undefined,
  });
  try {
    for (const definition of [...authCollections, ...accessCollections]) await store.define(definition);
    // Meets the default policy: upper, lower, digit, special, length >= 8.
    const password = `Pv#${randomToken(9)}a7Z`;
    await createPlatformOperator(
      { store, clock: systemClock },
      { account, name, password, scryptCost: DEFAULT_SCRYPT_COST },
      'system:cli',
    );
    console.log(`${account} ${password}   (platform operator; shown once, change it after the first login)`);
    return 0;
  } catch (error) {
    console.error((error as Error).message);
    return 1;
  } finally {
    await store.close();
  }
}
