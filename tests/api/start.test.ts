// `npm start`'s own PostgreSQL server through a life of starts and stops: Ctrl+C, SIGTERM, SIGKILL
// of the start script and of everything at once, and a second start on a folder in use. After each,
// the data is still there, no database process is left, and never do two servers share the folder.

import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { until } from './helpers.ts';

const ROOT = new URL('../..', import.meta.url).pathname;
const dataDir = mkdtempSync(join(tmpdir(), 'palisade-start-'));
// Run as root, the database server is another user, who must be able to enter the folder.
chmodSync(dataDir, 0o711);
const pgdata = join(dataDir, 'postgres');
const STATE_MS = 60_000;

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** `npm start` without the console build, in a process group of its own as a terminal runs it. */
function start(): Started {
  const child = spawn(process.execPath, ['scripts/start.mjs', '--no-build'], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: '0',
      PALISADE_DATA_DIR: dataDir,
      PALISADE_SIM_SERVERS: '0',
      DATABASE_URL: '',
    },
  });
  let text = '';
  child.stdout?.on('data', (b) => {
    text += b;
  });
  child.stderr?.on('data', (b) => {
    text += b;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => text, exited };
}

const running = (s: Started) =>
  until('the start', () => s.output().includes('Palisade is running at'), STATE_MS).catch((e) => {
    throw new Error(`${(e as Error).message}; it printed:\n${s.output()}`);
  });

/** Processes whose command line names the data folder: the database server and its watchdog. */
function databaseProcesses(): number[] {
  const found: number[] = [];
  for (const pid of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(pgdata)) found.push(Number(pid));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

/** No database process left, and the folder free (the server took its lock away last). */
const noDatabaseLeft = async () => {
  await until('no database process', () => databaseProcesses().length === 0, STATE_MS);
  await until('the lock to go', () => !existsSync(join(dataDir, 'palisade.lock')), STATE_MS);
};

/** A query on the install's database, as its own secrets and running server say. */
async function query<T>(sql: string): Promise<T[]> {
  const { password } = JSON.parse(readFileSync(join(dataDir, 'postgres.json'), 'utf8'));
  const port = readFileSync(join(pgdata, 'postmaster.pid'), 'utf8').split('\n')[3];
  const client = new pg.Client({
    host: '127.0.0.1',
    port: Number(port),
    user: 'palisade',
    password,
    database: 'palisade',
  });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

const marker = async () =>
  (await query<{ n: number }>("SELECT count(*)::int AS n FROM groups WHERE name = 'Kept across starts'"))[0]!
    .n;

afterAll(async () => {
  for (const pid of databaseProcesses()) process.kill(pid, 'SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

it(
  'keeps its data and leaves no database running through Ctrl+C, SIGTERM and SIGKILL',
  async () => {
    // First start: the database is made; a row of ours goes in.
    let s = start();
    await running(s);
    expect(s.output()).toContain('Creating the database (first start)');
    await query(
      `INSERT INTO groups (name, user_id) SELECT 'Kept across starts', user_id FROM users ORDER BY created LIMIT 1`,
    );

    // A second start on the same folder is refused, naming the one running, which runs on.
    const second = start();
    expect(await second.exited).toBe(1);
    expect(second.output()).toMatch(/Another Palisade \(process \d+\) is using/);
    expect(await marker()).toBe(1);

    // Ctrl+C: the terminal signals the whole process group.
    process.kill(-s.child.pid!, 'SIGINT');
    expect(await s.exited).toBe(0);
    await noDatabaseLeft();

    // SIGTERM to the start script alone.
    s = start();
    await running(s);
    expect(s.output()).not.toContain('Creating the database');
    expect(await marker()).toBe(1);
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    await noDatabaseLeft();

    // SIGKILL of the start script alone: the server sees it gone and stops as on Ctrl+C.
    s = start();
    await running(s);
    s.child.kill('SIGKILL');
    await until('the server to stop', () => s.output().includes('npm start ended: stopping'), STATE_MS);
    await noDatabaseLeft();

    // SIGKILL of everything at once: the watchdog stops the database; the next start finds the
    // stale lock (its process is gone) and recovers.
    s = start();
    await running(s);
    process.kill(-s.child.pid!, 'SIGKILL');
    await until('no database process', () => databaseProcesses().length === 0, STATE_MS);
    expect(existsSync(join(dataDir, 'palisade.lock'))).toBe(true);
    s = start();
    await running(s);
    expect(await marker()).toBe(1);
    process.kill(-s.child.pid!, 'SIGINT');
    expect(await s.exited).toBe(0);
    await noDatabaseLeft();
  },
  10 * STATE_MS,
);
