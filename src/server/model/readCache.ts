// What the hot paths look up for every game event (a server's names, its groups, how it
// connects, the scripts it runs) changes only when someone writes through the API, a thousand
// times rarer. So each process keeps those answers until any write request ends, in this
// process or, over the bus, in another one on the same database; and never longer than
// MAX_AGE_MS (SETTINGS_MAX_AGE_MS for what only the API changes), so a write that reached the
// database some other way is seen soon anyway.

import type { Bus } from '../cluster/bus.ts';

export const MAX_AGE_MS = 5_000;
/**
 * What changes only through the API (a server's names, groups and attached scripts, how it
 * connects, who may see or control it) is kept up to a minute: each such change is a write
 * request, which makes every process forget at once, so the minute only bounds what a lost bus
 * message or a change made in the database by hand leaves stale. Kept five seconds, 500 servers'
 * answers were read again 300 times a second.
 */
export const SETTINGS_MAX_AGE_MS = 60_000;
/** Keys are few (servers × event kinds), but typed command keywords are anyone's words. */
const MAX_ENTRIES = 10_000;

export interface ReadCache {
  /**
   * The answer kept for `key`, or `load`'s, shared by every caller until it is stale: after the
   * next write, or the cache's age (answers the game changes: totals, searches).
   */
  get<T>(key: string, load: () => Promise<T>): Promise<T>;
  /** As `get`, for what only the API changes: kept up to SETTINGS_MAX_AGE_MS. */
  setting<T>(key: string, load: () => Promise<T>): Promise<T>;
  /** Answers held, stale ones among them until the next sweep. */
  readonly size: number;
  /** Something was written: every answer read before now may be stale. */
  invalidate(): void;
}

export function createReadCache(maxAgeMs = MAX_AGE_MS, now: () => number = Date.now): ReadCache {
  const kept = new Map<string, { value: Promise<unknown>; until: number }>();
  /** Bumped by each write: a load that started before one is used once but not kept. */
  let epoch = 0;
  let swept = now();
  /**
   * Stale answers are dropped once per age, so what is held is what the last two ages read: the
   * dino searches keep thousands of ids under keys anyone can type, and a quiet spell without
   * writes would otherwise hold them until MAX_ENTRIES.
   */
  const sweep = () => {
    if (now() - swept < maxAgeMs) return;
    swept = now();
    for (const [key, entry] of kept) if (swept >= entry.until) kept.delete(key);
  };
  return {
    get size() {
      return kept.size;
    },
    get: <T>(key: string, load: () => Promise<T>) => keep(key, load, maxAgeMs),
    setting: <T>(key: string, load: () => Promise<T>) => keep(key, load, SETTINGS_MAX_AGE_MS),
    invalidate() {
      epoch++;
      kept.clear();
    },
  };

  function keep<T>(key: string, load: () => Promise<T>, ageMs: number): Promise<T> {
    sweep();
    const hit = kept.get(key);
    if (hit && now() < hit.until) return hit.value as Promise<T>;
    const started = epoch;
    const value = load();
    if (kept.size >= MAX_ENTRIES) kept.clear();
    kept.set(key, { value, until: now() + ageMs });
    value.then(
      () => {
        if (epoch !== started && kept.get(key)?.value === value) kept.delete(key);
      },
      () => {
        if (kept.get(key)?.value === value) kept.delete(key);
      },
    );
    return value;
  }
}

const STALE = 'reads.stale';

/** A cache whose writes make the other processes on the bus forget too, and theirs this one. */
export function sharedReadCache(bus: Bus): ReadCache {
  const local = createReadCache();
  bus.on(STALE, () => local.invalidate());
  return {
    get: local.get,
    setting: local.setting,
    get size() {
      return local.size;
    },
    invalidate() {
      local.invalidate();
      bus.publish(STALE, null).catch((e) => console.error('reads: telling the others failed:', e));
    },
  };
}
