// Applies src/server/db/migrations/NNN_name.sql in order, each once, recorded in schema_migrations.

import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Db } from './db.ts';

export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

export async function migrate(db: Db, dir = MIGRATIONS_DIR): Promise<string[]> {
  await db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied timestamptz NOT NULL DEFAULT now())',
  );
  const files = readdirSync(dir)
    .filter((f) => /^\d{3}_[\w-]+\.sql$/.test(f))
    .sort();
  const applied: string[] = [];
  for (const name of files) {
    const done = await db.transaction(async (tx) => {
      // One migration at a time in the whole database, not only in this schema: two servers
      // starting on one PostgreSQL apply each migration once, and servers of two schemas do not
      // both create an extension, which is the database's, not a schema's.
      await tx.exec(`SELECT pg_advisory_xact_lock(hashtext('palisade.migrate'))`);
      const seen = await tx.query('SELECT 1 FROM schema_migrations WHERE name = $1', [name]);
      if (seen.rows.length > 0) return false;
      await tx.exec(readFileSync(`${dir}${name}`, 'utf8'));
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [name]);
      return true;
    });
    if (done) applied.push(name);
  }
  return applied;
}
