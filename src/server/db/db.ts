// One database interface over PGlite (embedded, the default) and a PostgreSQL server (pg Pool, when
// DATABASE_URL is set). Both run the same SQL; callers never see which one is underneath.

import { mkdirSync } from 'node:fs';
import { PGlite, parse, protocol } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';

export interface Queryable {
  /**
   * `name` marks a statement run often with the same text: it is then parsed and planned once per
   * connection (the permissions view took 1.4 ms to plan and 0.4 ms to run on PostgreSQL, 1.1 ms
   * against 0.25 ms on PGlite). Inside a PGlite transaction every statement is prepared once per
   * text, named or not (see openPglite).
   */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[], name?: string): Promise<{ rows: T[] }>;
  /** Several statements, no parameters (migrations, DDL). */
  exec(sql: string): Promise<void>;
  /**
   * A read with no side effects that may share the answer of an identical one (same text and
   * values) still waiting for the database. Embedded PGlite only, outside transactions, where
   * requests queue behind the one running statement: a waiting read has not started, so sharing
   * its answer gives the later caller a state no older than when it asked. Consoles that watch
   * the same list refetch it on the same live event, so under load they often ask at once.
   */
  readShared?<T = Record<string, unknown>>(sql: string, params: unknown[]): Promise<{ rows: T[] }>;
}

export interface Db extends Queryable {
  /** Runs fn in one transaction; it commits when fn resolves and rolls back when it throws. */
  transaction<R>(fn: (tx: Queryable) => Promise<R>): Promise<R>;
  close(): Promise<void>;
  /**
   * Embedded PGlite only, where every request waits while a statement runs: milliseconds since
   * the last statement or transaction ended, 0 while one runs (see statistics.ts).
   */
  quietMs?(): number;
}

export interface DbOptions {
  /** postgres://… to use a PostgreSQL server; otherwise PGlite. */
  databaseUrl?: string;
  /** PGlite data directory, or `memory://` for a throw-away database. */
  dataDir?: string;
  /** PostgreSQL only: keep every object in this schema (created if missing), e.g. one per test file. */
  schema?: string;
}

const INT8 = 20;
/** Distinct statement texts prepared inside PGlite transactions (see openPglite). */
const TX_STATEMENTS_KEPT = 2_000;
// pg returns bigint as a string; PGlite returns a number when it is exact. Permission masks peak
// at 2^53−1, so a number is always exact here and both drivers agree.
const toNumber = (v: string) => Number(v);

export async function openDb(opts: DbOptions = {}): Promise<Db> {
  return opts.databaseUrl
    ? openPg(opts.databaseUrl, opts.schema)
    : openPglite(opts.dataDir ?? '.data/pglite');
}

async function openPglite(dataDir: string): Promise<Db> {
  if (!dataDir.includes('://')) mkdirSync(dataDir, { recursive: true });
  // pg_trgm: the dino name search's substring index (migration 015).
  const lite = await PGlite.create(dataDir, { parsers: { [INT8]: toNumber }, extensions: { pg_trgm } });
  // Each new 16 MB WAL segment was written full of zeros first, inside whichever statement filled
  // the last one: every ~5,000 log lines a 40-60 ms stall of every request. Recovery never needs
  // the zeros (WAL pages carry their own headers and checksums).
  await lite.exec('SET wal_init_zero = off');
  const named = namedStatements(lite);
  /**
   * A transaction's statements are the game's events being stored (a dozen point reads and writes
   * each, tens a second from every server), run again and again with the same text. Prepared once,
   * each costs a bind and an execute: a status update took 0.16 ms against 0.28 ms unnamed, a
   * read of the permissions view 0.17 ms against 0.68 ms. Texts past the cap run unnamed.
   */
  const txNames = new Map<string, string>();
  const txName = (sql: string) => {
    let name = txNames.get(sql);
    if (!name && txNames.size < TX_STATEMENTS_KEPT) {
      name = `tx${txNames.size}`;
      txNames.set(sql, name);
    }
    return name;
  };
  const inTransaction = (tx: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
    query: async <T>(sql: string, params: unknown[] = []) => {
      const name = txName(sql);
      // lite.transaction holds the transaction lock already: only the query lock is taken.
      return {
        rows: name ? await named.inTransaction<T>(name, sql, params) : (await tx.query<T>(sql, params)).rows,
      };
    },
    exec: async (sql) => {
      await tx.exec(sql);
    },
  });
  let running = 0;
  let lastEnded = performance.now();
  /** Counts what runs, for quietMs. */
  const counted = async <R>(work: () => Promise<R>): Promise<R> => {
    running += 1;
    try {
      return await work();
    } finally {
      running -= 1;
      lastEnded = performance.now();
    }
  };
  /** Reads queued behind the running statement, by text and values: the answer they will share. */
  const queuedReads = new Map<string, Promise<{ rows: unknown[] }>>();
  return {
    readShared<T>(sql: string, params: unknown[]) {
      const key = `${sql}\u0000${JSON.stringify(params)}`;
      const queued = queuedReads.get(key);
      if (queued) return queued as Promise<{ rows: T[] }>;
      const answer: Promise<{ rows: unknown[] }> = counted(async () => ({
        // Once it starts, a later caller could be owed lines written since: it runs its own.
        rows: await named.alone('', sql, params, () => queuedReads.delete(key)),
      }));
      queuedReads.set(key, answer);
      const forget = () => {
        if (queuedReads.get(key) === answer) queuedReads.delete(key);
      };
      answer.then(forget, forget);
      return answer as Promise<{ rows: T[] }>;
    },
    query: <T>(sql: string, params: unknown[] = [], name?: string) =>
      counted(async () =>
        name
          ? { rows: await named.alone<T>(name, sql, params) }
          : { rows: (await lite.query<T>(sql, params)).rows },
      ),
    exec: (sql) =>
      counted(async () => {
        await lite.exec(sql);
      }),
    transaction: (fn) => counted(() => lite.transaction((tx) => fn(inTransaction(tx)))),
    close: () => lite.close(),
    quietMs: () => (running > 0 ? 0 : performance.now() - lastEnded),
  };
}

