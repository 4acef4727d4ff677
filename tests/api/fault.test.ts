// The fault test: the API server restarts while the simulator streams events. The mod's numbered
// queue with acknowledgements and the unique (service, seq) of log messages must leave every
// event the simulator made in the database exactly once, and the world tables in step with them.

import { randomBytes } from 'node:crypto';
import { afterAll, expect, it } from 'vitest';
import { type CreateServerOptions, createServer, type RunningServer } from '../../src/server/app.ts';
import { LINK_PATH } from '../../src/server/game/link/linkServer.ts';
import { seedDemo } from '../../src/server/seed.ts';
import { type Simulator, startSimulator } from '../../src/sim/index.ts';
import { DEMO, dropSchema, testDatabaseUrl, until } from './helpers.ts';

const schema = `fault_${randomBytes(5).toString('hex')}`;
const opts: CreateServerOptions = {
  databaseUrl: testDatabaseUrl(),
  dbSchema: schema,
  staticDir: '/nonexistent',
};

let server: RunningServer | undefined;
let sim: Simulator | undefined;

afterAll(async () => {
  await sim?.stop();
  await server?.close();
  await dropSchema(schema);
});

const stored = (s: RunningServer) =>
  s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM log_messages WHERE link_seq IS NOT NULL');

it('stores every simulated event exactly once across a server restart mid-stream', async () => {
  server = await createServer(opts);
  const port = server.port;
  const demo = await seedDemo(server.db, { ...DEMO, servers: 3 });
  sim = startSimulator({
    linkUrl: `${server.url.replace(/^http/, 'ws')}${LINK_PATH}`,
    servers: demo.servers.map((s) => ({ accessKey: s.accessKey, name: s.name })),
    tickMs: 25,
    seed: 99,
  });
  const live = sim;
  await until(
    'events streaming before the restart',
    async () => (await stored(server!)).rows[0].n > 100,
    20_000,
  );

  await server.close();
  server = undefined;
  await new Promise((r) => setTimeout(r, 300));
  server = await createServer({ ...opts, port });
  const restarted = server;
  await until(
    're-linked after the restart',
    () => live.servers.every((s) => s.link?.connected),
    // A bound, not a pace: the games' reconnect back-off grew while the server was down, and a
    // loaded machine starts the server slower.
    60_000,
  );
  // Streaming again, then the games stop making events and what they queued is drained: whether
  // the store outpaces three servers ticking every 25 ms is the machine's speed, not this test's.
  const atRelink = (await stored(restarted)).rows[0].n;
  await until(
    'streaming after the restart',
    async () => (await stored(restarted)).rows[0].n > atRelink + 100,
    60_000,
  );
  live.pause();
  await until('queues drained', () => live.servers.every((s) => s.queue.pending === 0), 120_000);

  for (const [i, s] of demo.servers.entries()) {
    const made = live.servers[i].queue.lastSeq;
    const { rows } = await restarted.db.query<{ seq: number; n: number }>(
      'SELECT link_seq::int AS seq, count(*)::int AS n FROM log_messages WHERE service_id = $1 AND link_seq IS NOT NULL GROUP BY 1 ORDER BY 1',
      [s.serviceId],
    );
    expect(rows.length).toBe(made);
    expect(rows.every((r, k) => r.seq === k + 1 && r.n === 1)).toBe(true);

    // The world tables followed the same events once each.
    const count = async (sql: string) =>
      (await restarted.db.query<{ n: number }>(sql, [s.serviceId])).rows[0].n;
    expect(await count('SELECT count(*)::int AS n FROM characters WHERE service_id = $1')).toBe(
      await count(
        `SELECT count(*)::int AS n FROM log_messages WHERE service_id = $1 AND event_name = 'playerSpawned'`,
      ),
    );
    expect(await count(`SELECT count(*)::int AS n FROM tribes WHERE service_id = $1`)).toBe(
      await count(
        `SELECT count(*)::int AS n FROM log_messages WHERE service_id = $1 AND event_name = 'tribeCreated'`,
      ),
    );
    const world = live.servers[i].world;
    expect(await count('SELECT count(*)::int AS n FROM dinos WHERE service_id = $1')).toBe(world.dinos.size);
    const statuses = await restarted.db.query<{ dino_id: string; status: string }>(
      'SELECT dino_id, status FROM dinos WHERE service_id = $1',
      [s.serviceId],
    );
    for (const r of statuses.rows) expect(r.status).toBe(world.dinos.get(r.dino_id)?.status);
  }
}, 240_000);
