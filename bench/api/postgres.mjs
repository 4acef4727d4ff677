// A throwaway PostgreSQL 15 cluster on a loopback port, as scripts/test.mjs starts one, for the
// benches and the scale-out test; null when the image has no PostgreSQL 15 server.
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const PG_BIN = '/usr/lib/postgresql/15/bin';

/** @returns {{ url: string, stop(): void } | null} */
export function startPostgres(extraOptions = '') {
  if (!existsSync(join(PG_BIN, 'initdb'))) return null;
  const dir = mkdtempSync(join(tmpdir(), 'palisade-pg-'));
  const asRoot = process.getuid?.() === 0;
  const run = (cmd, args) =>
    asRoot
      ? spawnSync('runuser', ['-u', 'postgres', '--', join(PG_BIN, cmd), ...args], { stdio: 'ignore' })
      : spawnSync(join(PG_BIN, cmd), args, { stdio: 'ignore' });
  if (asRoot) {
    const id = (flag) => Number(spawnSync('id', [flag, 'postgres']).stdout);
    chownSync(dir, id('-u'), id('-g'));
  }
  const data = join(dir, 'data');
  const port = 56432 + Math.floor(Math.random() * 1000);
  if (run('initdb', ['-D', data, '--auth=trust', '-U', 'postgres', '-E', 'UTF8']).status !== 0) return null;
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off ${extraOptions}`;
  if (run('pg_ctl', ['-D', data, '-o', opts, '-l', join(dir, 'log'), '-w', 'start']).status !== 0)
    return null;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      run('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
