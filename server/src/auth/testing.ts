/** Test fixture of the identity modules: a platform on a fresh store, a movable clock, demo accounts. */
import type { Clock, ServerModule } from '../http';
import { call, testPlatform } from '../testing';
import type { TestPlatform } from '../testing';
import { testStore } from '../http/test-store';
import { createAccessModule } from '../access';
import { createTenancyModule } from '../tenancy';
import { createUsersModule } from '../users';
import { createAuthModule } from '.';
import type { IdentityOptions } from './options';

export class TestClock implements Clock {
  constructor(public at = new Date('2026-03-02T08:00:00Z')) {}
  now(): Date {
    return new Date(this.at);
  }
  advance(ms: number): void {
    this.at = new Date(this.at.getTime() + ms);
  }
}

export function identityModules(options: IdentityOptions): ServerModule[] {
  return [
    createAuthModule(options),
    createTenancyModule(options),
    createAccessModule(options),
    createUsersModule(options),
  ];
}

export interface IdentityFixture {
  platform: TestPlatform;
  clock: TestClock;
  options: IdentityOptions;
  /** Demo passwords by account, as the seed announced them. */
  passwords: Record<string, string>;
  announced: string[];
  /** The next verification code the server draws. */
  setCode(code: string): void;
  login(account: string, password?: string, extra?: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

export async function identityFixture(extraModules: ServerModule[] = []): Promise<IdentityFixture> {
  const store = await testStore();
  const clock = new TestClock();
  let nextCode = 'ACE7';
  const announced: string[] = [];
  const options: IdentityOptions = {
    captcha: true,
    scryptCost: { N: 1024, r: 8, p: 1 },
    captchaCode: () => nextCode,
    demoSeed: true,
    announce: (text) => announced.push(text),
  };
  const platform = testPlatform({ store, clock, modules: [...identityModules(options), ...extraModules] });
  await platform.ready();
  for (const module of platform.modules) await module.seed?.(platform.deps);
  const passwords: Record<string, string> = {};
  for (const match of announced.join('\n').matchAll(/^ {2}(\S+)\s+(\S+)\s/gm))
    passwords[match[1]!] = match[2]!;
  const fixture: IdentityFixture = {
    platform,
    clock,
    options,
    passwords,
    announced,
    setCode: (code) => (nextCode = code),
    async login(account, password = passwords[account]!, extra = {}) {
      const captcha = await call(platform.app, 'GET', '/api/auth/captcha');
      const captchaId = (captcha.body.data as { captchaId: string }).captchaId;
      const res = await call(platform.app, 'POST', '/api/auth/login', {
        body: { account, password, captchaId, captchaCode: nextCode, ...extra },
      });
      if (res.body.code !== 200) throw new Error(`login ${account}: ${res.body.code} ${res.body.msg}`);
      return (res.body.data as { token: string }).token;
    },
    close: () => store.close(),
  };
  return fixture;
}
