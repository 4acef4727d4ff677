// A long list of bans is handled in batches, in the background of other requests: each batch is
// followed by a pause as many times as long as the server's thread was busy with it, and by what
// it left running (its commands' answers).

import { afterEach, describe, expect, it, vi } from 'vitest';
import { BAN_BATCH, BAN_PAUSE_FACTOR, type BusyMeter, inBanBatches } from '../../src/server/model/ban.ts';

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
