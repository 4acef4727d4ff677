// The database interface: named statements (prepared once, then bound and run)
// answer as unnamed ones do, fail cleanly, and never run inside another caller's transaction;
// identical list reads waiting for a connection share one answer.

import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trailedDb } from '../../src/server/activity/trail.ts';
import { type Db, openDb } from '../../src/server/db/db.ts';
import { dropSchema, recording, testDatabaseUrl } from './helpers.ts';

let db: Db;
const schema = `test_${randomBytes(6).toString('hex')}`;

beforeAll(async () => {
  db = await openDb({ databaseUrl: testDatabaseUrl(), schema });
  await db.exec(`CREATE TABLE items (id uuid PRIMARY KEY, label text, n bigint, tags jsonb)`);
});
afterAll(async () => {
  await db?.close();
  await dropSchema(schema);
});

/** A promise the test settles when it chooses. */
function latch() {
  let open = () => {};
  const opened = new Promise<void>((r) => {
    open = r;
  });
  return { open, opened };
}

const ids = Array.from({ length: 5 }, () => randomUUID());

it('answers a named statement as an unnamed one, every time it is run', async () => {
  for (const [i, id] of ids.entries())
    await db.query(
      `INSERT INTO items VALUES ($1, $2, $3, $4)`,
      [id, `item ${i}`, 2 ** 40 + i, { i }],
      'insert-item',
    );
  const sql = `SELECT id, label, n, tags FROM items WHERE id = ANY($1::uuid[]) AND ($2::text IS NULL OR label = $2) ORDER BY n`;
  const plain = (await db.query(sql, [ids.slice(1, 4), null])).rows;
  expect(plain).toHaveLength(3);
  expect(plain[0]).toEqual({ id: ids[1], label: 'item 1', n: 2 ** 40 + 1, tags: { i: 1 } });
  // Past the fifth run PostgreSQL may switch to a generic plan: the answers stay the same.
  for (let run = 0; run < 8; run++)
    expect((await db.query(sql, [ids.slice(1, 4), null], 'items-by-id')).rows).toEqual(plain);
  expect((await db.query(sql, [ids, 'item 4'], 'items-by-id')).rows).toEqual([
    { id: ids[4], label: 'item 4', n: 2 ** 40 + 4, tags: { i: 4 } },
  ]);
});

it('rejects a failing named statement with its code and goes on answering', async () => {
  const sql = 'SELECT 1 / $1::int AS q';
  await expect(db.query(sql, [0], 'divide')).rejects.toMatchObject({ code: '22012' });
  expect((await db.query(sql, [2], 'divide')).rows).toEqual([{ q: 0 }]);
  // A statement that does not parse is not kept: it fails the same way each time.
  for (let run = 0; run < 2; run++)
    await expect(db.query('SELECT FROM nowhere_at_all', [], 'broken')).rejects.toMatchObject({
      code: '42P01',
    });
  expect((await db.query('SELECT count(*)::int AS n FROM items', [], 'count-items')).rows).toEqual([
    { n: 5 },
  ]);
});

