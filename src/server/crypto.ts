// Tokens, hashes and passwords. Secrets are never stored as sent: tokens and access keys as
// base64url SHA3-512 hashes (SENTINEL-API §4, §6), passwords as scrypt hashes.

import {
  createCipheriv,
  createDecipheriv,
  createHash,
  randomBytes,
  randomInt,
  randomUUID,
  scrypt,
  timingSafeEqual,
} from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (pw: string, salt: Buffer, len: number) => Promise<Buffer>;

/** 32 random bytes, base64url without padding: 43 characters (tokens, codes, access keys). */
export const randomToken = (): string => randomBytes(32).toString('base64url');

/** base64url SHA3-512 of the raw bytes a base64url token encodes. */
export const hashToken = (token: string): string =>
  createHash('sha3-512').update(Buffer.from(token, 'base64url')).digest('base64url');

/** The PKCE S256 challenge of a verifier. */
export const pkceChallenge = (verifier: string): string =>
  createHash('sha256').update(verifier).digest('base64url');

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, 32);
  return `scrypt$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64url'), expected.length);
  return timingSafeEqual(actual, expected);
}

// Each refresh token is stored sealed with its access token (as the original encrypts one with the
// other): only a caller holding the access token can read it back, and the database never can.
const keyOf = (token: string) => createHash('sha256').update(token).digest();

export function seal(plain: string, withToken: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(withToken), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

export function unseal(sealed: string, withToken: string): string {
  const raw = Buffer.from(sealed, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', keyOf(withToken), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

/** The millisecond of the last id made and its counter (RFC 9562 §6.2, method 1). */
let last = { ms: -1, counter: 0 };

/**
 * UUID v7: time-ordered, so log message ids sort by arrival. Ids made one after the other for the
 * same millisecond increase in the order they were made: lines that share a time (a poll's chat
 * lines, a game log's whole seconds) list in the order the game said them, not at random. The
 * 12-bit rand_a is the counter, seeded at random below its midpoint so it rarely runs out. The
 * other 62 random bits are a v4 UUID's (randomUUID draws from a cache; randomBytes made a system
 * call per id, 2.5 % of a saturated link's time).
 */
export function uuidv7(now = Date.now()): string {
  if (now === last.ms && last.counter < 0xfff) last.counter++;
  else last = { ms: now, counter: randomInt(0x800) };
  const time = now.toString(16).padStart(12, '0');
  // A v4 UUID's last 17 characters: its variant and 62 random bits.
  return `${time.slice(0, 8)}-${time.slice(8)}-7${last.counter.toString(16).padStart(3, '0')}-${randomUUID().slice(19)}`;
}
