// The second factor of a sign-in: an authenticator's code (TOTP, RFC 6238, computed by the
// otpauth library rather than by hand) or a one-time backup code. One check serves the sign-in
// page and the account's own changes (turning two-factor off, new backup codes), and every check
// is counted against the account, so guessing a 6-digit code waits as guessing a password does.

import { randomInt } from 'node:crypto';
import { Secret, TOTP as Totp } from 'otpauth';
import {
  ACCESS_MESSAGES,
  BACKUP_CODE,
  BACKUP_CODE_COUNT,
  normalBackupCode,
  TOTP,
} from '../../domain/access.ts';
import { hashPassword, seal, unseal, verifyPassword } from '../crypto.ts';
import type { Queryable } from '../db/db.ts';
import { ApiException } from '../http/errors.ts';
import { claimAttempt, clearFailures } from '../model/signInBackoff.ts';

/** The authenticator of a secret, labelled as the app lists it: "Palisade (name)". */
const authenticator = (secret: string, label = '') =>
  new Totp({
    issuer: TOTP.issuer,
    label,
    algorithm: 'SHA1',
    digits: TOTP.digits,
    period: TOTP.period,
    secret: Secret.fromBase32(secret),
  });

/** A new secret: 160 bits, RFC 4226 §4's recommendation, in base32 as apps take it typed. */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

/** The otpauth:// address an authenticator app scans, labelled with the account's email. */
export const totpUri = (secret: string, label: string): string => authenticator(secret, label).toString();

/** The time step a code is good for (now, or one step either side), or null. */
export function totpStep(secret: string, code: string, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = authenticator(secret).validate({ token: code, timestamp: now, window: TOTP.window });
  return delta === null ? null : Math.floor(now / 1000 / TOTP.period) + delta;
}

/**
 * Authenticator secrets are kept sealed with the server's key (PALISADE_RCON_KEY, which seals
 * RCON passwords too): a copy of the database alone makes no codes.
 */
export const sealSecret = (secret: string, key: string): string => seal(secret, key);
export const unsealSecret = (sealed: string, key: string): string => unseal(sealed, key);

/** Accepts the code's step once: a later step than any accepted before (RFC 6238 §5.2). */
async function claimStep(
  tx: Queryable,
  key: string,
  userId: string,
  code: string,
  enabledOnly: boolean,
): Promise<boolean> {
  const { rows } = await tx.query<{ secret: string }>(
    `SELECT secret FROM totp_secrets WHERE user_id = $1 ${enabledOnly ? 'AND enabled IS NOT NULL' : ''}`,
    [userId],
  );
  const step = rows[0] ? totpStep(unsealSecret(rows[0].secret, key), code) : null;
  if (step === null) return false;
  const claimed = await tx.query(
    'UPDATE totp_secrets SET last_step = $2 WHERE user_id = $1 AND last_step < $2 RETURNING 1',
    [userId, step],
  );
  return claimed.rows.length > 0;
}

/** Uses up a backup code that matches; each is a salted scrypt hash, as a password is. */
async function claimBackupCode(tx: Queryable, userId: string, code: string): Promise<boolean> {
  if (!BACKUP_CODE.test(code.trim())) return false;
  const typed = normalBackupCode(code);
  const { rows } = await tx.query<{ code_hash: string }>(
    'SELECT code_hash FROM backup_codes WHERE user_id = $1 AND used IS NULL',
    [userId],
  );
  for (const r of rows)
    if (await verifyPassword(typed, r.code_hash)) {
      const used = await tx.query(
        'UPDATE backup_codes SET used = now() WHERE user_id = $1 AND code_hash = $2 AND used IS NULL RETURNING 1',
        [userId, r.code_hash],
      );
      return used.rows.length > 0;
    }
  return false;
}

const attemptKey = (userId: string) => `second-factor:${userId}`;

/**
 * Checks a code typed as the second factor: 'totp' or 'backup' when it is good (and now used),
 * else throws. Waits after five wrong codes as sign-in does after five wrong passwords. Call it
 * outside a transaction: a wrong code must stay counted when the request fails.
 * `pendingTotp`: the code confirms an authenticator being set up.
 */
export async function checkSecondFactor(
  db: Queryable,
  key: string,
  userId: string,
  code: string,
  opts: { pendingTotp?: boolean } = {},
): Promise<'totp' | 'backup'> {
  const typed = code.trim();
  if (!typed) throw new ApiException(400, ACCESS_MESSAGES.codeMissing, 'codeMissing');
  const wait = await claimAttempt(db, attemptKey(userId));
  if (wait > 0)
    throw new ApiException(429, ACCESS_MESSAGES.tooManyCodes(wait), 'tooManyCodes', null, {
      'Retry-After': String(wait),
    });
  const kind = (await claimStep(db, key, userId, typed, !opts.pendingTotp))
    ? 'totp'
    : !opts.pendingTotp && (await claimBackupCode(db, userId, typed))
      ? 'backup'
      : null;
  if (!kind) throw new ApiException(400, ACCESS_MESSAGES.codeInvalid, 'codeInvalid');
  await clearFailures(db, attemptKey(userId));
  return kind;
}

const CODE_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const backupCode = () => {
  const c = Array.from({ length: 10 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');
  return `${c.slice(0, 5)}-${c.slice(5)}`;
};

/** A new set of backup codes, replacing the old: the codes, shown once; only their hashes are kept. */
export async function newBackupCodes(tx: Queryable, userId: string): Promise<string[]> {
  const codes = Array.from({ length: BACKUP_CODE_COUNT }, backupCode);
  const hashes = await Promise.all(codes.map((c) => hashPassword(normalBackupCode(c))));
  await tx.query('DELETE FROM backup_codes WHERE user_id = $1', [userId]);
  await tx.query('INSERT INTO backup_codes (user_id, code_hash) SELECT $1, unnest($2::text[])', [
    userId,
    hashes,
  ]);
  return codes;
}

/** Keeps users.second_factor (read by the permission views) true while the account has one. */
export async function syncSecondFactor(tx: Queryable, userId: string): Promise<boolean> {
  const { rows } = await tx.query<{ on: boolean }>(
    `UPDATE users SET second_factor = EXISTS (SELECT 1 FROM totp_secrets WHERE user_id = $1 AND enabled IS NOT NULL)
                                   OR EXISTS (SELECT 1 FROM passkeys WHERE user_id = $1)
      WHERE user_id = $1 RETURNING second_factor AS on`,
    [userId],
  );
  return rows[0]?.on ?? false;
}
