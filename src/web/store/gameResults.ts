// Results of actions that reach the game (give item, give dino, …): the API answers {requestId} at
// once and publishes `requestCompleted` on the requester's channel when the game has answered.
// Pusher never replays, so the watch is subscribed (and confirmed) before the requests are sent.

import type { ResultWatch } from '../../../commands/context.ts';
import { ActionEvent, type RequestCompleted, userChannel } from '../../domain/api.ts';
import type { Realtime } from './realtime.ts';

/** How long to wait for the subscription before sending anyway (results may then be missed). */
const READY_MS = 3000;

export function watchGameResults(realtime: Realtime | null, userId: string | null): Promise<ResultWatch> {
  const seen = new Map<string, RequestCompleted>();
  const waiting = new Map<string, (r: RequestCompleted) => void>();
  if (!realtime || !userId) return Promise.resolve({ result: async () => null, close: () => {} });
  return new Promise((ready) => {
    let unsubscribe = () => {};
    const watch: ResultWatch = {
      result: (requestId, ms) =>
        new Promise((resolve) => {
          const now = seen.get(requestId);
          if (now) return resolve(now);
          const timer = setTimeout(() => {
            waiting.delete(requestId);
            resolve(null);
          }, ms);
          waiting.set(requestId, (r) => {
            clearTimeout(timer);
            resolve(r);
          });
        }),
      close: () => unsubscribe(),
    };
    const fallback = setTimeout(() => ready(watch), READY_MS);
    unsubscribe = realtime.subscribe(userChannel(userId), {
      [ActionEvent.requestCompleted]: (data) => {
        const r = data as RequestCompleted;
        seen.set(r.requestId, r);
        waiting.get(r.requestId)?.(r);
      },
      resync: () => {
        clearTimeout(fallback);
        ready(watch);
      },
    });
  });
}
