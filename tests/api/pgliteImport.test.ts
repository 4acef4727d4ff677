// An install made by the release before the embedded PostgreSQL server kept its data in
// .data/pglite. The fixture is such a folder, made by that release's `npm start` (three simulated
// servers, a few hundred log lines). Its data must arrive whole: every table's rows, the sign-in
// of its admin, and the newer migrations applied on top; the old folder kept, and never imported twice.

import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createServer, type RunningServer } from '../../src/server/app.ts';
import { importPgliteData } from '../../src/server/db/pgliteImport.ts';
import { DEMO, dropSchema, signIn, testDatabaseUrl } from './helpers.ts';

const FIXTURE = fileURLToPath(new URL('../fixtures/pglite-data-0.1.tar.xz', import.meta.url));
const schema = `import_${randomBytes(5).toString('hex')}`;
const dataDir = mkdtempSync(join(tmpdir(), 'palisade-import-'));
const url = `${testDatabaseUrl()}?options=${encodeURIComponent(`-c search_path=${schema},public`)}`;
let before: Map<string, number>;
let server: RunningServer | undefined;

/** Each table's row count in the old folder, read by PGlite itself. */
async function oldCounts(dir: string): Promise<Map<string, number>> {
  const lite = await PGlite.create(dir, { extensions: { pg_trgm } });
  try {
    const tables = await lite.query<{ name: string }>(
      "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'",
    );
    const counts = new Map<string, number>();
    for (const { name } of tables.rows)
      counts.set(
        name,
        (await lite.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${name}"`)).rows[0]!.n,
      );
    return counts;
  } finally {
    await lite.close();
  }
}

beforeAll(async () => {
  execFileSync('tar', ['-xJf', FIXTURE, '-C', dataDir]);
  before = await oldCounts(join(dataDir, 'pglite'));
  const admin = new pg.Client({ connectionString: testDatabaseUrl() });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
});

afterAll(async () => {
  await server?.close();
  await dropSchema(schema);
  rmSync(dataDir, { recursive: true, force: true });
});

it('moves every row of every table, keeps the old folder, and says what it did', async () => {
  const said: string[] = [];
  const result = await importPgliteData({ dataDir, databaseUrl: url, log: (l) => said.push(l) });
  expect(result).not.toBeNull();
  expect(before.get('log_messages')).toBeGreaterThan(100);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const [table, n] of before) {
      const { rows } = await client.query(`SELECT count(*)::int AS n FROM "${table}"`);
      expect({ table, n: rows[0].n }).toEqual({ table, n });
    }
  } finally {
    await client.end();
  }
  expect(result!.rows).toBe([...before.values()].reduce((a, b) => a + b, 0));
  expect(existsSync(join(dataDir, 'pglite'))).toBe(false);
  expect(readdirSync(dataDir)).toEqual([expect.stringMatching(/^pglite\.imported-\d{4}-\d{2}-\d{2}$/)]);
  expect(said.at(-1)).toMatch(/^Moved [\d,]+ rows in \d+ tables in [\d.]+ s; each table's count matches\./);
});

it('is not imported twice', async () => {
  expect(await importPgliteData({ dataDir, databaseUrl: url, log: () => {} })).toBeNull();
});

it('starts on the moved data: newer migrations apply, the old admin signs in, ids continue', async () => {
  server = await createServer({
    databaseUrl: testDatabaseUrl(),
    dbSchema: schema,
    staticDir: '/nonexistent',
  });
  const token = await signIn(`${server.url}/v4`, DEMO.email, DEMO.password);
  expect(token.access_token).toBeTruthy();
  const { rows } = await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM services');
  expect(rows[0]!.n).toBe(before.get('services'));
});
