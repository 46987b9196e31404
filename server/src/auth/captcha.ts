/**
 * Login verification code: a short random code drawn as an SVG of jittered stroke paths (no
 * <text>, so the code is not in the markup), single use, expiring after two minutes. Only the
 * sha256 of the code is stored; checking consumes the code whatever the answer.
 */
import { randomInt, randomUUID } from 'node:crypto';
import type { PlatformHandle } from '../store';
import { C } from './collections';
import { digestsEqual, sha256Hex } from './crypto';

export const CAPTCHA_TTL_SECONDS = 120;
export const CAPTCHA_LENGTH = 4;

/** Unambiguous characters (no 0/O, 1/I/L, 5/S, 2/Z confusion). */
export const CAPTCHA_ALPHABET = '346789ACEFHKMNPRTUVWXY';

/** Each glyph: polylines on a 10 x 16 box, points "x,y" separated by spaces, lines by ';'. */
const GLYPHS: Record<string, string> = {
  '3': '0,1 9,1 4,7 9,10 9,14 5,16 0,14',
  '4': '7,16 7,0 0,11 10,11',
  '6': '9,1 3,2 0,9 1,15 6,16 9,13 8,9 4,8 1,10',
  '7': '0,0 10,0 4,16',
  '8': '5,0 1,2 1,6 9,10 9,14 5,16 1,14 1,10 9,6 9,2 5,0',
  '9': '9,6 6,8 2,7 1,3 4,0 8,1 9,6 8,12 3,16',
  A: '0,16 5,0 10,16;2,10 8,10',
  C: '10,2 6,0 2,1 0,6 0,11 2,15 6,16 10,14',
  E: '10,0 0,0 0,16 10,16;0,8 7,8',
  F: '10,0 0,0 0,16;0,8 7,8',
  H: '0,0 0,16;10,0 10,16;0,8 10,8',
  K: '0,0 0,16;10,0 0,10;3,7 10,16',
  M: '0,16 0,0 5,9 10,0 10,16',
  N: '0,16 0,0 10,16 10,0',
  P: '0,16 0,0 7,0 10,3 10,6 7,8 0,8',
  R: '0,16 0,0 7,0 10,3 10,6 7,8 0,8;5,8 10,16',
  T: '0,0 10,0;5,0 5,16',
  U: '0,0 0,12 3,16 7,16 10,12 10,0',
  V: '0,0 5,16 10,0',
  W: '0,0 2,16 5,6 8,16 10,0',
  X: '0,0 10,16;10,0 0,16',
  Y: '0,0 5,8 10,0;5,8 5,16',
};

export function randomCaptchaCode(): string {
  let code = '';
  for (let i = 0; i < CAPTCHA_LENGTH; i++) code += CAPTCHA_ALPHABET[randomInt(CAPTCHA_ALPHABET.length)];
  return code;
}

const jitter = (amount: number) => (randomInt(2001) / 1000 - 1) * amount;

/** Draws the code: each glyph scaled, rotated and jittered, plus noise curves across the image. */
export function renderCaptchaSvg(code: string, width = 120, height = 40): string {
  const paths: string[] = [];
  const colours = ['#1f4e79', '#7a2e8e', '#8a4b08', '#1d6b3a', '#a11d33'];
  for (let n = 0; n < 3; n++) {
    const y1 = randomInt(height);
    const y2 = randomInt(height);
    paths.push(
      `<path d="M0 ${y1} C${width / 3} ${randomInt(height)} ${(2 * width) / 3} ${randomInt(height)} ${width} ${y2}" stroke="#9aa5b1" stroke-width="1" fill="none"/>`,
    );
  }
  const cell = width / (code.length + 1);
  [...code].forEach((char, index) => {
    const glyph = GLYPHS[char];
    if (!glyph) throw new Error(`no glyph for ${char}`);
    const scale = (height * 0.6) / 16 + jitter(0.08);
    const originX = cell * (index + 0.6) + jitter(3);
    const originY = height * 0.18 + jitter(3);
    const angle = jitter(0.3);
    const cos = Math.cos(angle);
    const sin = Math.sin(angle);
    const d = glyph
      .split(';')
      .map((line) =>
        line
          .split(' ')
          .map((point, i) => {
            const [gx, gy] = point.split(',').map(Number) as [number, number];
            const x = (gx + jitter(0.6)) * scale;
            const y = (gy + jitter(0.6)) * scale;
            const px = originX + x * cos - y * sin;
            const py = originY + x * sin + y * cos;
            return `${i === 0 ? 'M' : 'L'}${px.toFixed(1)} ${py.toFixed(1)}`;
          })
          .join(' '),
      )
      .join(' ');
    const colour = colours[randomInt(colours.length)];
    paths.push(
      `<path d="${d}" stroke="${colour}" stroke-width="${(2 + jitter(0.4)).toFixed(1)}" fill="none" stroke-linecap="round" stroke-linejoin="round"/>`,
    );
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><rect width="100%" height="100%" fill="#f3f6f9"/>${paths.join('')}</svg>`;
}

interface CaptchaDoc {
  codeHash: string;
  expiresAt: string;
}

/** The stored form: bound to its id so one code's hash cannot answer another challenge. */
function codeHash(captchaId: string, code: string): string {
  return sha256Hex(`${captchaId}:${code.trim().toUpperCase()}`);
}

export interface IssuedCaptcha {
  captchaId: string;
  /** data:image/svg+xml;base64,... */
  image: string;
  expiresAt: string;
}

export async function issueCaptcha(
  platform: PlatformHandle,
  now: Date,
  generate: () => string = randomCaptchaCode,
  replaces?: string,
): Promise<IssuedCaptcha> {
  const captchas = platform.collection<CaptchaDoc>(C.captchas);
  // A refresh retires the code it replaces; expired codes are swept as new ones are issued.
  if (replaces) await captchas.deleteOne({ _id: replaces });
  await sweepExpired(platform, now);
  const captchaId = randomUUID();
  const code = generate();
  const expiresAt = new Date(now.getTime() + CAPTCHA_TTL_SECONDS * 1000).toISOString();
  await captchas.insertOne({ _id: captchaId, codeHash: codeHash(captchaId, code), expiresAt });
  const svg = renderCaptchaSvg(code);
  return { captchaId, image: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`, expiresAt };
}

let lastSweep = 0;
async function sweepExpired(platform: PlatformHandle, now: Date): Promise<void> {
  if (now.getTime() - lastSweep < 60_000) return;
  lastSweep = now.getTime();
  const captchas = platform.collection<CaptchaDoc>(C.captchas);
  for (const stale of await captchas.find({ expiresAt: { $lte: now.toISOString() } }, { limit: 500 })) {
    await captchas.deleteOne({ _id: stale._id });
  }
}

/** True when the code answers the challenge; the challenge is consumed either way. */
export async function consumeCaptcha(
  platform: PlatformHandle,
  captchaId: string | undefined,
  code: string | undefined,
  now: Date,
): Promise<boolean> {
  if (!captchaId || !code) return false;
  const captchas = platform.collection<CaptchaDoc>(C.captchas);
  const doc = await captchas.findOne({ _id: captchaId });
  if (!doc) return false;
  const deleted = await captchas.deleteOne({ _id: captchaId });
  if (!deleted) return false; // another request consumed it first
  if (doc.expiresAt <= now.toISOString()) return false;
  return digestsEqual(doc.codeHash, codeHash(captchaId, code));
}
