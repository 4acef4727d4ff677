// A long list of bans is handled in batches, in the background of other requests: each batch is
// followed by a pause as many times as long as the server's thread was busy with it, and by what
// it left running (its commands' answers).

import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Connection } from '../../src/server/db/db.ts';
import {
  BAN_BATCH,
  BAN_PAUSE_FACTOR,
  type BusyMeter,
  batchCost,
  inBanBatches,
} from '../../src/server/model/ban.ts';

afterEach(() => vi.useRealTimers());

/** A thread busy `ms` during every batch, whatever the clock says. */
const busyFor =
  (ms: number): BusyMeter =>
  () =>
  () =>
    ms;

describe('inBanBatches', () => {
  it('hands every item over once, in order, a batch at a time, pausing after each for its busy time × the factor', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] });
    const items = Array.from({ length: 2 * BAN_BATCH + 7 }, (_, i) => i);
    const batches: { at: number; items: number[] }[] = [];
    const done = inBanBatches(
      items,
      async (batch) => {
        batches.push({ at: performance.now(), items: batch });
        // Each batch takes 10 ms of the (fake) clock, of which the thread was busy 4.
        await new Promise((r) => setTimeout(r, 10));
      },
      busyFor(4),
    );
    await vi.runAllTimersAsync();
    await done;

    expect(batches.map((b) => b.items.length)).toEqual([BAN_BATCH, BAN_BATCH, 7]);
    expect(batches.flatMap((b) => b.items)).toEqual(items);
    const gap = 10 + 4 * BAN_PAUSE_FACTOR;
    expect(batches.map((b) => b.at - batches[0]!.at)).toEqual([0, gap, 2 * gap]);
  });

  it('starts the next batch once what a batch left running has settled, and not before its pause', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] });
    const starts: number[] = [];
    const done = inBanBatches(
      Array.from({ length: 3 * BAN_BATCH }, (_, i) => i),
      (_, first) => {
        starts.push(performance.now());
        // The first batch's answers take 100 ms; the second's none.
        return { settled: new Promise((r) => setTimeout(r, first === 0 ? 100 : 0)) };
      },
      busyFor(2),
    );
    await vi.runAllTimersAsync();
    await done;
    expect(starts).toEqual([0, 100 + 2 * BAN_PAUSE_FACTOR, 100 + 4 * BAN_PAUSE_FACTOR]);
  });

  it('does not pause after the last batch, nor wait for what it left running', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] });
    let finishedAt = -1;
    const started = performance.now();
    const done = inBanBatches(
      [1, 2, 3],
      async () => {
        await new Promise((r) => setTimeout(r, 10));
        return { settled: new Promise(() => {}) };
      },
      busyFor(10),
    ).then(() => {
      finishedAt = performance.now();
    });
    await vi.runAllTimersAsync();
    await done;
    expect(finishedAt - started).toBe(10);
  });
});

describe('batchCost', () => {
  /** A background connection whose database process has used `cpu.ms` so far. */
  const connection = (cpu: { ms: number }) =>
    ({
      query: async () => ({ rows: [] }),
      exec: async () => {},
      cpuMs: () => cpu.ms,
    }) as unknown as Connection;

  it("adds the time a background connection's database process used during the batch to the thread's", () => {
    const cpu = { ms: 1_000 };
    const withProcess = batchCost(connection(cpu))();
    const threadOnly = batchCost()();
    cpu.ms += 40;
    // Read after the thread alone, from an earlier start: at least its busy time, plus the 40 ms.
    const thread = threadOnly();
    expect(withProcess() - thread).toBeGreaterThanOrEqual(40);
  });

  it('counts no time of a process that ended (its time reads 0) and none of a pooled database', () => {
    const cpu = { ms: 1_000 };
    // The thread alone is measured over a span holding the others'.
    const threadOnly = batchCost()();
    const gone = batchCost(connection(cpu))();
    const pooled = batchCost({ query: async () => ({ rows: [] }), exec: async () => {} })();
    cpu.ms = 0;
    const [g, p] = [gone(), pooled()];
    const thread = threadOnly();
    expect(g).toBeGreaterThanOrEqual(0);
    expect(g).toBeLessThanOrEqual(thread);
    expect(p).toBeLessThanOrEqual(thread);
  });
});
