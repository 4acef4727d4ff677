// The server under test for the API and realtime benches, in a process of its own so its peak
// RSS is the server's alone: on its own embedded PostgreSQL server as the default install runs one
// (or the PostgreSQL of BENCH_DATABASE_URL, in a schema of its own), BENCH_SERVERS
// demo services linked by simulated game servers, and BENCH_LOG_ROWS log messages bulk-inserted
// with generate_series (TOOLCHAIN §4). Reports {url, token, serviceIds, accessKeys, secret, loadMs,
// databasePid} over IPC, then its peak RSS (`{peakRssMiB}`) or its event-loop use (`{elu}`) when asked.

import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { createServer } from '../../src/server/app.ts';
import { hashPassword, seal } from '../../src/server/crypto.ts';
import { ensureLogPartitions } from '../../src/server/db/retention.ts';
import { LINK_PATH } from '../../src/server/game/link/linkServer.ts';
import { seedDemo } from '../../src/server/seed.ts';
import { DEMO, signIn } from '../../tests/api/helpers.ts';
import { type SeededDinos, seedDinos } from '../dinos/seed.ts';
import { insertBenchLogLines } from './logLines.ts';
import { type BenchPostgres, startBenchPostgres } from './postgres.ts';

const SIM_CLI = new URL('../../src/sim/cli.ts', import.meta.url).pathname;
const rows = Number(process.env.BENCH_LOG_ROWS ?? 1_000_000);
const servers = Number(process.env.BENCH_SERVERS ?? 50);
/** The dino list bench's data (bench/dinos): none unless asked for. */
const dinoRows = Number(process.env.BENCH_DINO_ROWS ?? 0);
/** BENCH_USERS: that many other accounts, each with a plan and signed in (`userTokens`). */
const otherUsers = Number(process.env.BENCH_USERS ?? 0);
const given = process.env.BENCH_DATABASE_URL || undefined;
const schema = given ? `bench_${randomBytes(4).toString('hex')}` : undefined;
const embedded = given ? null : await startBenchPostgres();
const databaseUrl = given ?? (embedded as BenchPostgres).url;

const server = await createServer({
  databaseUrl,
  dbSchema: schema,
  staticDir: '/nonexistent',
  // The consoles of a bench are many to an account; BENCH_RATE_LIMIT sets the default install's
  // limit where a bench measures what one account can do to the others.
  rateLimit: Number(process.env.BENCH_RATE_LIMIT ?? 1_000_000_000),
  // The simulated game servers answer RCON on this machine, as `npm start`'s demo allows.
  outboundAllow: ['127.0.0.1'],
  // As `npm start` runs (src/server/cli.ts); BENCH_RCON_WORKER=0 holds RCON here.
  rconWorker: process.env.BENCH_RCON_WORKER !== '0',
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
  if (on) await settled();
}

/**
 * Until the servers' crowds are in: every connect reads who is online, each player a join and a
 * session, thousands for hundreds of servers. That is a reconnect, which the bench measures
 * apart; the phases measure holding the servers. Settled once the open sessions stop growing.
 */
async function settled(): Promise<void> {
  const open = async () =>
    (
      await server.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM player_sessions WHERE disconnect_time IS NULL AND service_id = ANY($1::uuid[])',
        [ids],
      )
    ).rows[0]!.n;
  for (let last = -1, now = await open(); now === 0 || now > last; last = now, now = await open())
    await new Promise((r) => setTimeout(r, 1_000));
}

// Every day of the lines has its partition, as on an install that has run that long.
const started = Date.now();
await ensureLogPartitions(server.db, new Date(Date.now() - rows * 2500 - 86_400_000), new Date());
// Indexes are built once after the load rather than row by row during it (GIN especially).
const { rows: indexes } = await server.db.query<{ name: string; def: string }>(
  `SELECT indexname AS name, indexdef AS def FROM pg_indexes
    WHERE tablename = 'log_messages' AND indexname NOT IN
      (SELECT conname FROM pg_constraint WHERE conrelid = 'log_messages'::regclass)`,
);
for (const i of indexes) await server.db.exec(`DROP INDEX ${i.name}`);
await insertBenchLogLines(server.db, ids, rows);
// A partitioned table's index is listed as `ON ONLY` the parent, which would build no partition's.
for (const i of indexes) await server.db.exec(i.def.replace(' ON ONLY ', ' ON '));
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
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', SIM_CLI, '--link', linkUrl, '--servers-file', file, '--tick', '3000'],
    { stdio: 'ignore' },
  );
  // At the lowest priority: their turns are other machines' in a real install, and here they took
  // the cores the server and its database answer on (a game server working through an import's
  // 30,000 bans held half a core for seconds).
  if (child.pid !== undefined) setPriority(child.pid, 19);
  return child;
}

const token = (await signIn(`${server.url}/v4`)).access_token;

/** Tokens of `count` accounts other than the demo owner's, each with a plan for a few servers. */
async function signInOthers(count: number): Promise<string[]> {
  if (count === 0) return [];
  const password = 'bench-user-pass';
  const hash = await hashPassword(password);
  const tokens: string[] = [];
  for (let i = 0; i < count; i++) {
    const email = `bench-user-${i}@example.com`;
    await server.db.query(
      `WITH u AS (INSERT INTO users (username, email, password_hash) VALUES ($1, $1, $2) RETURNING user_id)
       INSERT INTO subscriptions (user_id, customer_email, product_id, product_name, product_game_id, expiration, units_allowed)
       SELECT user_id, $1, gen_random_uuid(), 'Bench plan', 'Sentinel', now() + interval '30 days', 3 FROM u`,
      [email, hash],
    );
    tokens.push((await signIn(`${server.url}/v4`, email, password)).access_token);
  }
  return tokens;
}
const userTokens = await signInOthers(otherUsers);

process.send?.({
  url: server.url,
  token,
  userTokens,
  serviceIds: ids,
  accessKeys: demo.servers.map((s) => s.accessKey),
  secret: server.config.pusher.secret,
  loadMs,
  dinos,
  // The bench measures the embedded database's processes itself (processTree.mjs).
  databasePid: embedded?.postmasterPid ?? null,
});
process.on('message', async (m: { type: string; on?: boolean; serviceId?: string }) => {
  if (m.type === 'rss') process.send?.({ peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024) });
  // With the loop's use, the CPU of every thread (an RCON worker's among them), in µs.
  if (m.type === 'elu') process.send?.({ elu: performance.eventLoopUtilization(), cpu: process.cpuUsage() });
  // The bench's own bookkeeping, which is not the API's traffic: how many script runs a server's
  // log holds.
  if (m.type === 'scriptRuns') {
    const { rows } = await server.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM log_messages WHERE service_id = $1 AND event_name = 'scriptRun'`,
      [m.serviceId],
    );
    process.send?.({ scriptRuns: rows[0]!.n });
  }
  if (m.type === 'openSessions') {
    const { rows } = await server.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM player_sessions WHERE disconnect_time IS NULL',
    );
    process.send?.({ openSessions: rows[0]!.n });
  }
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
    if (schema) {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query(`DROP SCHEMA ${schema} CASCADE`);
      await client.end();
    }
    await embedded?.stop();
    process.exit(0);
  }
});
