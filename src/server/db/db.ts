// The database interface over a pg Pool: the embedded PostgreSQL server (db/embedded.ts) or any
// other named by DATABASE_URL. Callers never see the pool.

import { readFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import ipaddr from 'ipaddr.js';
import pg from 'pg';

export interface Queryable {
  /**
   * `name` marks a statement run often with the same text: it is then parsed and planned once per
   * connection (the permissions view took 1.4 ms to plan and 0.4 ms to run).
   */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[], name?: string): Promise<{ rows: T[] }>;
  /** Several statements, no parameters (migrations, DDL). */
  exec(sql: string): Promise<void>;
}

export interface Db extends Queryable {
  /**
   * A read with no side effects (a list's page or count). Named, it is a statement whose generic
   * plan suits every value, planned once per connection and never again: PostgreSQL's own choice
   * kept planning the log's pages for each request (1.7 ms over its partitions, against 0.2 ms to
   * run), since a generic plan, pruned only when it runs, looks dearer than it is.
   *
   * A read still waiting for a connection shares its answer with identical ones (same text and
   * values) that arrive meanwhile. It has not started, so the later caller gets a state no older
   * than when it asked. Consoles watching one list ask at once (the same live event makes each
   * refetch), and under load they queue: each answer then serves every console that waits for it.
   */
  read<T = Record<string, unknown>>(sql: string, params: unknown[], name?: string): Promise<{ rows: T[] }>;
  /** Runs fn in one transaction; it commits when fn resolves and rolls back when it throws. */
  transaction<R>(fn: (tx: Queryable) => Promise<R>): Promise<R>;
  /**
   * Runs fn on a connection of its own whose database process, where it runs on this machine,
   * gets the processor only when nobody else wants it (lowerPriority): for long work done in the
   * background of the consoles' requests, such as a 30,000-line import. The connection is closed
   * after, so no request ever runs on it.
   */
  background<R>(fn: (db: Connection) => Promise<R>): Promise<R>;
  /** What it was opened with: another process opens the same database with them (inBackground). */
  readonly options: DbOptions;
  close(): Promise<void>;
}

/** One connection: its statements one after another, and transactions on it. */
export interface Connection extends Queryable {
  transaction<R>(fn: (tx: Queryable) => Promise<R>): Promise<R>;
  /**
   * The processor time its database process has used so far, in ms, where that process runs on
   * this machine (and Linux's /proc tells); 0 elsewhere, where its time is not this machine's.
   */
  cpuMs(): number;
}

export interface DbOptions {
  /** postgres://… */
  databaseUrl: string;
  /** Keep every object in this schema (created if missing), e.g. one per test file. */
  schema?: string;
}

const INT8 = 20;
// pg returns bigint as a string. Permission masks peak at 2^53−1, so a number is always exact here.
const toNumber = (v: string) => Number(v);

/** What every connection is opened with: bigint as number, and the settings below. */
function connectionSettings({ schema }: DbOptions) {
  const types = {
    getTypeParser: ((oid: number, format?: string) =>
      oid === INT8
        ? toNumber
        : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
  };
  if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema))
    throw new Error(`Bad schema name: ${schema}`);
  // Set at connection start-up, so no statement ever runs without them: the search_path; no JIT,
  // which suits seconds-long analytics and cost a paged list 11 ms of compiling per request; and no
  // parallel workers, whose start-up costs more than the short reads of a page they would share
  // (a walk of 1 ms took 14 ms with three), while the consoles' other requests want the cores.
  const options = [
    '-c jit=off',
    '-c max_parallel_workers_per_gather=0',
    ...(schema ? [`-c search_path=${schema},public`] : []),
  ].join(' ');
  return { types, options };
}

/** Queryable over a pool or one connection. */
const wrap = (q: pg.Pool | pg.ClientBase): Queryable => ({
  query: async <T>(sql: string, params?: unknown[], name?: string) => ({
    rows: (await q.query({ text: sql, values: params as unknown[], name })).rows as T[],
  }),
  exec: async (sql) => {
    await q.query(sql);
  },
});
/** fn in one transaction on `client`: committed when it resolves, rolled back when it throws. */
const transactionOn = async <R>(client: pg.ClientBase, fn: (tx: Queryable) => Promise<R>): Promise<R> => {
  await client.query('BEGIN');
  try {
    const result = await fn(wrap(client));
    await client.query('COMMIT');
    return result;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => {});
    throw e;
  }
};

