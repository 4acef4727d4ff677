// Fixed one-minute windows per key (user:application, or the client IP when anonymous), aligned
// to the minute so every process counts the same window. The count that decides lives in the
// database (rate_limits), so the limit holds across server processes; the in-memory count in
// front of it is a lower bound of that, and refuses a flood without a database write per request.

import type { Queryable } from '../db/db.ts';

export interface RateDecision {
  limit: number;
  remaining: number;
  allowed: boolean;
}

const WINDOW_MS = 60_000;
/** Old windows are deleted this often, by whichever request comes first after it. */
const SWEEP_MS = 60_000;

const windowOf = (t: number) => t - (t % WINDOW_MS);
const decide = (count: number, limit: number): RateDecision => ({
  limit,
  remaining: Math.max(0, limit - count),
  allowed: count <= limit,
});

/** This process's own counts. */
export function createRateLimiter(now: () => number = Date.now) {
  const windows = new Map<string, { start: number; count: number }>();
  let lastSweep = now();

  return function take(key: string, limit: number): RateDecision {
    const t = now();
    const start = windowOf(t);
    if (t - lastSweep > WINDOW_MS) {
      for (const [k, w] of windows) if (w.start < start) windows.delete(k);
      lastSweep = t;
    }
    let w = windows.get(key);
    if (!w || w.start !== start) {
      w = { start, count: 0 };
      windows.set(key, w);
    }
    w.count += 1;
    return decide(w.count, limit);
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;

/** Counts shared by every process on the database. */
export function createSharedRateLimiter(db: Queryable, now: () => number = Date.now) {
  const local = createRateLimiter(now);
  let lastSweep = 0;

  return async function take(key: string, limit: number): Promise<RateDecision> {
    const mine = local(key, limit);
    if (!mine.allowed) return mine;
    const t = now();
    const start = windowOf(t);
    if (t - lastSweep > SWEEP_MS) {
      lastSweep = t;
      db.query('DELETE FROM rate_limits WHERE window_start < to_timestamp($1)', [start / 1000]).catch((e) =>
        console.error('rate limits: sweeping old windows failed', (e as Error).message),
      );
    }
    const { rows } = await db.query<{ count: number }>(
      `INSERT INTO rate_limits (key, window_start, count) VALUES ($1, to_timestamp($2), 1)
       ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + 1
       RETURNING count`,
      [key, start / 1000],
    );
    return decide(rows[0].count, limit);
  };
}
