import { act } from '@testing-library/react';
import type { EventHandlers, Realtime } from '../../src/web/store/realtime.ts';

/** A realtime connection whose events and resubscriptions the test sends. */
export function fakeRealtime() {
  const subs = new Map<string, Set<EventHandlers>>();
  const subscribed: string[] = [];
  const realtime: Realtime = {
    socketId: () => null,
    subscribe(channel, handlers) {
      subscribed.push(channel);
      const set = subs.get(channel) ?? new Set();
      subs.set(channel, set.add(handlers));
      return () => {
        set.delete(handlers);
        if (set.size === 0) subs.delete(channel);
      };
    },
    disconnect() {},
  };
  const handlersOf = (channel: string) => [...(subs.get(channel) ?? [])];
  return {
    realtime,
    subscribed,
    channels: () => [...subs.keys()].sort(),
    emit: (channel: string, event: string, data: unknown = '') =>
      act(() => {
        for (const h of handlersOf(channel)) h[event]?.(data);
      }),
    resubscribe: (channel: string) =>
      act(() => {
        for (const h of handlersOf(channel)) h.resync?.();
      }),
  };
}
