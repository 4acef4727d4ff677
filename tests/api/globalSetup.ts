// The API tests' PostgreSQL: TEST_DATABASE_URL when set, otherwise the embedded server the product
// runs, started once for the whole run in a folder of its own. Each test file keeps its tables in
// a schema of its own (helpers.ts, twoServers.ts), so files never see each other's rows.

import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../../src/server/db/embedded.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const given = process.env.TEST_DATABASE_URL;
  if (given) {
    project.provide('databaseUrl', given);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'palisade-test-db-'));
  // Run as root, the server is another user, who must be able to enter the folder.
  chmodSync(dir, 0o711);
  // Test data need not survive a power cut: no fsync makes schema set-up several times faster.
  const pg = await startEmbeddedPostgres({
    dataDir: dir,
    settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off', max_connections: '300' },
  });
  project.provide('databaseUrl', pg.url);
  return async () => {
    await pg.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}
