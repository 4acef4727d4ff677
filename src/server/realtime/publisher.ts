// How the API server emits realtime events. One interface, two drivers: the built-in server
// publishes in process; the HTTP publisher drives Pusher Channels or any Pusher-compatible
// server (our own included) through the Pusher HTTP API.

import { signRequest } from './signing.ts';

export interface Publisher {
  /** `data` is JSON-encoded once; a pusher-js client receives it decoded. */
  publish(channels: string[], event: string, data: unknown, exceptSocketId?: string): Promise<void>;
  /**
   * Events handed over without awaiting each other still arrive in the order they were handed
   * over (the built-in endpoint). Pusher's HTTP API gives no such promise: one request each.
   */
  readonly inOrder?: boolean;
}

/**
 * Runs the sends, each a publish: all handed over before any is awaited where the publisher keeps
 * their order (across processes, events handed over together share one NOTIFY), else one by one.
 */
export async function publishAll(publisher: Publisher, sends: (() => Promise<void>)[]): Promise<void> {
  if (publisher.inOrder) await Promise.all(sends.map((send) => send()));
  else for (const send of sends) await send();
}

/** Pusher Channels' own limits, so code that works against us also works against Pusher. */
export const LIMITS = { channelsPerEvent: 100, eventName: 200, channelName: 164, dataBytes: 10_240 } as const;
const CHANNEL_NAME = /^[A-Za-z0-9_\-=@,.;]+$/;
const SOCKET_ID = /^\d+\.\d+$/;

export const isValidChannelName = (c: string): boolean =>
  c.length <= LIMITS.channelName && CHANNEL_NAME.test(c);

/** Why an event cannot be published, or null when it can. */
export function eventProblem(
  channels: string[],
  event: string,
  data: string,
  socketId?: string,
): string | null {
  if (channels.length === 0) return 'No channels given';
  if (channels.length > LIMITS.channelsPerEvent) return `More than ${LIMITS.channelsPerEvent} channels`;
  const badChannel = channels.find((c) => !isValidChannelName(c));
  if (badChannel !== undefined) return `Invalid channel name: ${badChannel.slice(0, LIMITS.channelName)}`;
  if (event.length === 0 || event.length > LIMITS.eventName) return 'Invalid event name';
  if (Buffer.byteLength(data) > LIMITS.dataBytes) return `Event data exceeds ${LIMITS.dataBytes} bytes`;
  if (socketId !== undefined && !SOCKET_ID.test(socketId)) return 'Invalid socket_id';
  return null;
}

export interface HttpPublisherOptions {
  appId: string;
  key: string;
  secret: string;
  host: string;
  port?: number;
  useTLS?: boolean;
}

export class PublishError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'PublishError';
  }
}

function* chunks<T>(items: T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

export function createPusherHttpPublisher(opts: HttpPublisherOptions): Publisher {
  const scheme = opts.useTLS ? 'https' : 'http';
  const origin = `${scheme}://${opts.host}${opts.port ? `:${opts.port}` : ''}`;
  const path = `/apps/${opts.appId}/events`;

  async function send(channels: string[], event: string, data: string, socketId?: string): Promise<void> {
    const body = JSON.stringify({
      name: event,
      channels,
      data,
      ...(socketId ? { socket_id: socketId } : {}),
    });
    const query = new URLSearchParams(
      signRequest(opts.key, opts.secret, 'POST', path, body, Date.now() / 1000),
    );
    const res = await fetch(`${origin}${path}?${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    if (!res.ok) throw new PublishError(res.status, `Pusher HTTP API ${res.status}: ${await res.text()}`);
    await res.body?.cancel();
  }

  return {
    async publish(channels, event, data, exceptSocketId) {
      const encoded = JSON.stringify(data ?? null);
      for (const part of chunks(channels, LIMITS.channelsPerEvent)) {
        await send(part, event, encoded, exceptSocketId);
      }
    },
  };
}
