// Realtime over pusher-js: private channels authorised through the API, reference-counted
// subscriptions, and a resync callback on every (re)subscribe because Pusher never replays
// what a client missed while it was away. pusher-js loads after the first paint; subscriptions
// made before it arrives are attached once it has.

import type Pusher from 'pusher-js';
import type { Channel } from 'pusher-js';
import type { SentinelApi } from '../api/sentinel.ts';
import type { PusherConfig } from '../auth/config.ts';

export type EventHandlers = Record<string, (data: unknown) => void> & {
  /** Called after each successful (re)subscription: fetch what may have been missed. */
  resync?: () => void;
};

export interface Realtime {
  socketId(): string | null;
  subscribe(channel: string, handlers: EventHandlers): () => void;
  disconnect(): void;
}

function connect(Client: typeof Pusher, config: PusherConfig, api: () => SentinelApi): Pusher {
  return new Client(config.key, {
    cluster: config.cluster,
    wsHost: config.wsHost,
    wsPort: config.wsPort,
    wssPort: config.wsPort,
    forceTLS: config.forceTLS,
    enabledTransports: ['ws', 'wss'],
    disableStats: true,
    channelAuthorization: {
      endpoint: '',
      transport: 'ajax',
      customHandler: ({ socketId, channelName }, callback) => {
        api()
          .channelAuth(socketId, channelName)
          .then((r) => callback(null, r))
          .catch((e: Error) => callback(e, null));
      },
    },
  });
}

export function createRealtime(config: PusherConfig, api: () => SentinelApi): Realtime {
  let pusher: Pusher | null = null;
  let closed = false;
  const channels = new Map<string, { channel: Channel | null; handlers: Set<EventHandlers> }>();

  function attach(channel: Channel, h: EventHandlers) {
    for (const [event, fn] of Object.entries(h)) if (event !== 'resync' && fn) channel.bind(event, fn);
    if (h.resync) channel.bind('pusher:subscription_succeeded', h.resync);
  }
  function detach(channel: Channel, h: EventHandlers) {
    for (const [event, fn] of Object.entries(h)) if (event !== 'resync' && fn) channel.unbind(event, fn);
    if (h.resync) channel.unbind('pusher:subscription_succeeded', h.resync);
  }

  void import('pusher-js').then(({ default: Client }) => {
    if (closed) return;
    pusher = connect(Client, config, api);
    for (const [name, entry] of channels) {
      entry.channel = pusher.subscribe(name);
      for (const h of entry.handlers) attach(entry.channel, h);
    }
  });

  return {
    socketId: () => (pusher?.connection.state === 'connected' ? pusher.connection.socket_id : null),
    subscribe(name, handlers) {
      let entry = channels.get(name);
      if (!entry) {
        entry = { channel: pusher?.subscribe(name) ?? null, handlers: new Set() };
        channels.set(name, entry);
      } else if (entry.channel?.subscribed) handlers.resync?.();
      entry.handlers.add(handlers);
      if (entry.channel) attach(entry.channel, handlers);
      return () => {
        const e = channels.get(name);
        if (!e) return;
        if (e.channel) detach(e.channel, handlers);
        e.handlers.delete(handlers);
        if (e.handlers.size === 0) {
          pusher?.unsubscribe(name);
          channels.delete(name);
        }
      };
    },
    disconnect: () => {
      closed = true;
      pusher?.disconnect();
    },
  };
}
