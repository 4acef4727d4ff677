// Who sent a bearer token: the session and its application's rate limit, remembered for a few
// seconds so that a request spends no database read on it (under 100 concurrent clients the
// session and application reads were two of a list request's six queries). A deleted session
// (sign-out, refresh rotation) is forgotten here at once and, over the bus, in every other
// process; the time limit only bounds how long a bus message lost in an outage could matter.

import type { Bus } from '../cluster/bus.ts';
import { hashToken } from '../crypto.ts';
import type { Queryable } from '../db/db.ts';
import type { Caller } from './auth.ts';

export interface CallerInfo extends Caller {
  /** Requests per minute of the caller's application; null for the server's default. */
  rateLimit: number | null;
}

export interface Callers {
  /** The caller a token belongs to, or null for an unknown or expired one. */
  find(token: string): Promise<CallerInfo | null>;
  /** Call after the sessions' rows are deleted and committed. */
  revoke(accessTokenHashes: string[]): Promise<void>;
}

const REMEMBER_MS = 10_000;
const MAX_REMEMBERED = 10_000;
const TOPIC = 'sessionsRevoked';

type Remembered = Omit<CallerInfo, 'accessToken'>;

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
    async find(token) {
      const hash = hashToken(token);
      const hit = known.get(hash);
      if (hit && hit.until > now()) return { ...hit.caller, accessToken: token };
      known.delete(hash);
      const began = generation;
      const { rows } = await db.query<Remembered & { expiresMs: number }>(
        `SELECT s.user_id AS "userId", s.application_id AS "applicationId", s.scopes,
                a.rate_limit AS "rateLimit", (extract(epoch FROM s.access_expires) * 1000)::float8 AS "expiresMs"
           FROM sessions s LEFT JOIN applications a ON a.application_id = s.application_id
          WHERE s.access_token_hash = $1 AND s.access_expires > now()`,
        [hash],
        'caller',
      );
      const row = rows[0];
      if (!row) return null;
      const { expiresMs, ...caller } = row;
      if (generation === began) remember(hash, caller, Math.min(now() + REMEMBER_MS, expiresMs));
      return { ...caller, accessToken: token };
    },
    async revoke(hashes) {
      forget(hashes);
      await bus.publish(TOPIC, hashes);
    },
  };
}
