// Who sent a bearer token: the session and its application's rate limit, remembered for a few
// seconds so that a request spends no database read on it (under 100 concurrent clients the
// session and application reads were two of a list request's six queries). A deleted session
// (sign-out, refresh rotation) is forgotten here at once and, over the bus, in every other
// process; the time limit only bounds how long a bus message lost in an outage could matter.

import { TOKEN_PREFIX } from '../../domain/access.ts';
import type { Bus } from '../cluster/bus.ts';
import { hashToken } from '../crypto.ts';
import type { Queryable } from '../db/db.ts';
import type { Caller } from './auth.ts';

export interface CallerInfo extends Caller {
  /** Requests per minute of the caller's application; null for the server's default. */
  rateLimit: number | null;
}

export interface Callers {
  /**
   * The caller a token belongs to, or null for an unknown, expired or revoked one. `address` is
   * kept as the device's or token's last use when the token is read from the database.
   */
  find(token: string, address?: string): Promise<CallerInfo | null>;
  /** Call after the sessions' rows are deleted and committed. */
  revoke(accessTokenHashes: string[]): Promise<void>;
}

const REMEMBER_MS = 10_000;
const MAX_REMEMBERED = 10_000;
const TOPIC = 'sessionsRevoked';

type Remembered = Omit<CallerInfo, 'accessToken'>;

const SESSION_SQL = `SELECT s.user_id AS "userId", s.application_id AS "applicationId", s.scopes, s.family_id AS "familyId",
         a.rate_limit AS "rateLimit", (extract(epoch FROM s.access_expires) * 1000)::float8 AS "expiresMs"
    FROM sessions s LEFT JOIN applications a ON a.application_id = s.application_id
   WHERE s.access_token_hash = $1 AND s.access_expires > now()`;

// A token acts as its principal (its maker, or its own for one limited to a group or server) and
// is rate limited apart from its maker's sign-ins.
const API_TOKEN_SQL = `SELECT t.principal_id AS "userId", 'token:' || t.token_id AS "applicationId", t.scopes,
         t.token_id AS "tokenId", t.principal_id <> t.user_id AS "limited", NULL::int AS "rateLimit", (extract(epoch FROM t.expires) * 1000)::float8 AS "expiresMs"
    FROM api_tokens t JOIN users u ON u.user_id = t.user_id AND NOT u.banned
   WHERE t.token_hash = $1 AND t.revoked IS NULL AND t.expires > now()`;

/**
 * The last use of a device or token, at most once a minute each (a read from the database happens
 * at most every REMEMBER_MS per process anyway). Losing one is harmless: the next use writes it.
 */
async function lastUse(db: Queryable, caller: Remembered, address: string): Promise<void> {
  const [sql, id] = caller.tokenId
    ? ['UPDATE api_tokens SET last_used = now(), last_address = $2 WHERE token_id = $1', caller.tokenId]
    : ['UPDATE sign_ins SET last_used = now(), last_address = $2 WHERE family_id = $1', caller.familyId];
  if (!id) return;
  try {
    await db.query(`${sql} AND (last_used IS NULL OR last_used < now() - interval '1 minute')`, [
      id,
      address,
    ]);
  } catch (err) {
    console.error('callers: recording a last use failed:', (err as Error).message);
  }
}

export function createCallers(db: Queryable, bus: Bus, now: () => number = Date.now): Callers {
  const known = new Map<string, { caller: Remembered; until: number }>();
  /** Bumped by every revocation: a read that began before one must not be remembered. */
  let generation = 0;
  const forget = (hashes: unknown) => {
    generation += 1;
    if (Array.isArray(hashes)) for (const h of hashes) known.delete(String(h));
  };
  bus.on(TOPIC, forget);

  function remember(hash: string, caller: Remembered, until: number): void {
    if (known.size >= MAX_REMEMBERED) {
      const t = now();
      for (const [k, v] of known) if (v.until <= t) known.delete(k);
      if (known.size >= MAX_REMEMBERED) known.clear();
    }
    known.set(hash, { caller, until });
  }

  return {
    async find(token, address) {
      const hash = hashToken(token);
      const hit = known.get(hash);
      if (hit && hit.until > now()) return { ...hit.caller, accessToken: token };
      known.delete(hash);
      const began = generation;
      const { rows } = await db.query<Remembered & { expiresMs: number }>(
        token.startsWith(TOKEN_PREFIX) ? API_TOKEN_SQL : SESSION_SQL,
        [hash],
        token.startsWith(TOKEN_PREFIX) ? 'caller_token' : 'caller',
      );
      const row = rows[0];
      if (!row) return null;
      const { expiresMs, ...caller } = row;
      if (address) void lastUse(db, caller, address);
      if (generation === began) remember(hash, caller, Math.min(now() + REMEMBER_MS, expiresMs));
      return { ...caller, accessToken: token };
    },
    async revoke(hashes) {
      forget(hashes);
      await bus.publish(TOPIC, hashes);
    },
  };
}
