// Fixed one-minute windows per key (user:application, or the client IP when anonymous), aligned
// to the minute so every process counts the same window. The count lives in the database
// (rate_limits, unlogged), so the limit holds across server processes.
//
// A database write per request was one of the six queries of a list request under load. Far from
// its limit, a key's requests are counted here and added to the shared count with one write per
// key every FLUSH_MS; within NEAR of the limit each request waits for its own write, so the
// refusal is decided on the shared count. The only lag is other processes' unflushed requests, at
// most FLUSH_MS old; the Remaining header is that approximate far from the limit.

import type { Queryable } from '../db/db.ts';

export interface RateDecision {
  limit: number;
  remaining: number;
  allowed: boolean;
}

const WINDOW_MS = 60_000;
const FLUSH_MS = 100;
/** Requests before the limit from which every request is written before it is answered. */
const near = (limit: number) => Math.max(20, Math.ceil(limit * 0.05));

const windowOf = (t: number) => t - (t % WINDOW_MS);
const decide = (count: number, limit: number): RateDecision => ({
  limit,
  remaining: Math.max(0, limit - count),
  allowed: count <= limit,
});

interface KeyWindow {
  start: number;
  /** The shared count as last written or read: a lower bound of it. */
  shared: number;
  /** This process's requests not yet added to it. */
  pending: number;
}

export function createSharedRateLimiter(db: Queryable, now: () => number = Date.now) {
  const windows = new Map<string, KeyWindow>();
  let flushTimer: NodeJS.Timeout | undefined;
  let lastSweep = 0;

  async function add(key: string, w: KeyWindow, n: number): Promise<number> {
    const { rows } = await db.query<{ count: number }>(
      `INSERT INTO rate_limits (key, window_start, count) VALUES ($1, to_timestamp($2), $3)
       ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + $3
       RETURNING count`,
      [key, w.start / 1000, n],
      'rate-limit-add',
    );
    // Writes may return out of order; the count only grows.
    w.shared = Math.max(w.shared, rows[0].count);
    return rows[0].count;
  }

  async function flush(): Promise<void> {
    clearTimeout(flushTimer);
    flushTimer = undefined;
    const writes = [];
    for (const [key, w] of windows) {
      if (w.pending === 0) continue;
      writes.push(add(key, w, w.pending));
      w.pending = 0;
    }
    await Promise.all(writes);
  }

  function flushSoon(): void {
    flushTimer ??= setTimeout(() => {
      flush().catch((e) => console.error('rate limits: writing counts failed', (e as Error).message));
    }, FLUSH_MS);
    flushTimer.unref();
  }

  function sweep(t: number, start: number): void {
    if (t - lastSweep < WINDOW_MS) return;
    lastSweep = t;
    for (const [k, w] of windows) if (w.start < start) windows.delete(k);
    db.query('DELETE FROM rate_limits WHERE window_start < to_timestamp($1)', [start / 1000]).catch((e) =>
      console.error('rate limits: sweeping old windows failed', (e as Error).message),
    );
  }

  async function take(key: string, limit: number): Promise<RateDecision> {
    const t = now();
    const start = windowOf(t);
    sweep(t, start);
    let w = windows.get(key);
    if (!w || w.start !== start) {
      w = { start, shared: 0, pending: 0 };
      windows.set(key, w);
    }
    const known = w.shared + w.pending;
    // Already over: refused without a write (counted with the next flush).
    if (known >= limit || limit - (known + 1) >= near(limit)) {
      w.pending += 1;
      flushSoon();
      return decide(known + 1, limit);
    }
    const n = w.pending + 1;
    w.pending = 0;
    return decide(await add(key, w, n), limit);
  }

  /** `flush` writes the counts still held here (before the database closes). */
  return { take, flush };
}

/** How long a refusal is held before it is sent. */
const HOLD_MS = 1_000;
/** Refusals held at once at most; past it they are sent at once. */
const HELD_MAX = 256;

/**
 * Holds a refusal for a second before it is sent. A client that sends one request after another
 * into its limit (a script in a loop) was refused about 2,000 times a second, each a request the
 * API's thread handled while the consoles' waited (bench/automation); held, it sends one a second
 * per connection. A held refusal costs a timer; past HELD_MAX at once the rest are sent at once,
 * so many connections cannot make the process hold more. Well-behaved clients wait for
 * Retry-After anyway.
 */
export function refusalHold(): () => Promise<void> {
  let held = 0;
  return async () => {
    if (held >= HELD_MAX) return;
    held++;
    try {
      await new Promise((r) => setTimeout(r, HOLD_MS));
    } finally {
      held--;
    }
  };
}
