import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Pusher from 'pusher-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ChannelRegistry } from '../../src/server/realtime/channels.ts';
import { createPusherHttpPublisher, PublishError } from '../../src/server/realtime/publisher.ts';
import {
  createPusherServer,
  type PusherServer,
  signChannel,
} from '../../src/server/realtime/pusherServer.ts';
import { signRequest } from '../../src/server/realtime/signing.ts';

const app = { appId: '4242', key: 'palisade-key', secret: 'palisade-secret' };
let rt: PusherServer;
let http: Server;
let port: number;
const clients: Pusher[] = [];

beforeAll(async () => {
  rt = createPusherServer(app);
  http = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const out = rt.handleHttpEvents(req.url ?? '/', body);
      res.writeHead(out.status, { 'content-type': 'application/json' }).end(JSON.stringify(out.body));
    });
  });
  http.on('upgrade', (req, socket, head) => {
    if (!rt.handleUpgrade(req, socket, head)) socket.destroy();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  port = (http.address() as AddressInfo).port;
});

afterAll(async () => {
  for (const c of clients) c.disconnect();
  await rt.close();
  await new Promise((resolve) => http.close(resolve));
});

function connect(secret = app.secret, key = app.key): Pusher {
  const client = new Pusher(key, {
    cluster: 'mt1',
    wsHost: '127.0.0.1',
    wsPort: port,
    forceTLS: false,
    enabledTransports: ['ws'],
    disableStats: true,
    channelAuthorization: {
      customHandler: ({ socketId, channelName }, callback) =>
        callback(null, { auth: `${key}:${signChannel(secret, socketId, channelName)}` }),
    },
  });
  clients.push(client);
  return client;
}

function connected(client: Pusher): Promise<string> {
  return new Promise((resolve, reject) => {
    client.connection.bind('connected', () => resolve(client.connection.socket_id));
    client.connection.bind('failed', () => reject(new Error('connection failed')));
  });
}

async function subscribed(client: Pusher, channel: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const ch = client.subscribe(channel);
    ch.bind('pusher:subscription_succeeded', () => resolve());
    ch.bind('pusher:subscription_error', (e: unknown) => reject(e));
  });
}

/** Records every `event` on `channel`, and resolves `next()` when the next one arrives. */
function recorder(client: Pusher, channel: string, event: string) {
  const seen: unknown[] = [];
  let waiter: ((v: unknown) => void) | undefined;
  client.channel(channel).bind(event, (data: unknown) => {
    seen.push(data);
    waiter?.(data);
    waiter = undefined;
  });
  return {
    seen,
    next: () => new Promise((resolve) => (waiter = resolve)),
  };
}

describe('Pusher protocol server with the real pusher-js client', () => {
  it('connects, hands out a socket id, and counts the connection', async () => {
    const c = connect();
    const socketId = await connected(c);
    expect(socketId).toMatch(/^\d+\.\d+$/);
    expect(rt.stats().connections).toBeGreaterThanOrEqual(1);
  });

  it('subscribes to a private channel with a good signature and receives data encoded once', async () => {
    const c = connect();
    await connected(c);
    await subscribed(c, 'private-sentinel.services.s1');
    const rec = recorder(c, 'private-sentinel.services.s1', 'serviceUpdated');

    let got = rec.next();
    await rt.publisher.publish(['private-sentinel.services.s1'], 'serviceUpdated', { serviceId: 's1', n: 2 });
    expect(await got).toEqual({ serviceId: 's1', n: 2 });

    // A string that looks like JSON stays a string: the payload is not decoded twice.
    got = rec.next();
    await rt.publisher.publish(['private-sentinel.services.s1'], 'serviceUpdated', '{"x":1}');
    expect(await got).toBe('{"x":1}');

    got = rec.next();
    await rt.publisher.publish(['private-sentinel.services.s1'], 'serviceUpdated', '');
    expect(await got).toBe('');
  });

  it('refuses a private subscription signed with the wrong secret', async () => {
    const c = connect('not-the-secret');
    await connected(c);
    const refusal = await subscribed(c, 'private-users.u1').then(
      () => null,
      (e) => e,
    );
    expect(refusal).toMatchObject({ type: 'AuthError', status: 403 });
  });

  it('skips the socket named by exceptSocketId', async () => {
    const [a, b] = [connect(), connect()];
    const aId = await connected(a);
    await connected(b);
    await subscribed(a, 'private-users.u2');
    await subscribed(b, 'private-users.u2');
    const recA = recorder(a, 'private-users.u2', 'servicesUpdated');
    const recB = recorder(b, 'private-users.u2', 'servicesUpdated');

    const bGotFirst = recB.next();
    await rt.publisher.publish(['private-users.u2'], 'servicesUpdated', 'first', aId);
    expect(await bGotFirst).toBe('first');
    // Frames on one socket arrive in order, so once `a` has the second, it would have had the first.
    const aGotSecond = recA.next();
    await rt.publisher.publish(['private-users.u2'], 'servicesUpdated', 'second');
    expect(await aGotSecond).toBe('second');
    expect(recA.seen).toEqual(['second']);
  });

  it('stops delivering after unsubscribe', async () => {
    const c = connect();
    await connected(c);
    await subscribed(c, 'private-sentinel.groups.g1');
    const rec = recorder(c, 'private-sentinel.groups.g1', 'logsUpdated');
    const before = rt.stats().channels;
    c.unsubscribe('private-sentinel.groups.g1');
    // The server handles a socket's frames in order: once this subscription succeeds, the unsubscribe is done.
    await subscribed(c, 'sync-channel');
    expect(rt.stats().channels).toBe(before); // one channel gone, one public channel added
    const sync = recorder(c, 'sync-channel', 'logsUpdated');
    const syncGot = sync.next();
    await rt.publisher.publish(['private-sentinel.groups.g1', 'sync-channel'], 'logsUpdated', 'x');
    await syncGot;
    expect(rec.seen).toEqual([]);
  });

  it('publishes through the Pusher HTTP API, and refuses a wrong secret with 401', async () => {
    const c = connect();
    const socketId = await connected(c);
    await subscribed(c, 'private-sentinel.players.p1');
    const rec = recorder(c, 'private-sentinel.players.p1', 'logMessage');
    const publisher = createPusherHttpPublisher({ ...app, host: '127.0.0.1', port });

    const got = rec.next();
    await publisher.publish(['private-sentinel.players.p1'], 'logMessage', { message: 'Rex Hunter joined' });
    expect(await got).toEqual({ message: 'Rex Hunter joined' });

    await publisher.publish(['private-sentinel.players.p1'], 'logMessage', 'not for me', socketId);
    const last = rec.next();
    await publisher.publish(['private-sentinel.players.p1'], 'logMessage', 'last');
    await last;
    expect(rec.seen).toEqual([{ message: 'Rex Hunter joined' }, 'last']);

    const wrong = createPusherHttpPublisher({ ...app, secret: 'wrong', host: '127.0.0.1', port });
    const err = await wrong.publish(['private-sentinel.players.p1'], 'logMessage', 'x').catch((e) => e);
    expect(err).toBeInstanceOf(PublishError);
    expect(err.status).toBe(401);
  });
});

