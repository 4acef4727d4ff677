// Per-account back-off for password guessing, beside the per-address rate limit: after a few
// failures for one email address, each further attempt waits twice as long as the last (capped).
// Kept per address typed, known or not, so that the back-off tells nothing about which exist.

import type { Queryable } from '../db/db.ts';

/** Failures allowed before the first wait. */
export const FREE_FAILURES = 5;
/** The longest wait, in seconds: an owner locked out by a guesser waits no longer than this. */
export const MAX_WAIT_S = 900;
/** Failures older than this are forgotten. */
export const FAILURE_MEMORY = '1 day';

/** Seconds until this address may try again. */
async function secondsLocked(db: Queryable, email: string): Promise<number> {
  const { rows } = await db.query<{ wait: number }>(
    'SELECT ceil(extract(epoch FROM locked_until - now()))::int AS wait FROM sign_in_failures WHERE email = $1',
    [email],
  );
  return Math.max(1, rows[0]?.wait ?? 1);
}

/**
 * Counts an attempt as a failure before the password is checked, unless the address must wait:
 * 0 when it may go on, else the seconds to wait. One statement checks and counts, so a burst of
 * parallel guesses cannot all pass the check before any of them is counted; from the
 * FREE_FAILURES-th on, the address waits 1, 2, 4, … seconds. Success clears the count.
 */
export async function claimAttempt(db: Queryable, email: string): Promise<number> {
  const key = email.toLowerCase();
  const { rows } = await db.query(
    `INSERT INTO sign_in_failures AS f (email, failures, locked_until) VALUES ($1, 1, now())
     ON CONFLICT (email) DO UPDATE SET
       failures = CASE WHEN f.last_failure < now() - $2::interval THEN 1 ELSE f.failures + 1 END,
       last_failure = now(),
       locked_until = CASE WHEN f.last_failure >= now() - $2::interval AND f.failures + 1 >= $3
         THEN now() + least($4, 2 ^ (f.failures + 1 - $3)) * interval '1 second' ELSE now() END
     WHERE f.locked_until <= now()
     RETURNING 1`,
    [key, FAILURE_MEMORY, FREE_FAILURES, MAX_WAIT_S],
  );
  return rows.length > 0 ? 0 : secondsLocked(db, key);
}

export async function clearFailures(db: Queryable, email: string): Promise<void> {
  await db.query('DELETE FROM sign_in_failures WHERE email = $1', [email.toLowerCase()]);
}
