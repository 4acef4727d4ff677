// Moving an install made before the embedded PostgreSQL server (data in <dataDir>/pglite, the
// embedded WebAssembly PostgreSQL of earlier releases) into it, once, on the first start that
// finds that folder. PGlite is loaded only here, only then.
//
// Everything happens in one transaction on the new server: the schema as the old install had it
// (the migrations it had applied), every table's rows, the sequences. Anything failing rolls it
// all back and the next start tries again. After the commit each table's row count is compared
// with the old one; only when all agree is the old folder renamed (kept, not deleted) so that it
// is not imported twice. Migrations the old install lacked then run as on any start.

import { existsSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { formatCount } from '../../domain/format.ts';
import { MIGRATIONS_DIR } from './migrate.ts';

export interface PgliteImportOptions {
  dataDir: string;
  databaseUrl: string;
  log: (line: string) => void;
}

export interface PgliteImportResult {
  tables: number;
  rows: number;
  /** Where the old folder now is. */
  keptAs: string;
}

/** Rows read from PGlite and written to PostgreSQL at a time. */
const BATCH = 2_000;

/** The PGlite calls used here, so the rest of the file is typed without its package's types. */
interface Lite {
  query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
  exec(sql: string): Promise<unknown>;
  transaction<R>(fn: (tx: Pick<Lite, 'query' | 'exec'>) => Promise<R>): Promise<R>;
  close(): Promise<void>;
}

async function openLite(dir: string): Promise<Lite> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  return (await PGlite.create(dir, { extensions: { pg_trgm } })) as unknown as Lite;
}

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Imports <dataDir>/pglite when it is there; null when there is nothing to import. */
export async function importPgliteData(opts: PgliteImportOptions): Promise<PgliteImportResult | null> {
  const from = join(opts.dataDir, 'pglite');
  if (!existsSync(join(from, 'PG_VERSION'))) return null;
  opts.log(`Found the data of an earlier release in ${from}: moving it to the PostgreSQL server…`);
  const started = performance.now();
  const lite = await openLite(from);
  const target = new pg.Client({ connectionString: opts.databaseUrl });
  await target.connect();
  try {
    const tables = (
      await lite.query<{ name: string }>(
        "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename",
      )
    ).rows.map((r) => r.name);
    const counts = new Map<string, number>();
    await target.query('BEGIN');
    try {
      await createSchema(lite, target, tables);
      // No triggers (they would write derived rows the copy brings anyway) and no foreign-key
      // checks while tables arrive in name order; the counts are checked after the commit.
      await target.query('SET LOCAL session_replication_role = replica');
      await target.query(`TRUNCATE ${tables.map(ident).join(', ')}`);
      for (const table of tables) counts.set(table, await copyTable(lite, target, table));
      await resetSequences(target);
      await target.query('COMMIT');
    } catch (e) {
      await target.query('ROLLBACK').catch(() => {});
      throw e;
    }
    for (const table of tables) {
      const { rows } = await target.query<{ n: string }>(`SELECT count(*) AS n FROM ${ident(table)}`);
      if (Number(rows[0]?.n) !== counts.get(table))
        throw new Error(
          `Moving the old data failed: ${table} has ${rows[0]?.n} rows, the old database ${counts.get(table)}. ` +
            `The old data is untouched in ${from}.`,
        );
    }
    await lite.close();
    const keptAs = `${from}.imported-${new Date().toISOString().slice(0, 10)}`;
    renameSync(from, keptAs);
    const rows = [...counts.values()].reduce((a, b) => a + b, 0);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    opts.log(
      `Moved ${formatCount(rows)} rows in ${tables.length} tables in ${seconds} s; each table's count ` +
        `matches. The old folder is kept as ${keptAs}: delete it once you no longer need it.`,
    );
    return { tables: tables.length, rows, keptAs };
  } finally {
    await target.end();
    await lite.close().catch(() => {});
  }
}

/** The schema as the old install had it: the migrations it had applied, in order. */
async function createSchema(lite: Lite, target: pg.Client, tables: string[]): Promise<void> {
  const applied = tables.includes('schema_migrations')
    ? (await lite.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name')).rows
    : [];
  await target.query(
    'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied timestamptz NOT NULL DEFAULT now())',
  );
  for (const { name } of applied) {
    const path = join(MIGRATIONS_DIR, name);
    if (!existsSync(path))
      throw new Error(`The old data was made by a release with a migration this one lacks: ${name}`);
    await target.query(readFileSync(path, 'utf8'));
  }
}

/** Copies one table's rows through JSON, which both ends convert to and from every column type. */
async function copyTable(lite: Lite, target: pg.Client, table: string): Promise<number> {
  const { rows: cols } = await target.query<{ name: string }>(
    `SELECT column_name AS name FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = $1 AND is_generated = 'NEVER'
      ORDER BY ordinal_position`,
    [table],
  );
  const list = cols.map((c) => ident(c.name)).join(', ');
  const insert = `INSERT INTO ${ident(table)} (${list}) OVERRIDING SYSTEM VALUE
    SELECT ${list} FROM json_populate_recordset(null::${ident(table)}, $1::json)`;
  let copied = 0;
  await lite.transaction(async (tx) => {
    await tx.exec(
      `DECLARE rows_out NO SCROLL CURSOR FOR SELECT row_to_json(t)::text AS j FROM ${ident(table)} t`,
    );
    for (;;) {
      const { rows } = await tx.query<{ j: string }>(`FETCH ${BATCH} FROM rows_out`);
      if (rows.length === 0) break;
      await target.query(insert, [`[${rows.map((r) => r.j).join(',')}]`]);
      copied += rows.length;
    }
    await tx.exec('CLOSE rows_out');
  });
  return copied;
}

/** Each sequence continues after the highest value its column holds. */
async function resetSequences(target: pg.Client): Promise<void> {
  const { rows } = await target.query<{ seq: string; tbl: string; col: string }>(
    `SELECT s.oid::regclass::text AS seq, t.oid::regclass::text AS tbl, quote_ident(a.attname) AS col
       FROM pg_class s JOIN pg_depend d ON d.objid = s.oid AND d.deptype IN ('a', 'i')
       JOIN pg_class t ON t.oid = d.refobjid JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = d.refobjsubid
      WHERE s.relkind = 'S' AND s.relnamespace = current_schema()::regnamespace`,
  );
  for (const r of rows)
    await target.query(
      `SELECT setval('${r.seq}', coalesce((SELECT max(${r.col}) FROM ${r.tbl}), 0) + 1, false)`,
    );
}