/**
 * PGlite's query() parses, describes and plans every statement afresh under an unnamed name. This
 * keeps a statement per name and sends only Bind/Execute for it, the messages PGlite itself sends,
 * under the locks its own query() takes: both when alone, so it never runs inside another
 * caller's transaction; only the query lock inside lite.transaction(), which holds the other.
 * A statement prepared inside a transaction outlives its rollback, as prepared statements do.
 */
function namedStatements(lite: PGlite) {
  const { serialize } = protocol;
  /** Statement name → the types of its parameters, as the server inferred them. */
  const prepared = new Map<string, number[]>();
  const send = async (message: Uint8Array) =>
    (await lite.execProtocol(message, { syncToFs: false })).messages;
  /** Named '' (PostgreSQL's unnamed statement), it is parsed afresh each time. */
  const run = async <T>(name: string, sql: string, params: unknown[]): Promise<T[]> => {
    const messages = [];
    try {
      let types = prepared.get(name);
      if (!types) {
        await send(serialize.parse({ name, text: sql }));
        types = parse.parseDescribeStatementResults(await send(serialize.describe({ type: 'S', name })));
        if (name) prepared.set(name, types);
      }
      const values = params.map((v, i) => {
        if (v === null || v === undefined) return null;
        const serializer = lite.serializers[types[i]];
        return serializer ? serializer(v) : String(v);
      });
      messages.push(
        ...(await send(serialize.bind({ statement: name, values }))),
        ...(await send(serialize.describe({ type: 'P' }))),
        ...(await send(serialize.execute({}))),
      );
    } finally {
      messages.push(...(await send(serialize.sync())));
    }
    return parse.parseResults(messages, lite.parsers)[0].rows as T[];
  };
  return {
    /** `started` runs once the statement holds the database, before it is sent. */
    alone: <T>(name: string, sql: string, params: unknown[], started?: () => void): Promise<T[]> =>
      lite._runExclusiveTransaction(() =>
        lite._runExclusiveQuery(async () => {
          started?.();
          const rows = await run<T>(name, sql, params);
          await lite.syncToFs();
          return rows;
        }),
      ),
    // As PGlite's own transaction statements, it leaves syncing to the end of the transaction.
    inTransaction: <T>(name: string, sql: string, params: unknown[]): Promise<T[]> =>
      lite._runExclusiveQuery(() => run<T>(name, sql, params)),
  };
}

async function openPg(url: string, schema?: string): Promise<Db> {
  const types = {
    getTypeParser: ((oid: number, format?: string) =>
      oid === INT8
        ? toNumber
        : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
  };
  if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema))
    throw new Error(`Bad schema name: ${schema}`);
  // Set at connection start-up, so no statement ever runs without them: the search_path, and no
  // JIT, which suits seconds-long analytics and cost a paged list 11 ms of compiling per request.
  const options = ['-c jit=off', ...(schema ? [`-c search_path=${schema},public`] : [])].join(' ');
  const pool = new pg.Pool({ connectionString: url, types, max: 8, options });
  if (schema) await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  const wrap = (q: pg.Pool | pg.PoolClient): Queryable => ({
    query: async <T>(sql: string, params?: unknown[], name?: string) => ({
      rows: (await q.query({ text: sql, values: params as unknown[], name })).rows as T[],
    }),
    exec: async (sql) => {
      await q.query(sql);
    },
  });
  return {
    ...wrap(pool),
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn(wrap(client));
        await client.query('COMMIT');
        return result;
      } catch (e) {
        await client.query('ROLLBACK').catch(() => {});
        throw e;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
