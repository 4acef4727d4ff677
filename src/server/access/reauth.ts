// The password asked again before a change that could lock the owner out of their account (a
// second factor turned on or added): a stolen session alone must not be able to take it over.
// Wrong passwords here count as wrong sign-ins of the account's address do.

import { ACCESS_MESSAGES } from '../../domain/access.ts';
import { verifyPassword } from '../crypto.ts';
import type { Queryable } from '../db/db.ts';
import { ApiException } from '../http/errors.ts';
import { claimAttempt, clearFailures } from '../model/signInBackoff.ts';

/** Throws unless `password` is the account's; call it outside a transaction, so a miss stays counted. */
export async function confirmPassword(db: Queryable, userId: string, password: string): Promise<void> {
  if (!password)
    throw new ApiException(400, ACCESS_MESSAGES.passwordMissing, 'passwordMissing', { field: 'password' });
  const { rows } = await db.query<{ email: string; password_hash: string }>(
    'SELECT email, password_hash FROM users WHERE user_id = $1',
    [userId],
  );
  const email = rows[0]?.email ?? '';
  const wait = await claimAttempt(db, email);
  if (wait > 0)
    throw new ApiException(429, ACCESS_MESSAGES.tooManyPasswords(wait), 'tooManyPasswords', null, {
      'Retry-After': String(wait),
    });
  if (!rows[0] || !(await verifyPassword(password, rows[0].password_hash)))
    throw new ApiException(400, ACCESS_MESSAGES.passwordWrong, 'passwordWrong', { field: 'password' });
  await clearFailures(db, email);
}
