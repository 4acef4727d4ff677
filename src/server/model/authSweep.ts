// Deletes what sign-in leaves behind once it can no longer be used: expired flows (every
// anonymous GET /v4/login makes one), sessions, rotated refresh tokens, policy requests and old
// sign-in failures, signed-in devices with no session left. Each round deletes at most BATCH rows per table, so a sweep never holds the
// database long; a full batch is followed by another round, up to MAX_ROUNDS.

import type { Queryable } from '../db/db.ts';
import { FAILURE_MEMORY } from './signInBackoff.ts';

const BATCH = 1000;
const MAX_ROUNDS = 10;

/** Each table's key and the condition under which a row is of no further use. */
const EXPIRED: { table: string; key: string; expired: string }[] = [
  // A redeemed code's flow is kept until the code would have expired, to recognise its replay.
  {
    table: 'auth_flows',
    key: 'flow_id',
    expired: 'expires < now() AND (code_expires IS NULL OR code_expires < now())',
  },
  { table: 'sessions', key: 'access_token_hash', expired: 'refresh_expires < now()' },
  { table: 'rotated_refresh_tokens', key: 'refresh_token_hash', expired: 'expires < now()' },
  // The same day policy_signing_requests are honoured for (routes/users.ts).
  { table: 'policy_signing_requests', key: 'request_id', expired: "created < now() - interval '1 day'" },
  // A device whose sessions all expired (a minute's grace: its first session is written just after).
  {
    table: 'sign_ins',
    key: 'family_id',
    expired:
      "created < now() - interval '1 minute' AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.family_id = sign_ins.family_id)",
  },
  { table: 'sign_in_failures', key: 'email', expired: `last_failure < now() - interval '${FAILURE_MEMORY}'` },
];

/** One sweep; resolves to the number of rows deleted. */
export async function sweepExpiredAuth(db: Queryable, batch = BATCH): Promise<number> {
  let total = 0;
  for (const { table, key, expired } of EXPIRED) {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const { rows } = await db.query(
        `DELETE FROM ${table} WHERE ${key} IN (SELECT ${key} FROM ${table} WHERE ${expired} LIMIT $1) RETURNING 1`,
        [batch],
      );
      total += rows.length;
      if (rows.length < batch) break;
    }
  }
  return total;
}
