// Migrations on one PostgreSQL: servers of two schemas starting at once on a new database both
// apply every migration; the extensions they create are the database's, made once.

import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDb } from '../../src/server/db/db.ts';
import { MIGRATIONS_DIR, migrate } from '../../src/server/db/migrate.ts';
import { testDatabaseUrl } from './helpers.ts';

const database = `test_${randomBytes(6).toString('hex')}`;
const url = () => {
  const u = new URL(testDatabaseUrl());
  u.pathname = `/${database}`;
  return u.toString();
};

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: testDatabaseUrl() });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

beforeAll(() => admin((c) => c.query(`CREATE DATABASE ${database}`)));
afterAll(() => admin((c) => c.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)));

it('applies every migration for two schemas starting at once on a new database', async () => {
  const all = readdirSync(MIGRATIONS_DIR)
    .filter((f) => /^\d{3}_[\w-]+\.sql$/.test(f))
    .sort();
  const dbs = await Promise.all(['one', 'two'].map((schema) => openDb({ databaseUrl: url(), schema })));
  try {
    const applied = await Promise.all(dbs.map((db) => migrate(db)));
    expect(applied).toEqual([all, all]);
    const ext = await dbs[0]!.query<{ extname: string }>(
      `SELECT extname FROM pg_extension WHERE extname IN ('pg_trgm', 'btree_gin') ORDER BY extname`,
    );
    expect(ext.rows.map((r) => r.extname)).toEqual(['btree_gin', 'pg_trgm']);
  } finally {
    await Promise.all(dbs.map((db) => db.close()));
  }
});
