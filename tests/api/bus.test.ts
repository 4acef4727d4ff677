// The cross-process bus on PostgreSQL: messages published together travel in few NOTIFYs, yet
// arrive complete and in the order they were published, a message too big for a NOTIFY among
// them; a process never hears its own. A server tells the others to forget what they kept after a
// write request, not after a refused one or one that writes only its own rows.

import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Bus, createPgBus } from '../../src/server/cluster/bus.ts';
import { KEEPS_READS } from '../../src/server/http/router.ts';
import { seedDemo } from '../../src/server/seed.ts';
import { call, DEMO, signIn, testDatabaseUrl, until } from './helpers.ts';
import { startTwoServers, type TwoServers } from './twoServers.ts';

let servers: TwoServers;
/** Two nodes of a bus of their own, on a schema no server uses. */
let x: Bus;
let y: Bus;
/** A third node on the servers' channel, to hear what A tells them. */
let listener: Bus;
let serviceId: string;

beforeAll(async () => {
  servers = await startTwoServers('bus');
  serviceId = (await seedDemo(servers.a.db, { ...DEMO, servers: 1 })).servers[0]!.serviceId;
  const on = (schema: string) => createPgBus({ databaseUrl: testDatabaseUrl(), schema, db: servers.a.db });
  const own = `bus_${randomBytes(4).toString('hex')}`;
  x = await on(own);
  y = await on(own);
  listener = await on(servers.schema);
});

afterAll(async () => {
  for (const bus of [x, y, listener]) await bus?.close();
  await servers?.close();
});

describe('the bus on PostgreSQL', () => {
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
  it('leaves alone only routes that exist', () => {
    const routes = new Set(servers.a.app.routes.map((r) => `${r.method} ${r.path}`));
    for (const route of KEEPS_READS) expect(routes).toContain(route.replace(' ', ' /v4'));
  });

  it('says "forget what you kept" after a write, never after a refused one or a script test', async () => {
    const base = `${servers.a.url}/v4`;
    const owner = (await signIn(base)).access_token;
    // What A says, in order: "forget" for each write, and each realtime event (a server renamed
    // names it), so a write's place among the others is known whatever A said before.
    const said: string[] = [];
    listener.on('reads.stale', () => said.push('forget'));
    listener.on('realtime', (m) => {
      for (const name of ['Before', 'Loot']) if (JSON.stringify(m).includes(name)) said.push(name);
    });
    const rename = async (nickname: string) => {
      const res = await call(base, owner, 'PATCH', `/sentinel/services/${serviceId}`, { nickname });
      expect(res.status).toBe(200);
    };
    const heard = (what: string) => until(`A's ${what}`, async () => said.includes(what));
    await rename('Before');
    await heard('Before');
    // Refused: a bucket with no name, a caller with no valid token, a body that is no JSON.
    expect((await call(base, owner, 'POST', '/sentinel/buckets', { name: '' })).status).toBe(400);
    expect((await call(base, 'no-such-token', 'POST', '/sentinel/buckets', { name: 'x' })).status).toBe(401);
    const notJson = await fetch(`${base}/sentinel/buckets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner}`, 'content-type': 'application/json' },
      body: '{',
    });
    expect(notJson.status).toBe(400);
    // Accepted, but writing only a row of its own: a script test.
    const test = await call(base, owner, 'POST', '/sentinel/scriptTests', {
      context: 'chat',
      language: 'Simple',
      chatMessage: 'hello',
      code: JSON.stringify({ conditions: [], actions: [] }),
    });
    expect(test.status, JSON.stringify(test.body)).toBe(200);
    await rename('Loot');
    await heard('Loot');
    await until('the last write told', async () => said.at(-1) === 'forget');
    // Between the two writes' events, only the first write's own "forget".
    expect(said.slice(said.indexOf('Before'))).toEqual(['Before', 'forget', 'Loot', 'forget']);
  });
});
