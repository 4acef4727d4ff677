// RCON servers held by the API server's worker thread (app.ts `rconWorker`): another node of the
// cluster on the same PostgreSQL. The worker connects and polls; what it stores reaches this
// process's API; this process's chat and commands reach the game through it; closing the server
// lets the servers go.

import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type RunningServer } from '../../src/server/app.ts';
import { seal } from '../../src/server/crypto.ts';
import { seedDemo } from '../../src/server/seed.ts';
import type { Simulator } from '../../src/sim/index.ts';
import type { SimServer } from '../../src/sim/server.ts';
import { call, DEMO, dropSchema, signIn, testDatabaseUrl, until } from './helpers.ts';
import { chatLine, chatStored, connectedNode, startRconGame } from './rconGame.ts';
import { RCON_TEST_TIMINGS } from './rconTimings.ts';

const PASSWORD = 'held elsewhere';
const KEY = 'worker-key';
const schema = `rconworker_${randomBytes(5).toString('hex')}`;

let server: RunningServer | undefined;
let sim: Simulator;
let game: SimServer;
let serviceId: string;
let token: string;

const query = async <T>(sql: string, params: unknown[] = []) =>
  (await server!.db.query<T & pg.QueryResultRow>(sql, params)).rows;
/** This process's threads of lower priority (a higher nice value) than this one, by id; Linux only. */
const lowered = () =>
  readdirSync('/proc/self/task').filter(
    (tid) =>
      Number(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ')[16]) >
      getPriority(),
  );
let loweredBefore: string[] = [];
const connectedTo = () => connectedNode(server!.db, serviceId);
const chatLines = () => chatStored(server!.db, serviceId);

describe('an RCON worker', () => {
  beforeAll(async () => {
    ({ sim, game } = await startRconGame('Worked', PASSWORD));
    if (process.platform === 'linux') loweredBefore = lowered();
    server = await createServer({
      databaseUrl: testDatabaseUrl(),
      dbSchema: schema,
      staticDir: '/nonexistent',
      rconKey: KEY,
      rconTimings: RCON_TEST_TIMINGS,
      outboundAllow: ['127.0.0.1'],
      rconWorker: true,
    });
    const demo = await seedDemo(server.db, { ...DEMO, servers: 1 });
    serviceId = demo.servers[0].serviceId;
    await server.db.query(
      `UPDATE services SET connection_kind = 'rcon', rcon_host = '127.0.0.1', rcon_port = $2,
              rcon_password_sealed = $3 WHERE service_id = $1`,
      [serviceId, game.rcon!.port, seal(PASSWORD, KEY)],
    );
    await server.rcon.renew();
    token = (await signIn(`${server.url}/v4`)).access_token;
  }, 60_000);

  afterAll(async () => {
    await sim?.stop();
    await server?.close();
    await dropSchema(schema);
  });

  it('holds the server as a node of its own, and carries its chat and commands both ways', async () => {
    const nodes = (
      await query<{ id: string }>('SELECT node_id AS id FROM cluster_nodes ORDER BY started')
    ).map((r) => r.id);
    expect(nodes).toHaveLength(2);
    // The worker joined second, and holds the server; this thread holds no connection.
    await until('the worker connects', async () => (await connectedTo()) === nodes[1]);
    expect(server!.links.isConnected(serviceId)).toBe(false);
    expect(game.rcon!.clients).toBe(1);

    game.play(() => chatLine('from the game'));
    await until('the line stored', async () => (await chatLines()).includes('from the game'));

    // Chat checks who is connected across the cluster, not this thread's links alone.
    const chat = await call(`${server!.url}/v4`, token, 'POST', '/sentinel/chat', {
      serviceId,
      message: 'from the console',
    });
    expect(chat.status).toBe(204);
    await until('the console line back from GetChat', async () =>
      (await chatLines()).includes('from the console'),
    );

    const [player] = game.world.candidates();
    game.play((w) => w.join(player));
    await until('the player online', async () => game.world.online.has(player.playerId));
    const ban = await call(`${server!.url}/v4`, token, 'POST', '/sentinel/gameCommands', {
      serviceId,
      type: 'admin',
      command: `BanPlayer ${player.eosId}`,
    });
    expect(ban.body.results[0]).toMatchObject({ ok: true, result: `${player.eosId} banned and kicked` });
    expect(game.world.online.has(player.playerId)).toBe(false);
  }, 30_000);

  it.runIf(process.platform === 'linux')('polls on a thread of lower priority than the one answering', () => {
    expect(lowered().filter((tid) => !loweredBefore.includes(tid))).toHaveLength(1);
  });

  it('lets the server go when the API server closes', async () => {
    await server!.close();
    const client = new pg.Client({ connectionString: testDatabaseUrl() });
    await client.connect();
    try {
      await client.query(`SET search_path TO ${schema}`);
      const leases = await client.query('SELECT 1 FROM rcon_leases');
      expect(leases.rowCount).toBe(0);
      const s = await client.query('SELECT is_connected FROM services WHERE service_id = $1', [serviceId]);
      expect(s.rows[0].is_connected).toBe(false);
    } finally {
      await client.end();
    }
    await until('the game sees no client', async () => game.rcon!.clients === 0);
  }, 30_000);
});
