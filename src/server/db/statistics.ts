// Planner statistics on embedded PGlite (issue 11). PostgreSQL's autovacuum analyzes a table once
// a tenth of it has changed; PGlite has no such daemon, so without this the planner never learns
// how large the log has grown, and a list's total past 10,000 is the planner's estimate. An
// ANALYZE holds every request while it runs there (one statement at a time): a whole
// `ANALYZE log_messages` took 354 ms at 210,000 lines. So the keeper analyzes one table at a time,
// the stalest, only once the database has been quiet for a while, and at statistics target 10
// (3,000 sampled rows rather than 30,000): at 200,000 lines 96 ms against 1,079 ms in the same run
// (bench/api/analyzeCost.ts, on a machine loaded some tenfold; ~30 ms against 354 ms when quiet).

import type { Db } from './db.ts';

/** Rows sampled per table: 300 × this. PostgreSQL's default is 100. */
export const STATISTICS_TARGET = 10;
/** How long the database must have been idle before an ANALYZE may start. */
export const QUIET_MS = 1_000;
/** How often the keeper looks for a stale table. */
export const STATISTICS_TICK_MS = 5_000;

/** Autovacuum's default rule: 50 rows and a tenth of the table changed since its last ANALYZE. */
const STALEST = `SELECT quote_ident(schemaname) || '.' || quote_ident(relname) AS name
  FROM pg_stat_user_tables WHERE n_mod_since_analyze > 50 + 0.1 * n_live_tup
 ORDER BY n_mod_since_analyze DESC LIMIT 1`;

/** Analyzes the stalest table when the database is quiet; resolves to its name, or null. */
export async function analyzeWhenQuiet(db: Db, quietMs = QUIET_MS): Promise<string | null> {
  if ((db.quietMs?.() ?? 0) < quietMs) return null;
  const { rows } = await db.query<{ name: string }>(STALEST);
  const name = rows[0]?.name;
  if (!name) return null;
  await db.transaction((tx) =>
    tx.exec(`SET LOCAL default_statistics_target = ${STATISTICS_TARGET}; ANALYZE ${name}`),
  );
  return name;
}
