// Planner statistics on embedded PGlite (issue 11, db/statistics.ts): with no autovacuum, the
// server analyzes the stalest table itself, one at a time, at a small statistics target, and only
// while no statement runs. PostgreSQL keeps its own (autovacuum), so there is nothing to test there.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDb } from '../../src/server/db/db.ts';
import { migrate } from '../../src/server/db/migrate.ts';
import { analyzeWhenQuiet, STATISTICS_TARGET } from '../../src/server/db/statistics.ts';

describe.skipIf(process.env.TEST_DATABASE_URL)('planner statistics on PGlite', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openDb({ dataDir: 'memory://' });
    await migrate(db);
  });
  afterAll(() => db?.close());

  const tuples = async () =>
    (await db.query<{ n: number }>(`SELECT reltuples::int AS n FROM pg_class WHERE relname = 'players'`))
      .rows[0].n;

  it('tells how long the database has been quiet, 0 while a statement runs', async () => {
    const running = db.query('SELECT pg_sleep(0.05)');
    expect(db.quietMs?.()).toBe(0);
    await running;
    await new Promise((r) => setTimeout(r, 30));
    expect(db.quietMs?.()).toBeGreaterThanOrEqual(25);
  });

  it('analyzes the stalest table once the database is quiet, and leaves it while requests run', async () => {
    await db.exec(`INSERT INTO players (name) SELECT 'Player ' || i FROM generate_series(1, 5000) i`);
    expect(await tuples()).toBe(-1); // never analyzed: the planner guesses the size
    const busy = db.query('SELECT pg_sleep(0.05)');
    expect(await analyzeWhenQuiet(db, 10)).toBeNull();
    await busy;
    // PostgreSQL publishes a session's change counts at most once a second.
    await new Promise((r) => setTimeout(r, 1100));
    await db.query('SELECT 1');
    expect(await analyzeWhenQuiet(db, 0)).toBe('public.players');
    expect(await tuples()).toBe(5000);
    // Fewer changes than a tenth of the table since: nothing is stale.
    await db.exec(`INSERT INTO players (name) SELECT 'Late ' || i FROM generate_series(1, 100) i`);
    await new Promise((r) => setTimeout(r, 1100));
    await db.query('SELECT 1');
    expect(await analyzeWhenQuiet(db, 0)).toBeNull();
    // The target was set for that ANALYZE alone.
    const { rows } = await db.query<{ target: string }>(
      `SELECT current_setting('default_statistics_target') AS target`,
    );
    expect(rows[0].target).toBe('100');
    expect(STATISTICS_TARGET).toBeLessThan(100);
  });
});
