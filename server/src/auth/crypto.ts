/**
 * The secrets of identity: opaque tokens (sessions, activation links, verification codes) kept
 * only as sha256 hashes, compared in constant time, and passwords hashed with scrypt.
 */
import * as nodeCrypto from 'node:crypto';
import { createHash, randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import type { ScryptOptions } from 'node:crypto';

const oneShotHash = (nodeCrypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string })
  .hash;

/** 32 random bytes (256 bits), base64url: a bearer token or link token. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function sha256Hex(text: string): string {
  // The one-shot hash (Node 20.12+) costs a third of a Hash object; every request hashes its token.
  return oneShotHash
    ? oneShotHash('sha256', text, 'hex')
    : createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * Constant-time comparison of two secrets: both sides are hashed first so that their lengths are
 * equal and timingSafeEqual never returns early on a length mismatch.
 */
export function secretsEqual(a: string, b: string): boolean {
  const left = createHash('sha256').update(a, 'utf8').digest();
  const right = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(left, right);
}

/** Constant-time comparison of two hex digests of the same algorithm. */
export function digestsEqual(aHex: string, bHex: string): boolean {
  const a = Buffer.from(aHex, 'hex');
  const b = Buffer.from(bHex, 'hex');
  return a.length === b.length && a.length > 0 && timingSafeEqual(a, b);
}

export interface ScryptCost {
  /** CPU/memory cost, a power of two. */
  N: number;
  r: number;
  p: number;
}

/** Tuned so that one verification takes 50-300 ms on a server core (see scripts/bench/auth.ts). */
export const DEFAULT_SCRYPT_COST: ScryptCost = { N: 2 ** 15, r: 8, p: 1 };

const KEY_LENGTH = 32;

function scrypt(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  const options: ScryptOptions = {
    N: cost.N,
    r: cost.r,
    p: cost.p,
    maxmem: 256 * cost.N * cost.r + 1024 * 1024,
  };
  return new Promise((resolve, reject) =>
    scryptCallback(password.normalize('NFC'), salt, KEY_LENGTH, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** `scrypt$N$r$p$salt$hash` (salt and hash base64url); the parameters travel with the hash. */
export async function hashPassword(
  password: string,
  cost: ScryptCost = DEFAULT_SCRYPT_COST,
): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const salt = Buffer.from(parts[4]!, 'base64url');
  const expected = Buffer.from(parts[5]!, 'base64url');
  const key = await scrypt(password, salt, { N, r, p });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** Spends the time of one verification, so an unknown account answers as slowly as a known one. */
export async function burnVerification(cost: ScryptCost): Promise<void> {
  await scrypt('unknown account', randomBytes(16), cost);
}
