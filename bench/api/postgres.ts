// The database of a bench's server, as the default install has it: the embedded PostgreSQL server
// (src/server/db/embedded.ts) in a folder of its own. Its memory and processor time are measured
// by the bench's own process (processTree.mjs), from the postmaster's pid.

import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '../../src/server/db/embedded.ts';

export interface BenchPostgres {
  url: string;
  /** The server's first process, whose children are its backends and helpers. */
  postmasterPid: number;
  stop(): Promise<void>;
}

export async function startBenchPostgres(): Promise<BenchPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'palisade-bench-db-'));
  chmodSync(dir, 0o711);
  const pg = await startEmbeddedPostgres({ dataDir: dir });
  return {
    url: pg.url,
    postmasterPid: Number(readFileSync(join(dir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]),
    async stop() {
      await pg.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
