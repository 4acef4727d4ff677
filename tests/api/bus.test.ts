// The cross-process bus on PostgreSQL: messages published together travel in few NOTIFYs, yet
// arrive complete and in the order they were published, a message too big for a NOTIFY among
// them; a process never hears its own.

import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Bus, createPgBus } from '../../src/server/cluster/bus.ts';
import { testDatabaseUrl } from './helpers.ts';
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
