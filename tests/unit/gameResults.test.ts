// The game's answers to give requests: heard on the user's channel once subscribed, kept when
// they arrive before anyone waits, and null when the game stays silent.

import { describe, expect, it, vi } from 'vitest';
import { watchGameResults } from '../../src/web/store/gameResults.ts';
import type { EventHandlers, Realtime } from '../../src/web/store/realtime.ts';

function fakeRealtime() {
  const subs: { channel: string; h: EventHandlers }[] = [];
  const unsubscribed: string[] = [];
  const realtime: Realtime = {
    socketId: () => null,
    subscribe: (channel, h) => {
      subs.push({ channel, h });
      return () => unsubscribed.push(channel);
    },
    disconnect: () => {},
  };
  return { realtime, subs, unsubscribed };
}

describe('watchGameResults', () => {
  it('is ready once subscribed, and hands each answer to its request, early or late', async () => {
    const { realtime, subs, unsubscribed } = fakeRealtime();
    const pending = watchGameResults(realtime, 'u1');
    expect(subs[0].channel).toBe('private-users.u1');
    subs[0].h.resync?.();
    const watch = await pending;
    subs[0].h.requestCompleted({ requestId: 'early', ok: true });
    expect(await watch.result('early', 1000)).toEqual({ requestId: 'early', ok: true });
    const late = watch.result('late', 1000);
    subs[0].h.requestCompleted({ requestId: 'late', ok: false, error: 'No such survivor' });
    expect(await late).toEqual({ requestId: 'late', ok: false, error: 'No such survivor' });
    watch.close();
    expect(unsubscribed).toEqual(['private-users.u1']);
  });

  it('answers null when the game stays silent, and without realtime', async () => {
    vi.useFakeTimers();
    const { realtime, subs } = fakeRealtime();
    const pending = watchGameResults(realtime, 'u1');
    subs[0].h.resync?.();
    const silent = (await pending).result('x', 500);
    vi.advanceTimersByTime(500);
    expect(await silent).toBeNull();
    vi.useRealTimers();
    expect(await (await watchGameResults(null, 'u1')).result('x', 10)).toBeNull();
  });
});
