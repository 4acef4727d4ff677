// A long list of bans is handled in batches, in the background of other requests: each batch is
// followed by a pause as many times as long as it took.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { BAN_BATCH, BAN_PAUSE_FACTOR, inBanBatches } from '../../src/server/model/ban.ts';

afterEach(() => vi.useRealTimers());

describe('inBanBatches', () => {
  it('hands every item over once, in order, a batch at a time, pausing after each batch for its time × the factor', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] });
    const items = Array.from({ length: 2 * BAN_BATCH + 7 }, (_, i) => i);
    const batches: { at: number; items: number[] }[] = [];
    const done = inBanBatches(items, async (batch) => {
      batches.push({ at: performance.now(), items: batch });
      // Each batch takes 10 ms of the (fake) clock.
      await new Promise((r) => setTimeout(r, 10));
    });
    await vi.runAllTimersAsync();
    await done;

    expect(batches.map((b) => b.items.length)).toEqual([BAN_BATCH, BAN_BATCH, 7]);
    expect(batches.flatMap((b) => b.items)).toEqual(items);
    const gap = 10 * (1 + BAN_PAUSE_FACTOR);
    expect(batches.map((b) => b.at - batches[0]!.at)).toEqual([0, gap, 2 * gap]);
  });

  it('does not pause after the last batch', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] });
    let finishedAt = -1;
    const started = performance.now();
    const done = inBanBatches([1, 2, 3], async () => {
      await new Promise((r) => setTimeout(r, 10));
    }).then(() => {
      finishedAt = performance.now();
    });
    await vi.runAllTimersAsync();
    await done;
    expect(finishedAt - started).toBe(10);
  });
});
