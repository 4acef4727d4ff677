// Two server processes on one PostgreSQL behave as one (docs/api.md "Scale-out"): a command sent
// (or chat) through either reaches a game server linked to the other, realtime events published by one
// reach sockets on the other, and a rate limit counts requests made to both.

import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunningServer } from '../../src/server/app.ts';
import { LINK_PATH } from '../../src/server/game/link/linkServer.ts';
import { MAX_AGE_MS } from '../../src/server/model/readCache.ts';
import { type SeedResult, seedDemo } from '../../src/server/seed.ts';
import { type Simulator, startSimulator } from '../../src/sim/index.ts';
import { call, DEMO, signIn } from './helpers.ts';
import { startTwoServers, type TwoServers } from './twoServers.ts';

/** Requests per minute for anonymous callers on both processes. */
const LIMIT = 12;
let servers: TwoServers;
let a: RunningServer;
let b: RunningServer;
let demo: SeedResult;
let sim: Simulator;
let token: string;

async function waitFor(check: () => Promise<boolean> | boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`${what}: not within ${ms} ms`);
}

describe('two server processes on one PostgreSQL', () => {
  beforeAll(async () => {
    servers = await startTwoServers('scaleout', { rateLimit: LIMIT });
    ({ a, b } = servers);
    demo = await seedDemo(a.db, { ...DEMO, servers: 3 });
    // Every game server links to B only.
    sim = startSimulator({
      linkUrl: `${b.url.replace(/^http/, 'ws')}${LINK_PATH}`,
      servers: demo.servers.map((s) => ({ accessKey: s.accessKey, name: s.name })),
      tickMs: 60_000,
    });
    await waitFor(() => sim.servers.every((s) => s.link?.connected), 'simulated servers linked');
    token = (await signIn(`${a.url}/v4`)).access_token;
  });

  afterAll(async () => {
    await sim?.stop();
    await servers?.close();
  });

  it('runs a script attached through A on B at once, though B had just looked and found none', async () => {
    const serviceId = demo.servers[0].serviceId;
    const pong = {
      conditions: [{ field: 'message', operator: 'contains', value: 'ping' }],
      actions: [{ type: 'sendChat', options: { message: 'pong' } }],
    };
    const made = await call(`${a.url}/v4`, token, 'POST', '/sentinel/scripts', {
      name: 'Scale-out pong',
      events: [{ language: 'Simple', context: 'chat', code: JSON.stringify(pong) }],
    });
    const chat = { context: 'chat', values: { message: 'ping' } };
    expect(await b.scripts.trigger(serviceId, chat)).toEqual([]);
    await call(`${a.url}/v4`, token, 'POST', '/sentinel/serviceScripts', {
      serviceId,
      scriptId: made.body.created[0].scriptId,
      parameterValues: {},
    });
    // B keeps what it read for MAX_AGE_MS at most; A's write tells it to forget now.
    await waitFor(
      async () => (await b.scripts.trigger(serviceId, chat)).length === 1,
      'the run on B',
      MAX_AGE_MS / 5,
    );
  });

  it('sends a command through A to a game server linked to B, and hears its answer', async () => {
    const island = demo.servers[0];
    const through = await call(`${a.url}/v4`, token, 'POST', '/sentinel/gameCommands', {
      type: 'admin',
      serviceId: island.serviceId,
      command: 'listplayers',
    });
    expect(through.status).toBe(200);
    expect(through.body.results).toEqual([
      expect.objectContaining({ serviceId: island.serviceId, ok: true, result: expect.any(String) }),
    ]);
    expect(a.links.isConnected(island.serviceId)).toBe(false);
    expect(b.links.isConnected(island.serviceId)).toBe(true);

    // The game server obeyed: a ban sent through A kicks the player on B's link.
    const world = sim.servers[0].world;
    // Each check ticks the simulated server, so someone joins soon.
    const someoneOnline = () => {
      if (world.online.size > 0) return true;
      sim.servers[0].tick();
      return false;
    };
    await waitFor(someoneOnline, 'someone online', 20_000);
    const victim = [...world.online.values()][0];
    await a.links.sendCommand(island.serviceId, { type: 'admin', command: `banplayer ${victim.eosId}` });
    expect(world.online.has(victim.playerId)).toBe(false);
  });

  it('sends chat through A to a game server linked to B', async () => {
    const island = demo.servers[0];
    const chat = await call(`${a.url}/v4`, token, 'POST', '/sentinel/chat', {
      serviceId: island.serviceId,
      message: 'Said through A',
    });
    expect(chat.status).toBe(204);
    await waitFor(async () => {
      const { rows } = await a.db.query(
        `SELECT 1 FROM log_messages WHERE service_id = $1 AND event_name = 'chat'
            AND metadata->>'originalMessage' = 'Said through A'`,
        [island.serviceId],
      );
      return rows.length === 1;
    }, 'the chat line back from the game');
  });

  it('answers serviceNotConnected through either process once the game server is gone', async () => {
    const scorched = demo.servers[1];
    await sim.servers[1].link?.stop();
    await waitFor(async () => {
      const { rows } = await a.db.query<{ c: boolean }>(
        'SELECT is_connected AS c FROM services WHERE service_id = $1',
        [scorched.serviceId],
      );
      return rows[0].c === false;
    }, 'disconnect recorded');
    for (const server of [a, b])
      await expect(
        server.links.sendCommand(scorched.serviceId, { type: 'broadcast', message: 'hi' }),
      ).rejects.toMatchObject({
        status: 412,
        code: 'serviceNotConnected',
      });
  });

  it('delivers realtime events made on B to a socket subscribed on A, with auth signed by B', async () => {
    expect(a.config.pusher.secret).toBe(b.config.pusher.secret);
    const aberration = demo.servers[2];
    const channel = `private-sentinel.services.${aberration.serviceId}`;
    const frames: { event: string; channel?: string; data: string }[] = [];
    const ws = new WebSocket(`${a.url.replace(/^http/, 'ws')}/app/palisade?protocol=7`);
    ws.on('message', (d) => frames.push(JSON.parse(d.toString())));
    await waitFor(() => frames.some((f) => f.event === 'pusher:connection_established'), 'socket open');
    const socketId = JSON.parse(frames[0].data).socket_id as string;
    const auth = await fetch(`${b.url}/v4/pusher/channelAuth`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ socket_id: socketId, channel_name: channel }),
    });
    expect(auth.status).toBe(200);
    ws.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel, ...(await auth.json()) } }));
    await waitFor(
      () => frames.some((f) => f.event === 'pusher_internal:subscription_succeeded'),
      'subscribed',
    );

    // A broadcast sent through A runs on B's link; B stores the game's event and publishes it.
    await a.links.sendCommand(aberration.serviceId, { type: 'broadcast', message: 'Hello from A' });
    await waitFor(
      () =>
        frames.some(
          (f) =>
            f.event === 'logMessage' &&
            f.channel === channel &&
            JSON.parse(f.data).metadata?.originalMessage === 'Hello from A',
        ),
      'logMessage from B on a socket of A',
    );
    ws.close();
  });

  it('refuses a token signed out through A on B too, though B had it remembered', async () => {
    // The moderator has a rate limit key of their own, so these few calls stay under LIMIT.
    const mod = (await signIn(`${a.url}/v4`, demo.moderator.email, demo.moderator.password)).access_token;
    expect((await call(`${b.url}/v4`, mod, 'GET', '/user')).status).toBe(200);
    expect((await call(`${a.url}/v4`, mod, 'DELETE', '/session')).status).toBe(204);
    // B remembers callers for 10 s; only A's word over the bus makes it forget sooner.
    await new Promise((r) => setTimeout(r, 300));
    expect((await call(`${b.url}/v4`, mod, 'GET', '/user')).status).toBe(401);
  });

  it('counts one rate limit over requests made to both processes', async () => {
    // A source address of its own per attempt, so no other request shares the count.
    const hit = (server: RunningServer, localAddress: string) =>
      new Promise<{ status: number; remaining: number }>((resolve, reject) => {
        const req = request(`${server.url}/v4/sentinel/services`, { localAddress }, (res) => {
          res.resume();
          resolve({ status: res.statusCode ?? 0, remaining: Number(res.headers['x-ratelimit-remaining']) });
        });
        req.on('error', reject);
        req.end();
      });
    const minute = () => Math.floor(Date.now() / 60_000);
    // A window boundary in the middle resets the count; that attempt is repeated.
    for (const address of ['127.0.0.77', '127.0.0.78']) {
      const started = minute();
      const seen = [];
      for (let i = 0; i < LIMIT + 2; i++) seen.push(await hit(i % 2 === 0 ? a : b, address));
      if (minute() !== started) continue;
      expect(seen.map((s) => s.remaining)).toEqual(
        Array.from({ length: LIMIT + 2 }, (_, i) => Math.max(0, LIMIT - 1 - i)),
      );
      expect(seen.slice(0, LIMIT).every((s) => s.status === 401)).toBe(true);
      expect(seen.slice(LIMIT).map((s) => s.status)).toEqual([429, 429]);
      return;
    }
    throw new Error('two attempts straddled a minute boundary');
  });
});
