// One RCON connection per server across the cluster: the lease in PostgreSQL lets one server
// process hold it while it renews, keeps a second process off it, and hands it to that second
// process within seconds when the holder is killed (no release, no goodbye), with no chat line
// lost or stored twice on the way. The holder runs in a child process so it can really die.

import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type RunningServer } from '../../src/server/app.ts';
import { seal } from '../../src/server/crypto.ts';
import { type Db, openDb } from '../../src/server/db/db.ts';
import { seedDemo } from '../../src/server/seed.ts';
import type { Simulator } from '../../src/sim/index.ts';
import type { SimServer } from '../../src/sim/server.ts';
import { DEMO, dropSchema, testDatabaseUrl, until } from './helpers.ts';
import { chatLine, chatStored, connectedNode, startRconGame } from './rconGame.ts';
import { RCON_TEST_TIMINGS } from './rconTimings.ts';

const PASSWORD = 'lease me';
const schema = `rconscale_${randomBytes(5).toString('hex')}`;

let holder: ChildProcess | undefined;
let holderNode: string;
let b: RunningServer | undefined;
let db: Db | undefined;
let sim: Simulator;
let game: SimServer;
let serviceId: string;

const connectedTo = () => connectedNode(db!, serviceId);
const said = () => chatStored(db!, serviceId);
const say = (text: string) => game.play(() => chatLine(text));

describe('the RCON lease across two server processes', () => {
  beforeAll(async () => {
    ({ sim, game } = await startRconGame('Leased', PASSWORD));

    holder = spawn(
      process.execPath,
      ['--import', 'tsx', 'tests/api/rcon-holder.ts', testDatabaseUrl(), schema],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    holderNode = await new Promise<string>((resolve, reject) => {
      holder!.stdout!.on('data', (d: Buffer) => {
        const m = /ready (\S+)/.exec(d.toString());
        if (m) resolve(m[1]);
      });
      holder!.once('exit', (code) => reject(new Error(`holder exited with ${code}`)));
    });
    db = await openDb({ databaseUrl: testDatabaseUrl(), schema });
    const demo = await seedDemo(db, { ...DEMO, servers: 1 });
    serviceId = demo.servers[0].serviceId;
    await db.query(
      `UPDATE services SET connection_kind = 'rcon', rcon_host = '127.0.0.1', rcon_port = $2,
              rcon_password_sealed = $3 WHERE service_id = $1`,
      [serviceId, game.rcon!.port, seal(PASSWORD, 'scaleout-key')],
    );
  }, 60_000);

  afterAll(async () => {
    holder?.kill('SIGKILL');
    await sim?.stop();
    await b?.close();
    await db?.close();
    await dropSchema(schema);
  });

  it('keeps a second process off a held server, and takes it over within seconds of the holder dying', async () => {
    await until('the first process connects', async () => (await connectedTo()) === holderNode);
    b = await createServer({
      databaseUrl: testDatabaseUrl(),
      dbSchema: schema,
      staticDir: '/nonexistent',
      rconKey: 'scaleout-key',
      rconTimings: RCON_TEST_TIMINGS,
      outboundAllow: ['127.0.0.1'],
    });
    const bNode = (
      await db!.query<{ n: string }>('SELECT node_id AS n FROM cluster_nodes ORDER BY started DESC LIMIT 1')
    ).rows[0].n;
    // Several renewals of B's: the live holder keeps the server, and the game sees one client.
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await connectedTo()).toBe(holderNode);
    expect(game.rcon!.clients).toBe(1);
    say('before');
    await until('the first line stored', async () => (await said()).includes('before'));

    const exited = new Promise((r) => holder!.once('exit', r));
    holder!.kill('SIGKILL');
    const killedAt = Date.now();
    await exited;
    // A GetChat the holder sent just before it died still reaches the game, which drains its chat
    // for a reader that is gone: a line said before the game has read that socket to its end is
    // lost, as it would be in the real game. Said once the game has dropped the dead socket (or B
    // has connected, which comes after), the line waits in the game for the next holder.
    await until(
      'the game drops the dead holder’s socket',
      async () => game.rcon!.clients === 0 || (await connectedTo()) === bNode,
    );
    say('while nobody holds it');
    await until('B takes over', async () => (await connectedTo()) === bNode);
    expect(Date.now() - killedAt).toBeLessThan(5_000);
    await until('the line said meanwhile', async () => (await said()).includes('while nobody holds it'));
    say('after');
    await until('the line after', async () => (await said()).includes('after'));
    expect(await said()).toEqual(['before', 'while nobody holds it', 'after']);
    await until('the dead holder’s socket is gone', async () => game.rcon!.clients === 1);
  }, 30_000);
});
