// Two server processes on one PostgreSQL, for the scale-out tests: the run's server
// (globalSetup.ts), in a schema of the test file's own, dropped with the servers.

import { randomBytes } from 'node:crypto';
import { type CreateServerOptions, createServer, type RunningServer } from '../../src/server/app.ts';
import { dropSchema, testDatabaseUrl } from './helpers.ts';

export interface TwoServers {
  a: RunningServer;
  b: RunningServer;
  /** The schema both keep their tables in, which also names their bus's channel. */
  schema: string;
  /** Closes both and drops the schema. */
  close(): Promise<void>;
}

export async function startTwoServers(
  schemaPrefix: string,
  opts: Partial<CreateServerOptions> = {},
): Promise<TwoServers> {
  const schema = `${schemaPrefix}_${randomBytes(5).toString('hex')}`;
  const shared = { ...opts, databaseUrl: testDatabaseUrl(), dbSchema: schema, staticDir: '/nonexistent' };
  let a: RunningServer | undefined;
  let b: RunningServer;
  try {
    a = await createServer(shared);
    b = await createServer(shared);
  } catch (e) {
    await a?.close();
    await dropSchema(schema);
    throw e;
  }
  return {
    a,
    b,
    schema,
    async close() {
      await a.close();
      await b.close();
      await dropSchema(schema);
    },
  };
}
