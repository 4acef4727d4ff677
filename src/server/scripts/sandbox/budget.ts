// Script time per account: how long one account's JavaScript runs may keep a sandbox thread busy.
// Fairness between owners (fairRunner.ts) orders runs but lets one account keep a thread busy for
// good: eight endless runs topped up as they ended held one of this machine's two cores, and every
// other user's requests waited behind it (p99 2.5-2.8x). So each account has a bucket of running
// time, refilled at a steady rate up to a burst; a run may use what the bucket holds, and while it
// is empty the sandbox refuses the account's runs, saying when they can start again (the engine
// leaves the account's queued runs queued meanwhile: engine.ts). Only a script's own
// running time counts (its waits for the server do not), so an ordinary script of a few
// milliseconds never notices. Free tiers of hosted script runners cap running time the same way.

export interface ScriptTimeBudget {
  /** The running time `actor` may use now, in ms; 0 when their bucket is empty. */
  available(actor: string): number;
  /** How long until `actor` has running time again, in ms (0: now). */
  waitMs(actor: string): number;
  /**
   * Takes `ms` of running time from `actor`'s bucket (a run may end slightly past what it had).
   * `cut`: the run was ended for want of time; the account then waits until it has RESUME_MS
   * again, rather than starting run after run on the few milliseconds each moment earns.
   */
  charge(actor: string, ms: number, cut?: boolean): void;
  /** The accounts that may not start a run now. */
  outOfTime(): string[];
  /** What the operator allowed, for messages. */
  readonly secondsPerMinute: number;
}

export interface BudgetOptions {
  /** Running time an account earns a minute. */
  secondsPerMinute: number;
  /** The most it can save up, in seconds: a burst of runs after a quiet while. */
  burstSeconds: number;
  now?: () => number;
}

interface Bucket {
  ms: number;
  at: number;
  /** Ended a run for want of time: runs start again from this much. */
  resumeMs: number;
}

const RESUME_MS = 1_000;

export function createScriptTimeBudget(opts: BudgetOptions): ScriptTimeBudget {
  const now = opts.now ?? (() => performance.now());
  const perMs = opts.secondsPerMinute / 60;
  const burstMs = opts.burstSeconds * 1000;
  const buckets = new Map<string, Bucket>();

  /** The bucket as of now; a full one is forgotten, so only accounts that ran lately take memory. */
  function level(actor: string): number {
    const b = buckets.get(actor);
    if (!b) return burstMs;
    const t = now();
    const ms = Math.min(burstMs, b.ms + (t - b.at) * perMs);
    if (ms >= burstMs) {
      buckets.delete(actor);
      return burstMs;
    }
    b.ms = ms;
    b.at = t;
    if (ms >= b.resumeMs) b.resumeMs = 0;
    return ms;
  }
  /** Running time short of what a run needs to start: 0 when one may start. */
  const short = (actor: string) => {
    const ms = level(actor);
    const need = Math.max(buckets.get(actor)?.resumeMs ?? 0, Number.MIN_VALUE);
    return ms >= need ? 0 : need - ms;
  };

  return {
    secondsPerMinute: opts.secondsPerMinute,
    outOfTime: () => [...buckets.keys()].filter((a) => short(a) > 0),
    available: (actor) => Math.max(0, level(actor)),
    waitMs(actor) {
      const missing = short(actor);
      return missing === 0 ? 0 : perMs > 0 ? Math.ceil(missing / perMs) : Number.POSITIVE_INFINITY;
    },
    charge(actor, ms, cut = false) {
      const left = level(actor) - ms;
      const resumeMs = cut ? Math.min(burstMs, RESUME_MS) : (buckets.get(actor)?.resumeMs ?? 0);
      buckets.set(actor, { ms: left, at: now(), resumeMs });
    },
  };
}
