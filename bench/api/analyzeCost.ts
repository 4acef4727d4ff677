// What keeping planner statistics costs on embedded PGlite (issue 11), where every request waits
// while a statement runs: ANALYZE of the log tables at 200,000 lines, whole and one column, at
// the default statistics target (100: 30,000 sampled rows) and at 10 (3,000), each run five times
// after a warm-up; the median is printed.
//
//   node --import tsx bench/api/analyzeCost.ts [lines, default 200000]

import { openDb } from '../../src/server/db/db.ts';
import { migrate } from '../../src/server/db/migrate.ts';
import { seedDemo } from '../../src/server/seed.ts';
import { DEMO } from '../../tests/api/helpers.ts';
import { median } from '../lib/stats.mjs';

const lines = Number(process.argv[2] ?? 200_000);
const db = await openDb({ dataDir: 'memory://' });
await migrate(db);
const demo = await seedDemo(db, { ...DEMO, servers: 5 });
await db.query(
  `INSERT INTO log_messages (message_id, service_id, event_name, type, level, time, metadata, message)
   SELECT gen_random_uuid(), ($1::uuid[])[1 + i % cardinality($1::uuid[])], 'chat', 'Gameplay', 'Informational',
          now() - make_interval(secs => i * 2.5), '{}'::jsonb,
          (ARRAY['Rex','Raptor','Dodo','Argentavis'])[1 + i % 4] || ' found metal in the cave #' || i
     FROM generate_series(1, $2::int) AS i`,
  [demo.servers.map((s) => s.serviceId), lines],
);

async function timed(sql: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 6; i++) {
    const t0 = performance.now();
    await db.exec(sql);
    if (i > 0) times.push(performance.now() - t0);
  }
  return median(times) ?? Number.NaN;
}

for (const target of [100, 10])
  for (const what of ['log_messages', 'log_messages (service_id)', 'log_terms']) {
    const ms = await timed(`SET default_statistics_target = ${target}; ANALYZE ${what}`);
    console.log(`target ${target}: ANALYZE ${what}: ${ms.toFixed(0)} ms`);
  }
await db.close();
