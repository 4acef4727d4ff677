// Realtime across processes: a socket is connected to one process, but the change that concerns
// it may happen in another. Each publish is delivered here and sent over the bus, and what the
// bus brings from other processes is delivered here too.

import type { Bus } from '../cluster/bus.ts';
import type { Publisher } from './publisher.ts';

const TOPIC = 'realtime';

interface Forwarded {
  channels: string[];
  event: string;
  data: unknown;
  except?: string;
}

export function clusteredPublisher(local: Publisher, bus: Bus): Publisher {
  bus.on(TOPIC, (m) => {
    const f = m as Forwarded;
    local.publish(f.channels, f.event, f.data, f.except).catch((e) => {
      console.error(`realtime: delivering forwarded ${f.event} failed:`, (e as Error).message);
    });
  });
  return {
    // The bus sends a process's messages in the order they were published.
    inOrder: local.inOrder,
    async publish(channels, event, data, exceptSocketId) {
      // Checked (and refused) locally first, so a bad event never travels.
      await local.publish(channels, event, data, exceptSocketId);
      await bus.publish(TOPIC, {
        channels,
        event,
        data: data ?? null,
        except: exceptSocketId,
      } satisfies Forwarded);
    },
  };
}
