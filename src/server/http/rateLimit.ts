// Fixed one-minute windows per key (user:application, or the client IP when anonymous), in memory:
// one server process answers the console, so nothing needs sharing yet.

export interface RateDecision {
  limit: number;
  remaining: number;
  allowed: boolean;
}

const WINDOW_MS = 60_000;

export function createRateLimiter(now: () => number = Date.now) {
  const windows = new Map<string, { start: number; count: number }>();
  let lastSweep = now();

  return function take(key: string, limit: number): RateDecision {
    const t = now();
    if (t - lastSweep > WINDOW_MS) {
      for (const [k, w] of windows) if (t - w.start >= WINDOW_MS) windows.delete(k);
      lastSweep = t;
    }
    let w = windows.get(key);
    if (!w || t - w.start >= WINDOW_MS) {
      w = { start: t, count: 0 };
      windows.set(key, w);
    }
    w.count += 1;
    return { limit, remaining: Math.max(0, limit - w.count), allowed: w.count <= limit };
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
