// Live subscriptions follow access. A channel is authorised once, when a console subscribes; a
// member removed from a group, or a server taken out of one, went on hearing its chat and logs
// until the page was reloaded. After a write that may narrow access, every process checks each
// subscription its built-in endpoint holds again, with the rule that granted it, and drops those
// refused now. A Pusher service cannot be asked to (its grants name no user): docs/api.md says so.

import type { Bus } from '../cluster/bus.ts';
import type { Queryable } from '../db/db.ts';
import { authorizeChannel } from '../routes/pusher.ts';
import type { PusherServer } from './pusherServer.ts';

const TOPIC = 'accessNarrowed';

export function followAccess(db: Queryable, bus: Bus, builtIn: PusherServer | null): () => void {
  let running: Promise<unknown> = Promise.resolve();
  const recheck = () => {
    if (!builtIn) return;
    // One pass at a time, in order: a pass started after a write sees what it committed.
    running = running
      .then(() =>
        builtIn.recheck((userId, channel) =>
          authorizeChannel(db, userId, channel).then(
            () => true,
            () => false,
          ),
        ),
      )
      .catch((e) => console.error('realtime: checking subscriptions again failed', e));
  };
  bus.on(TOPIC, recheck);
  return () => {
    recheck();
    bus.publish(TOPIC, {}).catch((e) => console.error('realtime: telling other processes failed', e));
  };
}
