// Migration 018: bucket names become unique per owner in any case, and names that
// already differed only in case are kept, numbered, rather than failing the start-up.

import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { type Db, openDb } from '../../src/server/db/db.ts';
import { migrate } from '../../src/server/db/migrate.ts';
import { dropSchema, testDatabaseUrl } from './helpers.ts';

const schema = `test_${randomBytes(6).toString('hex')}`;
const ALL = fileURLToPath(new URL('../../src/server/db/migrations/', import.meta.url));
const before = mkdtempSync(join(tmpdir(), 'palisade-migrations-'));
let db: Db;

afterAll(async () => {
  await db?.close();
  rmSync(before, { recursive: true, force: true });
  await dropSchema(schema);
});

it('numbers names that differ only in case, then refuses such a name', async () => {
  for (const f of readdirSync(ALL).filter((f) => f < '018_')) cpSync(join(ALL, f), join(before, f));
  db = await openDb({ databaseUrl: testDatabaseUrl(), schema });
  await migrate(db, `${before}/`);
  const { rows } = await db.query<{ user_id: string }>(
    `INSERT INTO users (username, email, password_hash) VALUES ('Ann', 'ann@example.com', 'x'), ('Bob', 'bob@example.com', 'x')
     RETURNING user_id`,
  );
  const [ann, bob] = rows.map((r) => r.user_id);
  await db.query(
    `INSERT INTO buckets (bucket_id, user_id, name) VALUES
       ('00000000-0000-4000-8000-000000000001', $1, 'Economy'),
       ('00000000-0000-4000-8000-000000000002', $1, 'economy'),
       ('00000000-0000-4000-8000-000000000003', $1, 'ECONOMY'),
       ('00000000-0000-4000-8000-000000000004', $2, 'economy')`,
    [ann, bob],
  );
  expect(await migrate(db)).toContain('018_bucket_names.sql');
  const names = await db.query<{ name: string }>('SELECT name FROM buckets ORDER BY bucket_id');
  expect(names.rows.map((r) => r.name)).toEqual(['Economy', 'economy (1)', 'ECONOMY (2)', 'economy']);
  await expect(
    db.query(`INSERT INTO buckets (user_id, name) VALUES ($1, 'ECONOMY (1)')`, [ann]),
  ).rejects.toThrow();
  await db.query(`INSERT INTO buckets (user_id, name) VALUES ($1, 'Bank')`, [ann]);
});
