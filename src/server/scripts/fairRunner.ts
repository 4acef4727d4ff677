// Queued script runs (webhooks, menu items, delayed subroutines), run fairly between owners: at
// most `perOwner` of one owner's at a time and `total` in all, owners taken in turn. One owner's
// flood of looping runs then waits behind itself, not in front of everyone else (one queue for all
// had held another owner's one-line script for 18 s behind 8 looping runs).

export interface FairRunner {
  readonly total: number;
  readonly perOwner: number;
  /** Queues a job of an owner. */
  add(owner: string, job: () => Promise<unknown>): void;
  /** Owners with enough runs running and waiting here: claim none of theirs for now. */
  busyOwners(): string[];
}

export function createFairRunner(opts: {
  total: number;
  perOwner: number;
  /** Called after each job ends, so more can be claimed. */
  onSettled?: () => void;
}): FairRunner {
  const waiting = new Map<string, (() => Promise<unknown>)[]>();
  const running = new Map<string, number>();
  let active = 0;

  function next(): void {
    // Owners in the order they first queued, each taking one turn per pass.
    for (let moved = true; moved && active < opts.total; ) {
      moved = false;
      for (const [owner, jobs] of waiting) {
        if (active >= opts.total) break;
        if ((running.get(owner) ?? 0) >= opts.perOwner) continue;
        const job = jobs.shift()!;
        if (jobs.length === 0) waiting.delete(owner);
        start(owner, job);
        moved = true;
      }
    }
  }

  function start(owner: string, job: () => Promise<unknown>): void {
    active++;
    running.set(owner, (running.get(owner) ?? 0) + 1);
    void job()
      .catch((e) => console.error('scripts: a queued run failed:', e))
      .finally(() => {
        active--;
        const left = (running.get(owner) ?? 1) - 1;
        if (left === 0) running.delete(owner);
        else running.set(owner, left);
        next();
        opts.onSettled?.();
      });
  }

  return {
    total: opts.total,
    perOwner: opts.perOwner,
    add(owner, job) {
      const jobs = waiting.get(owner);
      if (jobs) jobs.push(job);
      else waiting.set(owner, [job]);
      next();
    },
    busyOwners: () =>
      [...new Set([...waiting.keys(), ...running.keys()])].filter(
        (o) => (running.get(o) ?? 0) + (waiting.get(o)?.length ?? 0) >= 2 * opts.perOwner,
      ),
  };
}
