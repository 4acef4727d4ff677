// The server under test for the API and realtime benches, in a process of its own so its peak
// RSS is the server's alone: PGlite in memory (or PostgreSQL with BENCH_DATABASE_URL), BENCH_SERVERS
// demo services linked by simulated game servers, and BENCH_LOG_ROWS log messages bulk-inserted
// with generate_series (TOOLCHAIN §4). Reports {url, token, serviceIds, accessKeys, secret, loadMs} over IPC,
// then `{peakRssMiB}` or its event-loop use (`{elu}`) when asked.

import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { createServer } from '../../src/server/app.ts';
import { seal } from '../../src/server/crypto.ts';
import { LINK_PATH } from '../../src/server/link/linkServer.ts';
import { seedDemo } from '../../src/server/seed.ts';
import { DEMO, signIn } from '../../tests/api/helpers.ts';
import { type SeededDinos, seedDinos } from '../dinos/seed.ts';

const SIM_CLI = new URL('../../src/sim/cli.ts', import.meta.url).pathname;
const rows = Number(process.env.BENCH_LOG_ROWS ?? 1_000_000);
const servers = Number(process.env.BENCH_SERVERS ?? 50);
/** The dino list bench's data (bench/dinos): none unless asked for. */
const dinoRows = Number(process.env.BENCH_DINO_ROWS ?? 0);
const databaseUrl = process.env.BENCH_DATABASE_URL || undefined;
const schema = databaseUrl ? `bench_${randomBytes(4).toString('hex')}` : undefined;

const server = await createServer({
  databaseUrl,
  dbSchema: schema,
  dataDir: 'memory://',
  staticDir: '/nonexistent',
  rateLimit: 1_000_000_000,
  // As `npm start` runs on PostgreSQL (src/server/cli.ts); BENCH_RCON_WORKER=0 holds RCON here.
  rconWorker: databaseUrl !== undefined && process.env.BENCH_RCON_WORKER !== '0',
});
const demo = await seedDemo(server.db, { ...DEMO, servers });
const ids = demo.servers.map((s) => s.serviceId);

// BENCH_RCON_PORT: the services connect over RCON instead, to game servers listening from that
// port on (bench/rcon/sim.ts); the connector takes them up at its next lease renewal. On
// `{type: 'rcon', on}` they switch to the link (which no game server speaks here) and back, so one
// server is measured with and without RCON servers polled.
const rconPort = Number(process.env.BENCH_RCON_PORT ?? 0);
if (rconPort > 0) {
  const sealed = seal(process.env.BENCH_RCON_PASSWORD ?? 'bench-rcon', server.config.rconKey);
  for (const [i, id] of ids.entries())
    await server.db.query(
      `UPDATE services SET connection_kind = 'rcon', rcon_host = '127.0.0.1', rcon_port = $2,
              rcon_password_sealed = $3 WHERE service_id = $1`,
      [id, rconPort + i, sealed],
    );
}
async function switchRcon(on: boolean): Promise<void> {
  await server.db.query('UPDATE services SET connection_kind = $2 WHERE service_id = ANY($1::uuid[])', [
    ids,
    on ? 'rcon' : 'link',
  ]);
  await server.rcon.renew();
}

// Indexes are built once after the load rather than row by row during it (GIN especially).
const started = Date.now();
const { rows: indexes } = await server.db.query<{ name: string; def: string }>(
  `SELECT indexname AS name, indexdef AS def FROM pg_indexes
    WHERE tablename = 'log_messages' AND indexname NOT IN
      (SELECT conname FROM pg_constraint WHERE conrelid = 'log_messages'::regclass)`,
);
for (const i of indexes) await server.db.exec(`DROP INDEX ${i.name}`);
// Words the text search scenario looks for appear in a known share of lines.
await server.db.query(
  `INSERT INTO log_messages (message_id, service_id, event_name, type, level, time, metadata, message)
   SELECT gen_random_uuid(), ($1::uuid[])[1 + i % cardinality($1::uuid[])],
          (ARRAY['chat','playerJoined','playerLeft','dinoTamed','dinoDied','structureDestroyed','tribeCreated','problemDetected'])[1 + i % 8],
          CASE WHEN i % 8 = 7 THEN 'Service' ELSE 'Gameplay' END,
          (ARRAY['Informational','Informational','Notice','Warning','Informational','Notice','Informational','Warning'])[1 + i % 8],
          now() - make_interval(secs => i * 2.5),
          jsonb_build_object('playerId', md5((i % 5000)::text)::uuid),
          (ARRAY['Rex','Raptor','Dodo','Argentavis','Giganotosaurus','Trike','Parasaur','Stegosaurus'])[1 + (i / 8) % 8] || ' ' ||
          (ARRAY['was tamed near the volcano','attacked the base','joined the server','left the server',
                 'says hello everyone','was killed by a turret','found metal in the cave','raided the swamp'])[1 + (i / 64) % 8] ||
          ' #' || i
     FROM generate_series(1, $2::int) AS i`,
  [ids, rows],
);
for (const i of indexes) await server.db.exec(i.def);
// As autovacuum leaves a table that has settled: statistics, and the visibility map that lets
// counts read the index alone.
await server.db.exec('VACUUM ANALYZE log_messages');
const dinos: SeededDinos | null = dinoRows > 0 ? await seedDinos(server.db, ids, dinoRows) : null;
const loadMs = Date.now() - started;

// BENCH_SIMULATE=0 leaves the game servers unlinked (to tell their load apart from the bench's).
// The simulated game servers run in a process of their own, as real ones run on other machines:
// sharing the server's event loop, their ticks stalled its answers by tens of milliseconds.
const sim =
  process.env.BENCH_SIMULATE === '0'
    ? null
    : startSimulatorProcess(
        `${server.url.replace(/^http/, 'ws')}${LINK_PATH}`,
        demo.servers.map((s) => ({ accessKey: s.accessKey, name: s.name })),
      );

function startSimulatorProcess(
  linkUrl: string,
  servers: { accessKey: string; name: string }[],
): ChildProcess {
  const file = join(mkdtempSync(join(tmpdir(), 'palisade-bench-')), 'servers.json');
  writeFileSync(file, JSON.stringify(servers));
  return spawn(
    process.execPath,
    ['--import', 'tsx', SIM_CLI, '--link', linkUrl, '--servers-file', file, '--tick', '3000'],
    { stdio: 'ignore' },
  );
}

const token = (await signIn(`${server.url}/v4`)).access_token;

process.send?.({
  url: server.url,
  token,
  serviceIds: ids,
  accessKeys: demo.servers.map((s) => s.accessKey),
  secret: server.config.pusher.secret,
  loadMs,
  dinos,
});
process.on('message', async (m: { type: string; on?: boolean }) => {
  if (m.type === 'rss') process.send?.({ peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024) });
  // With the loop's use, the CPU of every thread (an RCON worker's among them), in µs.
  if (m.type === 'elu') process.send?.({ elu: performance.eventLoopUtilization(), cpu: process.cpuUsage() });
  if (m.type === 'rcon') {
    await switchRcon(m.on === true);
    process.send?.({ rcon: m.on });
  }
  if (m.type === 'stop') {
    if (sim)
      await new Promise((r) => {
        sim.once('exit', r);
        sim.kill('SIGTERM');
      });
    await server.close();
    // Only once the server is closed: its link writes would otherwise deadlock with the drop.
    if (databaseUrl && schema) {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query(`DROP SCHEMA ${schema} CASCADE`);
      await client.end();
    }
    process.exit(0);
  }
});
