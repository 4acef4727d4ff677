// A Pusher Channels protocol 7 server on `ws`, so the console's pusher-js client talks to the
// reference API exactly as it would to Pusher. Public and private channels only: presence and
// client events are refused, because nothing in the product uses them.

import { randomInt } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import { ChannelRegistry, type Subscriber } from './channels.ts';
import { type AppCredentials, createHttpApi, type HttpApiResult } from './httpApi.ts';
import { eventProblem, isValidChannelName, PublishError, type Publisher } from './publisher.ts';
import { safeEqual, signChannel, userChannelAuth } from './signing.ts';

export { signChannel };

export interface PusherServer {
  /** Takes the upgrade when the path is `/app/<anything>`; returns false, untouched, otherwise. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  /** Publishes in process, with the same checks as the HTTP API. */
  publisher: Publisher;
  /** The Pusher HTTP API for `POST /apps/:appId/events` and `/batch_events`; pass the raw body. */
  handleHttpEvents(url: string, body: string): HttpApiResult;
  /**
   * Checks every subscription granted to a user again, and drops those `allowed` now refuses:
   * removed from a group, a member no longer hears its channel.
   */
  recheck(allowed: (userId: string, channel: string) => Promise<boolean>): Promise<number>;
  close(): Promise<void>;
  stats(): { connections: number; channels: number };
}

/** Seconds of silence after which pusher-js pings; Pusher's own value. */
const ACTIVITY_TIMEOUT_S = 120;
/** Sockets that do not answer a WebSocket ping within one interval are dropped. */
const HEARTBEAT_MS = 60_000;
/** A client this far behind is not keeping up; it is told to back off and reconnect. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
const CLOSE_GRACE_MS = 1000;
const APP_PATH = /^\/app\/([^/?]+)\/?$/;

class Client implements Subscriber {
  alive = true;
  /** The user each private channel was granted to, when the grant named one (userChannelAuth). */
  readonly grants = new Map<string, string>();
  constructor(
    readonly socketId: string,
    readonly ws: WebSocket,
  ) {}

  send(frame: Buffer): void {
    if (this.ws.readyState !== this.ws.OPEN) return;
    if (this.ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.ws.close(4100, 'Over capacity');
      return;
    }
    this.ws.send(frame, { binary: false });
  }

  emit(event: string, data: unknown, channel?: string): void {
    this.send(
      Buffer.from(JSON.stringify(channel === undefined ? { event, data } : { event, channel, data })),
    );
  }
}

interface ClientFrame {
  event?: unknown;
  data?: unknown;
}

