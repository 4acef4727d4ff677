// The cross-process bus on PostgreSQL: messages published together travel in few NOTIFYs, yet
// arrive complete and in the order they were published, a message too big for a NOTIFY among
// them; a process never hears its own. A server tells the others to forget what they kept after a
// write request, not after a refused one.

import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Bus, createPgBus } from '../../src/server/cluster/bus.ts';
import { seedDemo } from '../../src/server/seed.ts';
import { call, DEMO, signIn, testDatabaseUrl } from './helpers.ts';
import { startTwoServers, type TwoServers } from './twoServers.ts';

describe('the bus on PostgreSQL', () => {
  let servers: TwoServers;
  let x: Bus;
  let y: Bus;

  beforeAll(async () => {
    servers = await startTwoServers('bus');
    const opts = {
      databaseUrl: testDatabaseUrl(),
      schema: `bus_${randomBytes(4).toString('hex')}`,
      db: servers.a.db,
    };
    x = await createPgBus(opts);
    y = await createPgBus(opts);
  });

  afterAll(async () => {
    await x?.close();
    await y?.close();
    await servers?.close();
  });

  it('delivers a burst whole and in order, a spilled message included, and not back to its sender', async () => {
    const heardByY: unknown[] = [];
    const heardByX: unknown[] = [];
    y.on('burst', (m) => heardByY.push(m));
    x.on('burst', (m) => heardByX.push(m));
    const sent = Array.from({ length: 300 }, (_, i) => (i === 150 ? { i, big: 'x'.repeat(20_000) } : { i }));
    await Promise.all(sent.map((m) => x.publish('burst', m)));
    const end = Date.now() + 5_000;
    while (heardByY.length < sent.length && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    expect(heardByY).toEqual(sent);
    expect(heardByX).toEqual([]);
  });
});

describe('what a server tells the others after a request', () => {
  let servers: TwoServers;
  let listener: Bus;

  beforeAll(async () => {
    servers = await startTwoServers('stale');
    await seedDemo(servers.a.db, { ...DEMO, servers: 1 });
    // A third node on the servers' channel, to hear what A tells them.
    listener = await createPgBus({
      databaseUrl: testDatabaseUrl(),
      schema: servers.schema,
      db: servers.a.db,
    });
  });

  afterAll(async () => {
    await listener?.close();
    await servers?.close();
  });

  it('says "forget what you kept" after a write, never after a refused one', async () => {
    const base = `${servers.a.url}/v4`;
    const owner = (await signIn(base)).access_token;
    const told: unknown[] = [];
    listener.on('reads.stale', (m) => told.push(m));
    // Refused: a bucket with no name, a caller with no valid token, a body that is no JSON.
    expect((await call(base, owner, 'POST', '/sentinel/buckets', { name: '' })).status).toBe(400);
    expect((await call(base, 'no-such-token', 'POST', '/sentinel/buckets', { name: 'Loot' })).status).toBe(
      401,
    );
    const notJson = await fetch(`${base}/sentinel/buckets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner}`, 'content-type': 'application/json' },
      body: '{',
    });
    expect(notJson.status).toBe(400);
    expect((await call(base, owner, 'POST', '/sentinel/buckets', { name: 'Loot' })).status).toBe(200);
    // A's messages arrive in the order it sent them: once the write's has come, a refusal's would have.
    const end = Date.now() + 5_000;
    while (told.length === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    expect(told).toHaveLength(1);
  });
});