describe('Pusher server edges', () => {
  function rawSocket(path: string) {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`);
    const frames: { event: string; data: unknown }[] = [];
    const opened = new Promise<void>((resolve) => ws.on('open', () => resolve()));
    ws.on('message', (m) => frames.push(JSON.parse(m.toString())));
    const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
    return { ws, frames, opened, closed };
  }

  it('refuses an unknown app key with pusher:error 4001', async () => {
    const s = rawSocket('/app/wrong-key?protocol=7');
    expect(await s.closed).toBe(4001);
    expect(s.frames[0]).toMatchObject({ event: 'pusher:error', data: { code: 4001 } });
  });

  it('leaves other upgrade paths alone', () => {
    const untouched = { url: '/v4/sentinel/link' } as Parameters<PusherServer['handleUpgrade']>[0];
    expect(rt.handleUpgrade(untouched, null as never, Buffer.alloc(0))).toBe(false);
  });

  it('answers pings and refuses client events and presence channels', async () => {
    const s = rawSocket(`/app/${app.key}?protocol=7&client=js`);
    await s.opened;
    s.ws.send(JSON.stringify({ event: 'pusher:ping', data: {} }));
    s.ws.send(JSON.stringify({ event: 'client-typing', channel: 'public', data: {} }));
    s.ws.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel: 'presence-room', auth: 'x' } }));
    await expect.poll(() => s.frames.length).toBe(4);
    expect(s.frames.map((f) => f.event)).toEqual([
      'pusher:connection_established',
      'pusher:pong',
      'pusher:error',
      'pusher:subscription_error',
    ]);
    s.ws.close();
  });

  it('rejects tampered, stale and oversized HTTP API calls', () => {
    const path = `/apps/${app.appId}/events`;
    const call = (body: string, now = Date.now() / 1000, sign = body, p = path) => {
      const q = new URLSearchParams(signRequest(app.key, app.secret, 'POST', p, sign, now));
      return rt.handleHttpEvents(`${p}?${q}`, body).status;
    };
    const ok = JSON.stringify({ name: 'e', channels: ['a'], data: '1' });
    expect(call(ok)).toBe(200);
    expect(call(ok, Date.now() / 1000, JSON.stringify({ name: 'e', channels: ['b'], data: '1' }))).toBe(401);
    expect(call(ok, Date.now() / 1000 - 3600)).toBe(401);
    expect(call(ok, Date.now() / 1000, ok, '/apps/other/events')).toBe(404);
    const many = Array.from({ length: 101 }, (_, i) => `c${i}`);
    expect(call(JSON.stringify({ name: 'e', channels: many, data: '1' }))).toBe(400);
    expect(call(JSON.stringify({ name: 'e', channels: ['a'], data: { not: 'a string' } }))).toBe(400);
    const batch = JSON.stringify({ batch: [{ name: 'e', channel: 'a', data: '1' }] });
    expect(call(batch, Date.now() / 1000, batch, `/apps/${app.appId}/batch_events`)).toBe(200);
  });
});

describe('channel fan-out', () => {
  it('serialises a frame once for 1,000 subscribers and honours exceptSocketId', () => {
    const registry = new ChannelRegistry<{ socketId: string; send(f: Buffer): void; got: Buffer[] }>();
    const subs = Array.from({ length: 1000 }, (_, i) => {
      const got: Buffer[] = [];
      return { socketId: `1.${i}`, got, send: (f: Buffer) => got.push(f) };
    });
    for (const s of subs) registry.subscribe('private-users.u', s);
    expect(registry.broadcast(['private-users.u'], 'userUpdated', '""', '1.7')).toBe(999);
    const frames = new Set(subs.flatMap((s) => s.got));
    expect(frames.size).toBe(1);
    expect(subs[7].got).toEqual([]);
    expect(JSON.parse([...frames][0].toString())).toEqual({
      event: 'userUpdated',
      channel: 'private-users.u',
      data: '""',
    });
    registry.remove(subs[0]);
    expect(registry.broadcast(['private-users.u'], 'userUpdated', '""')).toBe(999);
  });
});
