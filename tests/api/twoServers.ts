// Two server processes on one PostgreSQL, for the scale-out tests: TEST_DATABASE_URL, or a
// throwaway PostgreSQL 15 from /usr/lib/postgresql/15/bin started for the test file. The schema is
// the file's own and is dropped with the servers.

import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { PG_BIN, startPostgres } from '../../bench/api/postgres.mjs';
import { type CreateServerOptions, createServer, type RunningServer } from '../../src/server/app.ts';

const ownPg = process.env.TEST_DATABASE_URL ? null : startPostgres();
/** Undefined when there is no PostgreSQL to share: skip the tests. */
export const sharedDatabaseUrl: string | undefined = process.env.TEST_DATABASE_URL ?? ownPg?.url;
if (!sharedDatabaseUrl)
  console.warn(`scale-out tests skipped: no TEST_DATABASE_URL and no PostgreSQL 15 in ${PG_BIN}`);

/** Drops a test file's schema of the shared PostgreSQL, with what it holds. */
export async function dropSharedSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: sharedDatabaseUrl });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
}

/** Stops a PostgreSQL started here, for a test file that does not use startTwoServers. */
export const stopSharedPostgres = () => ownPg?.stop();

export interface TwoServers {
  a: RunningServer;
  b: RunningServer;
  /** Closes both, drops the schema, and stops a PostgreSQL started here. */
  close(): Promise<void>;
}

export async function startTwoServers(
  schemaPrefix: string,
  opts: Partial<CreateServerOptions> = {},
): Promise<TwoServers> {
  const databaseUrl = sharedDatabaseUrl;
  if (!databaseUrl) throw new Error('no PostgreSQL to share');
  const schema = `${schemaPrefix}_${randomBytes(5).toString('hex')}`;
  const shared = { ...opts, databaseUrl, dbSchema: schema, staticDir: '/nonexistent' };
  let a: RunningServer | undefined;
  let b: RunningServer;
  try {
    a = await createServer(shared);
    b = await createServer(shared);
  } catch (e) {
    await a?.close();
    ownPg?.stop();
    throw e;
  }
  return {
    a,
    b,
    async close() {
      await a.close();
      await b.close();
      await dropSharedSchema(schema);
      ownPg?.stop();
    },
  };
}