it('waits for an open transaction instead of running inside it', async () => {
  const held = latch();
  const inserted = latch();
  const tx = db
    .transaction(async (q) => {
      await q.query(`INSERT INTO items (id, label) VALUES ($1, 'uncommitted')`, [randomUUID()]);
      inserted.open();
      await held.opened;
      throw new Error('roll back');
    })
    .catch((e: Error) => e.message);
  await inserted.opened;
  const counted = db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM items WHERE label = 'uncommitted'`,
    [],
    'count-uncommitted',
  );
  held.open();
  expect(await tx).toBe('roll back');
  expect((await counted).rows).toEqual([{ n: 0 }]);
});

it('runs a transaction statement prepared in a rolled-back transaction again, alone or in another', async () => {
  const sql = `SELECT label FROM items WHERE id = $1`;
  const failed = await db
    .transaction(async (q) => {
      expect((await q.query(sql, [ids[2]])).rows).toEqual([{ label: 'item 2' }]);
      await q.query(`UPDATE items SET label = 'changed' WHERE id = $1`, [ids[2]]);
      // An error inside: the statements after it in this transaction fail, the next ones do not.
      await q.query('SELECT 1 / $1::int AS q', [0]);
    })
    .catch((e: { code?: string }) => e.code);
  expect(failed).toBe('22012');
  for (let run = 0; run < 3; run++)
    expect(await db.transaction(async (q) => (await q.query(sql, [ids[2]])).rows)).toEqual([
      { label: 'item 2' },
    ]);
  expect((await db.query(sql, [ids[3]])).rows).toEqual([{ label: 'item 3' }]);
  // A statement that fails in a transaction fails the same way the next time and leaves the rest working.
  for (let run = 0; run < 2; run++)
    await expect(
      db.transaction((q) => q.query('SELECT FROM nowhere_either WHERE x = $1', [1])),
    ).rejects.toMatchObject({
      code: '42P01',
    });
  expect(await db.transaction(async (q) => (await q.query(sql, [ids[4]])).rows)).toEqual([
    { label: 'item 4' },
  ]);
});

it("gives the routes' database (with the activity trail) every method of the database, looked up at each call", async () => {
  const trailed = trailedDb(db);
  expect(trailed.close).toBe(db.close);
  const ran = await recording(db, async () => {
    await trailed.query('SELECT 2 AS n');
  });
  expect(ran).toEqual(['SELECT 2 AS n']);
});

describe('background work (Db.background)', () => {
  const pidOf = async (q: Pick<Db, 'query'>) =>
    (await q.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
  /** Whether a process of this machine still runs `pid` (a backend leaves once its connection ends). */
  const running = (pid: number) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'latin1').startsWith('postgres');
    } catch {
      return false;
    }
  };

  it.runIf(process.platform === 'linux')(
    'runs on a database process of its own at the least priority, ended after; requests keep theirs',
    async () => {
      const pid = await db.background(async (conn) => {
        const own = await pidOf(conn);
        expect(getPriority(own)).toBe(19);
        // The pool's connections, which requests use, are not lowered.
        const pooled = await pidOf(db);
        expect(pooled).not.toBe(own);
        expect(getPriority(pooled)).toBe(0);
        // Its processor time, read from /proc, grows with the work it does (counted in 10 ms ticks).
        const before = conn.cpuMs();
        await conn.query('SELECT count(*) FROM generate_series(1, 5000000)');
        expect(conn.cpuMs()).toBeGreaterThanOrEqual(before + 10);
        return own;
      });
      await expect.poll(() => running(pid)).toBe(false);
    },
  );

  it('commits a transaction on its connection, and rolls one back that throws', async () => {
    const [kept, dropped] = [randomUUID(), randomUUID()];
    await db.background(async (conn) => {
      await conn.transaction((tx) =>
        tx.query('INSERT INTO items (id, label) VALUES ($1, $2)', [kept, 'kept']),
      );
      await expect(
        conn.transaction(async (tx) => {
          await tx.query('INSERT INTO items (id, label) VALUES ($1, $2)', [dropped, 'dropped']);
          throw new Error('changed its mind');
        }),
      ).rejects.toThrow('changed its mind');
    });
    const { rows } = await db.query('SELECT label FROM items WHERE id = ANY($1::uuid[])', [[kept, dropped]]);
    expect(rows).toEqual([{ label: 'kept' }]);
  });
});

it('goes on answering after the database ends its idle connections', async () => {
  const own = await openDb({ databaseUrl: testDatabaseUrl(), schema });
  try {
    const pid = 'SELECT pg_backend_pid() AS pid';
    // An idle connection in each pool: the main one and the one of named list reads.
    const killed = [
      (await own.query<{ pid: number }>(pid)).rows[0]!.pid,
      (await own.read<{ pid: number }>(pid, [], 'backend-pid')).rows[0]!.pid,
    ];
    const admin = new pg.Client({ connectionString: testDatabaseUrl() });
    await admin.connect();
    try {
      await admin.query('SELECT pg_terminate_backend(p) FROM unnest($1::int[]) AS p', [killed]);
      await expect
        .poll(
          async () =>
            (await admin.query('SELECT 1 FROM pg_stat_activity WHERE pid = ANY($1)', [killed])).rowCount,
        )
        .toBe(0);
    } finally {
      await admin.end();
    }
    // Unhandled, the closed connections' errors end the test process. A query may still meet a
    // dead connection before its error arrives; the next ones get new connections.
    await expect
      .poll(async () => {
        try {
          return killed.includes((await own.query<{ pid: number }>(pid)).rows[0]!.pid) ? 'old' : 'new';
        } catch {
          return 'failed';
        }
      })
      .toBe('new');
    expect((await own.read<{ n: number }>('SELECT 1 AS n', [], 'one')).rows).toEqual([{ n: 1 }]);
  } finally {
    await own.close();
  }
});

describe('list reads (Db.read)', () => {
  /** Holds an advisory lock that the reads below wait for, from a connection of its own. */
  async function lockHeld() {
    const key = randomBytes(4).readInt32BE();
    const holder = new pg.Client({ connectionString: testDatabaseUrl() });
    await holder.connect();
    await holder.query('SELECT pg_advisory_lock($1)', [key]);
    return {
      /** SQL that waits for the lock, then takes the sequence's next value. */
      waiting: (label: string) =>
        `SELECT '${label}' AS label, pg_advisory_xact_lock_shared(${key}) IS NULL AS waited, nextval('${schema}.reads') AS n`,
      /** Until `count` statements of this test wait for the lock. */
      async waiters(count: number) {
        for (;;) {
          const { rows } = await holder.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%' || $1 || '%'`,
            [`pg_advisory_xact_lock_shared(${key})`],
          );
          if (rows[0]!.n >= count) return;
          await new Promise((r) => setTimeout(r, 20));
        }
      },
      release: () => holder.end(),
    };
  }

  beforeAll(() => db.exec(`CREATE SEQUENCE ${schema}.reads`));

  it('shares one answer among identical reads waiting for a connection, not with a different one', async () => {
    const lock = await lockHeld();
    // More statements than the pool has connections: what comes after them waits for one.
    const blockers = Array.from({ length: 20 }, (_, i) => db.query(lock.waiting(`blocker ${i}`)));
    await lock.waiters(1);
    const sql = lock.waiting('read');
    const same = [db.read(sql, []), db.read(sql, []), db.read(sql, [])];
    const other = db.read(`${sql} WHERE $1::int = 1`, [1]);
    await lock.release();
    await Promise.all(blockers);
    const answers = await Promise.all(same);
    expect(answers[1]).toBe(answers[0]);
    expect(answers[2]).toBe(answers[0]);
    expect((await other).rows[0]!.n).not.toBe(answers[0]!.rows[0]!.n);
  });

  it('runs a read of its own once an identical one has started', async () => {
    const lock = await lockHeld();
    const sql = lock.waiting('started');
    const first = db.read<{ n: number }>(sql, [], 'read-started');
    await lock.waiters(1);
    const second = db.read<{ n: number }>(sql, [], 'read-started');
    await lock.waiters(2);
    await lock.release();
    const [a, b] = await Promise.all([first, second]);
    expect(a.rows[0]!.n).not.toBe(b.rows[0]!.n);
  });

  it('fails every caller of a shared read, and answers the next one', async () => {
    const lock = await lockHeld();
    const blockers = Array.from({ length: 20 }, (_, i) => db.query(lock.waiting(`held ${i}`)));
    await lock.waiters(1);
    const bad = 'SELECT 1 / $1::int AS q';
    const failing = [db.read(bad, [0]), db.read(bad, [0])];
    await lock.release();
    await Promise.all(blockers);
    for (const f of failing) await expect(f).rejects.toMatchObject({ code: '22012' });
    expect((await db.read(bad, [1])).rows).toEqual([{ q: 1 }]);
  });
});
