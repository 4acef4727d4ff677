// Disk per log line (issue 32), in a process of its own: the same lines stored under the log
// schema of the release before (one table, a per-word table and a stored word vector: migrations
// up to 023) and under today's (weekly partitions, the words' GIN index: all migrations), each in a
// schema of its own on one embedded PostgreSQL server. For each: the table's data, its TOAST, each
// index, and the WAL written per line, by the bulk load and by the game's way of writing (ten
// lines a transaction through the ingest's insert). Prints the figures as JSON on stdout.
//
//   node --import tsx bench/storage/measure.ts [rows, default 1,000,000]

import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Db, openDb } from '../../src/server/db/db.ts';
import { MIGRATIONS_DIR, migrate } from '../../src/server/db/migrate.ts';
import { ensureLogPartitions } from '../../src/server/db/retention.ts';
import { insertLogs } from '../../src/server/game/ingest.ts';
import { seedDemo } from '../../src/server/seed.ts';
import { DEMO } from '../../tests/api/helpers.ts';
import { insertBenchLogLines } from '../api/logLines.ts';
import { startBenchPostgres } from '../api/postgres.ts';

const rows = Number(process.argv[2] ?? 1_000_000);
/** Lines written the game's way, ten a transaction, for the WAL a line costs as the game writes. */
const GAME_LINES = 20_000;
const CHUNK = 100_000;
const LAST_BEFORE = '023';

const pg = await startBenchPostgres();
const out: Record<string, unknown> = { rows };
try {
  for (const variant of ['before', 'after'] as const) {
    const db = await openDb({ databaseUrl: pg.url, schema: `storage_${variant}` });
    try {
      out[variant] = await measure(db, variant);
    } finally {
      await db.close();
    }
  }
} finally {
  await pg.stop();
}
process.stdout.write(`${JSON.stringify(out)}\n`);

async function measure(db: Db, variant: 'before' | 'after') {
  const dir = mkdtempSync(join(tmpdir(), 'palisade-migrations-'));
  for (const f of readdirSync(MIGRATIONS_DIR))
    if (variant === 'after' || f.slice(0, 3) <= LAST_BEFORE) cpSync(join(MIGRATIONS_DIR, f), join(dir, f));
  await migrate(db, `${dir}/`);
  rmSync(dir, { recursive: true, force: true });
  const demo = await seedDemo(db, { ...DEMO, servers: 50 });
  const ids = demo.servers.map((s) => s.serviceId);
  // The lines go back rows × 2.5 s from now; every week of them has its partition, as on an install
  // that has run that long.
  if (variant === 'after')
    await ensureLogPartitions(db, new Date(Date.now() - rows * 2500 - 86_400_000), new Date());

  const lsn = async () =>
    Number(
      (await db.query<{ b: string }>("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::text AS b"))
        .rows[0]!.b,
    );
  const wal0 = await lsn();
  const started = performance.now();
  for (let done = 0; done < rows; done += CHUNK)
    await insertBenchLogLines(db, ids, Math.min(CHUNK, rows - done));
  const loadSeconds = (performance.now() - started) / 1000;
  const wal1 = await lsn();
  for (let n = 0; n < GAME_LINES; n += 10)
    await db.transaction((tx) =>
      insertLogs(
        tx,
        ids[n % ids.length]!,
        Array.from({ length: 10 }, (_, i) => ({
          event: {
            eventName: 'chat',
            time: Date.now() / 1000,
            type: 'Gameplay' as const,
            level: 'Informational' as const,
            message: `Survivor ${n + i} says hello to everyone near the volcano`,
            metadata: { playerId: '0d8e4a4c-7f43-4d1e-9a51-3f7b1c2d9e10' },
          },
          key: { seq: n + i + 1 },
        })),
      ),
    );
  const wal2 = await lsn();
  await db.exec('VACUUM ANALYZE log_messages');
  if (variant === 'before') await db.exec('VACUUM ANALYZE log_terms');
  const lines = rows + GAME_LINES;

  // Every relation of the log: the table (or its partitions), TOAST, indexes; log_terms before.
  const { rows: rels } = await db.query<{ what: string; name: string; bytes: string }>(
    `WITH RECURSIVE tables AS (
       SELECT c.oid FROM pg_class c WHERE c.oid = ANY(ARRAY[to_regclass('log_messages'), to_regclass('log_terms')])
       UNION ALL SELECT i.inhrelid FROM pg_inherits i JOIN tables t ON i.inhparent = t.oid),
     parent_index AS (
       SELECT x.indexrelid, coalesce(
         (SELECT p.relname FROM pg_inherits pi JOIN pg_class p ON p.oid = pi.inhparent WHERE pi.inhrelid = x.indexrelid),
         ic.relname) AS name
         FROM pg_index x JOIN pg_class ic ON ic.oid = x.indexrelid WHERE x.indrelid IN (SELECT oid FROM tables))
     SELECT 'data' AS what, CASE WHEN c.relname = 'log_terms' THEN 'log_terms' ELSE 'log_messages' END AS name,
            pg_relation_size(c.oid)::text AS bytes FROM pg_class c WHERE c.oid IN (SELECT oid FROM tables)
     UNION ALL
     SELECT 'toast', 'log_messages', coalesce(pg_total_relation_size(c.reltoastrelid), 0)::text
       FROM pg_class c WHERE c.oid IN (SELECT oid FROM tables) AND c.reltoastrelid <> 0
     UNION ALL
     SELECT 'maps', 'free space and visibility',
            (pg_relation_size(c.oid, 'fsm') + pg_relation_size(c.oid, 'vm'))::text
       FROM pg_class c WHERE c.oid IN (SELECT oid FROM tables)
     UNION ALL
     SELECT 'index', name, pg_relation_size(indexrelid)::text FROM parent_index`,
  );
  const perLine: Record<string, Record<string, number>> = {};
  for (const r of rels) {
    perLine[r.what] ??= {};
    perLine[r.what]![r.name] = (perLine[r.what]![r.name] ?? 0) + Number(r.bytes) / lines;
  }
  const sum = (o: Record<string, number> = {}) => Object.values(o).reduce((a, b) => a + b, 0);
  const round = (o: Record<string, number>) =>
    Object.fromEntries(
      Object.entries(o)
        .map(([k, v]) => [k, Math.round(v)])
        .sort((a, b) => Number(b[1]) - Number(a[1])),
    );
  return {
    loadSeconds: Math.round(loadSeconds),
    bytesPerLine: {
      data: Math.round(sum(perLine.data)),
      toast: Math.round(sum(perLine.toast)),
      maps: Math.round(sum(perLine.maps)),
      indexes: Math.round(sum(perLine.index)),
      total: Math.round(sum(perLine.data) + sum(perLine.toast) + sum(perLine.maps) + sum(perLine.index)),
    },
    indexes: round(perLine.index ?? {}),
    walPerLine: { bulk: Math.round((wal1 - wal0) / rows), game: Math.round((wal2 - wal1) / GAME_LINES) },
  };
}
