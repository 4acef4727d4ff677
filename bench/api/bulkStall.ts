// How long other requests wait while the largest allowed bulk write runs (issue 11), in one
// process on its own embedded PostgreSQL server (or BENCH_DATABASE_URL's): a probe that reads one
// service (`GET /sentinel/services/{id}`) is sent back to back, first alone, then while one bulk
// route after another writes 250 objects again and again. Prints, per route, the bulk write's own
// time and the probe's p50/p99 against the probe alone in the same run.
//
//   node --import tsx bench/api/bulkStall.ts [seconds per route, default 4]
//   ONLY=Bans node --import tsx bench/api/bulkStall.ts   (the routes whose path holds "Bans")

import { BULK_OBJECTS_MAX } from '../../src/domain/limits.ts';
import { createServer } from '../../src/server/app.ts';
import { seedDemo } from '../../src/server/seed.ts';
import { call, DEMO, signIn } from '../../tests/api/helpers.ts';
import { percentile } from '../lib/stats.mjs';
import { type BenchPostgres, startBenchPostgres } from './postgres.ts';

const seconds = Number(process.argv[2] ?? 4);
const embedded = process.env.BENCH_DATABASE_URL ? null : await startBenchPostgres();
const server = await createServer({
  databaseUrl: process.env.BENCH_DATABASE_URL || (embedded as BenchPostgres).url,
  dbSchema: process.env.BENCH_DATABASE_URL ? `bulk_${Date.now()}` : undefined,
  staticDir: '/nonexistent',
  rateLimit: 1_000_000_000,
});
const demo = await seedDemo(server.db, { ...DEMO, servers: 3 });
const base = `${server.url}/v4`;
const token = (await signIn(base)).access_token;
const serviceId = demo.servers[0].serviceId;
const N = BULK_OBJECTS_MAX;

const { rows: players } = await server.db.query<{ id: string }>(
  `INSERT INTO players (name) SELECT 'Bulk ' || i FROM generate_series(1, ${N}) i RETURNING player_id AS id`,
);
const { rows: dinos } = await server.db.query<{ id: string }>(
  `INSERT INTO dinos (service_id, dino_number64, species, species_path)
   SELECT $1, i, 'Rex', '/Game/Rex' FROM generate_series(1, ${N}) i RETURNING dino_id AS id`,
  [serviceId],
);
const bucketId = (await call(base, token, 'POST', '/sentinel/buckets', { name: 'Bulk' })).body.created[0]
  .bucketId;

let round = 0;
/** Each route with a body of N objects; `round` keeps names and keys unique across repeats. */
const routes: [string, string, () => unknown[]][] = [
  ['POST', '/sentinel/groups', () => players.map((_, i) => ({ name: `G ${round}-${i}` }))],
  [
    'POST',
    '/sentinel/bucketValues',
    () => players.map((_, i) => ({ bucketId, key: `k${round}-${i}`, value: 'v' })),
  ],
  ['POST', '/sentinel/playerNotes', () => players.map((p) => ({ playerId: p.id, content: `note ${round}` }))],
  [
    'POST',
    '/sentinel/serviceBans',
    () => players.map((p) => ({ serviceId, playerId: p.id, comments: `ban ${round}` })),
  ],
  [
    'PATCH',
    '/sentinel/dinos',
    () => dinos.map((d) => ({ dinoId: d.id, status: round % 2 ? 'Dead' : 'Deployed' })),
  ],
];

async function probe(): Promise<number> {
  const t0 = performance.now();
  const r = await call(base, token, 'GET', `/sentinel/services/${serviceId}`);
  if (r.status !== 200) throw new Error(`probe ${r.status}`);
  return performance.now() - t0;
}

async function probes(until: () => boolean): Promise<number[]> {
  const out: number[] = [];
  while (!until()) out.push(await probe());
  return out;
}

const p = (xs: number[], q: number) => percentile(xs, q) ?? Number.NaN;
const fmt = (xs: number[]) => `p50 ${p(xs, 0.5).toFixed(1)} p99 ${p(xs, 0.99).toFixed(1)} ms`;

for (let i = 0; i < 200; i++) await probe();
const aloneEnd = Date.now() + seconds * 1000;
const alone = await probes(() => Date.now() > aloneEnd);
console.log(`probe alone: ${fmt(alone)} (${alone.length})`);
for (const [method, path, body] of routes.filter(
  (r) => !process.env.ONLY || r[1].includes(process.env.ONLY),
)) {
  let stop = false;
  const writes: number[] = [];
  const writer = (async () => {
    const end = Date.now() + seconds * 1000;
    while (Date.now() < end) {
      round += 1;
      // Bans are unique per player: clear the last round's before writing again.
      if (path.endsWith('Bans')) await server.db.query('DELETE FROM service_bans');
      const t0 = performance.now();
      const r = await call(base, token, method, path, body());
      writes.push(performance.now() - t0);
      if (r.status !== 200) throw new Error(`${path} ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
    }
    stop = true;
  })();
  const during = await probes(() => stop);
  await writer;
  console.log(
    `${method} ${path}: write ${fmt(writes)} (${writes.length}); probe ${fmt(during)} (${during.length}), p99 ${(p(during, 0.99) / p(alone, 0.99)).toFixed(1)}× alone`,
  );
}
await server.close();
await embedded?.stop();
process.exit(0);