export function createPusherServer(opts: AppCredentials): PusherServer {
  const wss = new WebSocketServer({ noServer: true });
  const registry = new ChannelRegistry<Client>();
  const clients = new Set<Client>();
  const socketPrefix = randomInt(1, 2 ** 31);
  let socketCounter = 0;

  const deliver = (channels: string[], event: string, data: string, exceptSocketId?: string) => {
    registry.broadcast(channels, event, data, exceptSocketId);
  };

  const heartbeat = setInterval(() => {
    for (const c of clients) {
      if (!c.alive) c.ws.terminate();
      else {
        c.alive = false;
        c.ws.ping();
      }
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();

  function subscriptionError(c: Client, channel: string, status: number, error: string) {
    c.emit('pusher:subscription_error', { type: 'AuthError', error, status }, channel);
  }

  function subscribe(c: Client, data: Record<string, unknown>) {
    const channel = data.channel;
    if (typeof channel !== 'string' || !isValidChannelName(channel)) {
      c.emit('pusher:error', { code: null, message: 'Invalid channel name' });
      return;
    }
    if (channel.startsWith('presence-')) {
      subscriptionError(c, channel, 403, 'Presence channels are not supported');
      return;
    }
    if (channel.startsWith('private-')) {
      const auth = typeof data.auth === 'string' ? data.auth : '';
      // Our channel auth names the user; a bare Pusher signature (a trusted publisher's) does not.
      const userId = auth.split(':').length === 3 ? auth.split(':')[1] : null;
      const expected =
        userId === null
          ? `${opts.key}:${signChannel(opts.secret, c.socketId, channel)}`
          : userChannelAuth(opts.key, opts.secret, c.socketId, channel, userId);
      if (!safeEqual(auth, expected)) {
        subscriptionError(c, channel, 403, 'Invalid signature');
        return;
      }
      if (userId !== null) c.grants.set(channel, userId);
    }
    registry.subscribe(channel, c);
    c.emit('pusher_internal:subscription_succeeded', '{}', channel);
  }

  function onMessage(c: Client, raw: string) {
    let frame: ClientFrame;
    try {
      frame = JSON.parse(raw);
    } catch {
      c.emit('pusher:error', { code: null, message: 'Malformed message' });
      return;
    }
    const data = (typeof frame.data === 'object' && frame.data !== null ? frame.data : {}) as Record<
      string,
      unknown
    >;
    switch (frame.event) {
      case 'pusher:ping':
        c.emit('pusher:pong', '{}');
        return;
      case 'pusher:subscribe':
        subscribe(c, data);
        return;
      case 'pusher:unsubscribe':
        if (typeof data.channel === 'string') {
          registry.unsubscribe(data.channel, c);
          c.grants.delete(data.channel);
        }
        return;
      default:
        if (typeof frame.event === 'string' && frame.event.startsWith('client-')) {
          c.emit('pusher:error', { code: null, message: 'Client events are not enabled for this app' });
        }
    }
  }

  function onConnection(ws: WebSocket, appKey: string) {
    if (appKey !== opts.key) {
      ws.send(
        JSON.stringify({
          event: 'pusher:error',
          data: { code: 4001, message: `App key ${appKey} not found` },
        }),
      );
      ws.close(4001, 'App key not found');
      return;
    }
    const c = new Client(`${socketPrefix}.${++socketCounter}`, ws);
    clients.add(c);
    ws.on('pong', () => {
      c.alive = true;
    });
    ws.on('message', (raw) => {
      c.alive = true;
      onMessage(c, raw.toString());
    });
    ws.on('close', () => {
      clients.delete(c);
      registry.remove(c);
    });
    ws.on('error', () => ws.terminate());
    c.emit(
      'pusher:connection_established',
      JSON.stringify({ socket_id: c.socketId, activity_timeout: ACTIVITY_TIMEOUT_S }),
    );
  }

  return {
    handleUpgrade(req, socket, head) {
      const path = new URL(req.url ?? '/', 'http://localhost').pathname;
      const match = APP_PATH.exec(path);
      if (!match) return false;
      wss.handleUpgrade(req, socket, head, (ws) => onConnection(ws, decodeURIComponent(match[1])));
      return true;
    },
    publisher: {
      // Delivered before publish returns.
      inOrder: true,
      async publish(channels, event, data, exceptSocketId) {
        const encoded = JSON.stringify(data ?? null);
        const problem = eventProblem(channels, event, encoded, exceptSocketId);
        if (problem) throw new PublishError(400, problem);
        deliver(channels, event, encoded, exceptSocketId);
      },
    },
    handleHttpEvents: createHttpApi(opts, deliver),
    async recheck(allowed) {
      let dropped = 0;
      for (const c of clients)
        for (const [channel, userId] of c.grants)
          if (!(await allowed(userId, channel))) {
            registry.unsubscribe(channel, c);
            c.grants.delete(channel);
            dropped++;
          }
      return dropped;
    },
    async close() {
      clearInterval(heartbeat);
      const closed = [...clients].map(
        (c) =>
          new Promise<void>((resolve) => {
            c.ws.once('close', () => resolve());
            c.ws.close(1001, 'Server shutting down');
          }),
      );
      const grace = new Promise<void>((resolve) => setTimeout(resolve, CLOSE_GRACE_MS).unref());
      await Promise.race([Promise.all(closed), grace]);
      for (const c of clients) c.ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
    stats: () => ({ connections: clients.size, channels: registry.channelCount }),
  };
}
