// What both peers' waitFor do: the first entry already received that matches, else the first to
// arrive; it rejects when the peer closes first (or the predicate throws). Event-driven, no polling.

import type { EventEmitter } from 'node:events';

export function waitForEntry<T>(
  events: EventEmitter,
  arrival: string,
  seen: readonly T[],
  predicate: (entry: T) => boolean,
  closed: string,
): Promise<T> {
  const hit = seen.find(predicate);
  if (hit) return Promise.resolve(hit);
  return new Promise((resolve, reject) => {
    const onArrival = (entry: T) => {
      let matches: boolean;
      try {
        matches = predicate(entry);
      } catch (e) {
        stop();
        reject(e);
        return;
      }
      if (!matches) return;
      stop();
      resolve(entry);
    };
    const onClose = () => {
      stop();
      reject(new Error(closed));
    };
    const stop = () => {
      events.off(arrival, onArrival);
      events.off('close', onClose);
    };
    events.on(arrival, onArrival);
    events.on('close', onClose);
  });
}