export async function openDb(dbOptions: DbOptions): Promise<Db> {
  const { databaseUrl: url, schema } = dbOptions;
  const { types, options } = connectionSettings(dbOptions);
  // Connections are kept once made (pg closes one idle for 10 s by default): a new one costs a
  // database process, a SCRAM exchange and cold caches, and its first statements are planned again;
  // the pool was remaking two or three every half minute under the consoles' load.
  const pool = new pg.Pool({ connectionString: url, types, max: 8, options, idleTimeoutMillis: 0 });
  const genericPool = new pg.Pool({
    connectionString: url,
    types,
    max: 4,
    idleTimeoutMillis: 0,
    options: `${options} -c plan_cache_mode=force_generic_plan`,
  });
  // An idle connection the database ends (a restart, an operator's pg_terminate_backend) is an
  // 'error' event on its pool, which pg leaves unhandled, ending the process: the pool drops the
  // connection and makes a new one when next needed, so it is only said.
  for (const p of [pool, genericPool])
    p.on('error', (e) => console.error('database: an idle connection was closed:', e.message));
  if (schema) await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  return {
    ...wrap(pool),
    read: sharedWhileWaiting((name) => (name ? genericPool : pool)),
    async transaction(fn) {
      const client = await pool.connect();
      try {
        return await transactionOn(client, fn);
      } finally {
        client.release();
      }
    },
    background: (fn) => inBackground(dbOptions, fn),
    options: dbOptions,
    close: async () => {
      await Promise.all([pool.end(), genericPool.end()]);
    },
  };
}

/**
 * Db.background, for another process too (model/banImport.ts): fn on a new connection whose
 * database process, where it is this machine's, runs at the least priority; closed after.
 */
export async function inBackground<R>(dbOptions: DbOptions, fn: (db: Connection) => Promise<R>): Promise<R> {
  const client = new pg.Client({ connectionString: dbOptions.databaseUrl, ...connectionSettings(dbOptions) });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const local = isLoopback(client.host) && isPostgres(rows[0].pid);
    if (local) lowerPriority(rows[0].pid);
    return await fn({
      ...wrap(client),
      transaction: (f) => transactionOn(client, f),
      cpuMs: local ? () => processCpuMs(rows[0].pid) : () => 0,
    });
  } finally {
    await client.end();
  }
}

/** Whether a connection's host is this machine: by ipaddr.js's ranges, as net/outbound.ts judges addresses. */
function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  const address = host.replace(/^\[(.*)\]$/, '$1');
  return ipaddr.isValid(address) && ipaddr.process(address).range() === 'loopback';
}

/**
 * Whether `pid` is a PostgreSQL process of this machine. Only Linux's /proc tells (a server behind
 * a forwarded port is another machine's, whose pids mean nothing here); elsewhere, no.
 */
function isPostgres(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'latin1').startsWith('postgres');
  } catch {
    return false;
  }
}

/**
 * Lowers a database process of this machine to the least priority (nice 19): PostgreSQL has no
 * priorities of its own, and lowering a backend's, as pg_prioritize does, is the usual way to keep
 * a long statement from taking cores that short ones wait for.
 */
function lowerPriority(pid: number): void {
  try {
    setPriority(pid, 19);
  } catch {
    // Not ours to lower: the work runs at the usual priority.
  }
}

/** Linux counts a process's time in ticks of 1/100 s (USER_HZ, fixed by its ABI). */
const TICK_MS = 10;

/** A process's user and system time so far, in ms, from /proc (its 14th and 15th fields); 0 once gone. */
function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // The command name, in parentheses, may hold spaces: fields are counted after its end.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

type Rows = { rows: unknown[] };

/** Db.read over the pools `poolFor` picks: identical reads waiting for a connection run once. */
function sharedWhileWaiting(poolFor: (name?: string) => pg.Pool): Db['read'] {
  const waiting = new Map<string, Promise<Rows>>();
  return <T>(sql: string, params: unknown[], name?: string) => {
    const key = `${sql}\u0000${JSON.stringify(params)}`;
    const queued = waiting.get(key);
    if (queued) return queued as Promise<{ rows: T[] }>;
    const forget = () => {
      if (waiting.get(key) === answer) waiting.delete(key);
    };
    const answer: Promise<Rows> = (async () => {
      const client = await poolFor(name).connect();
      // Started: a caller from now on may be owed rows written since, so it runs its own.
      forget();
      try {
        const { rows } = await client.query({ text: sql, values: params, name });
        client.release();
        return { rows };
      } catch (e) {
        // As pg's Pool.query does: a connection that failed a query is not reused.
        client.release(e as Error);
        throw e;
      }
    })();
    waiting.set(key, answer);
    answer.then(forget, forget);
    return answer as Promise<{ rows: T[] }>;
  };
}
