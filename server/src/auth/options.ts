/** Settings shared by the identity modules (auth, tenancy, access, users). */
import type { ScryptCost } from './crypto';
import { DEFAULT_SCRYPT_COST } from './crypto';

export interface IdentityOptions {
  /** Verification code on login and registration; `PV_LOGIN_CAPTCHA=off` turns it off. */
  captcha: boolean;
  /** Password hashing cost (tests lower it to stay fast). */
  scryptCost: ScryptCost;
  /**
   * A refused login (wrong password, unknown account) answers no sooner than this many ms after it
   * arrived: the writes a known account's failure makes (its count, the tenant's login log) then do
   * not tell it from an unknown one by timing. 0: no floor.
   */
  loginFloorMs?: number;
  /** Verification-code generator; tests inject a known code. */
  captchaCode?: () => string;
  /** Demo accounts on first start (the seed step). */
  demoSeed: boolean;
  /** One known password for every demo account (`PV_DEMO_PASSWORD`, for automated browser tests); random otherwise. */
  demoPassword?: string;
  /** Where the demo seed prints the demo credentials once (console by default). */
  announce?: (text: string) => void;
}

export function identityOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): IdentityOptions {
  return {
    captcha: !/^(off|false|0|no)$/i.test(env.PV_LOGIN_CAPTCHA ?? ''),
    scryptCost: DEFAULT_SCRYPT_COST,
    // Above one verification at the default cost (about 100 ms) plus a few commits.
    loginFloorMs: 300,
    demoSeed: !/^(off|false|0|no)$/i.test(env.PV_DEMO_SEED ?? ''),
    ...(env.PV_DEMO_PASSWORD ? { demoPassword: env.PV_DEMO_PASSWORD } : {}),
  };
}
