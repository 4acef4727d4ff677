// What is on screen, kept live over realtime channels. Pusher never replays what a client missed,
// so every (re)subscription, like every event that says rows changed, calls the list's refetch,
// which fetches what is newer than the newest row it holds (store/pagedList.ts).

import { useEffect, useMemo, useRef } from 'react';
import type { EventHandlers, Realtime } from './realtime.ts';

/** Event name → true, or a test of its payload: whether it concerns the list. */
export type LiveEvents = Readonly<Record<string, true | ((data: unknown) => boolean)>>;

export interface LiveList {
  channels: readonly string[];
  /** Events that say rows changed. */
  events: LiveEvents;
  /** Fetches what is newer than the newest row held. */
  refetch(): void;
  /** Events whose payload is applied as it comes, before any refetch (a log line, a server's state). */
  on?: Readonly<Record<string, (data: unknown) => void>>;
}

/**
 * Subscribes to each channel while mounted. Handlers may be new on every render; only a channel
 * that comes or goes (or another set of event names) subscribes or unsubscribes, so the channels
 * that stay are not asked to resync.
 */
export function useChannels(
  realtime: Realtime | null,
  channels: readonly string[],
  handlers: EventHandlers,
): void {
  const latest = useRef(handlers);
  latest.current = handlers;
  const names = Object.keys(handlers).sort().join(',');
  const bound = useMemo(() => {
    const out: EventHandlers = {};
    for (const name of names.split(',')) {
      if (name === 'resync') out.resync = () => latest.current.resync?.();
      else if (name) out[name] = (data) => latest.current[name]?.(data);
    }
    return out;
  }, [names]);

  const subscribed = useRef(new Map<string, () => void>());
  // Another connection or other events: every subscription goes, and the effect below renews them.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a change of either is what ends them.
  useEffect(() => {
    const subs = subscribed.current;
    return () => {
      for (const off of subs.values()) off();
      subs.clear();
    };
  }, [realtime, bound]);

  const key = channels.join('\n');
  useEffect(() => {
    const subs = subscribed.current;
    if (!realtime) return;
    const wanted = new Set(key ? key.split('\n') : []);
    for (const [channel, off] of subs)
      if (!wanted.has(channel)) {
        off();
        subs.delete(channel);
      }
    for (const channel of wanted)
      if (!subs.has(channel)) subs.set(channel, realtime.subscribe(channel, bound));
  }, [realtime, bound, key]);
}

/** A list kept live: its events and every (re)subscription refetch, `on` handlers see payloads first. */
export function useLiveRefetch(realtime: Realtime | null, live: LiveList): void {
  const handlers: EventHandlers = { ...live.on, resync: () => live.refetch() };
  for (const [name, concerns] of Object.entries(live.events))
    handlers[name] = (data) => {
      live.on?.[name]?.(data);
      if (concerns === true || concerns(data)) live.refetch();
    };
  useChannels(realtime, live.channels, handlers);
}
