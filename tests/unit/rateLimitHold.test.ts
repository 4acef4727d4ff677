// A refused request is held a second before it is sent (http/rateLimit.ts refusalHold), so a
// client that sends one request after another into its limit slows to one a second; past the
// cap of held refusals the rest are sent at once, so many connections cannot make it hold more.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { refusalHold } from '../../src/server/http/rateLimit.ts';

describe('refusalHold', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout'] }));
  afterEach(() => vi.useRealTimers());

  it('holds each refusal a second, and sends those past the cap at once', async () => {
    const hold = refusalHold();
    const sent: number[] = [];
    const holds = Array.from({ length: 257 }, (_, i) => hold().then(() => sent.push(i)));
    await vi.advanceTimersByTimeAsync(0);
    // The 256 held wait; the one past them is sent.
    expect(sent).toEqual([256]);
    await vi.advanceTimersByTimeAsync(999);
    expect(sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await Promise.all(holds);
    expect(sent).toHaveLength(257);
    // Released, the cap is free again: the next refusal is held.
    let next = false;
    const later = hold().then(() => {
      next = true;
    });
    await vi.advanceTimersByTimeAsync(500);
    expect(next).toBe(false);
    await vi.advanceTimersByTimeAsync(500);
    await later;
    expect(next).toBe(true);
  });
});
