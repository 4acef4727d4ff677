// History kept by plan (issue 32, docs/billing.md "Retention"): log lines and chat, player
// sessions and the activity trail older than the owner's plan allows are removed, and none of it
// by a long statement that holds others up.
//
// The log is partitioned by UTC day (migration 024). What no owner keeps any longer goes by
// dropping whole days: a DROP takes the table's lock for an instant, and is tried with a short
// lock timeout so that it never queues requests behind a long read (it waits for the next tick
// instead). What only some owners keep (a monthly plan's 30 days beside a yearly plan's 90) goes
// in small batches of rows, each its own short statement; so do sessions, the activity trail and
// stragglers in the default partition (lines whose time fell outside every day). On an install
// whose owners all keep the same days (one plan, or the operator's PALISADE_RETENTION_DAYS), lines
// go by whole days only.

import { MAX_RETENTION_DAYS, RETENTION_DAYS, retentionClass } from '../../domain/plans.ts';
import type { Db, Queryable } from './db.ts';

const DAY_MS = 86_400_000;
/** Days made ahead of the clock, so a day's partition exists before its first line. */
const DAYS_AHEAD = 2;
/** Rows a batched delete removes per statement: a few milliseconds each. */
export const DELETE_BATCH = 2_000;
/**
 * How long a DROP may wait for the table's lock; requests that come meanwhile queue behind it, so
 * it gives way soon, and the pass leaves the other days for the next tick.
 */
const DROP_LOCK_TIMEOUT = '50ms';

export interface RetentionConfig {
  /** The operator's retention for every owner, in days (PALISADE_RETENTION_DAYS); unset, by plan. */
  days?: number;
}

export interface RetentionReport {
  droppedDays: string[];
  deletedLines: number;
  deletedSessions: number;
  deletedActivity: number;
}

/** log_messages_p20261128: the partition of that UTC day. */
export const dayPartition = (day: Date) =>
  `log_messages_p${day.toISOString().slice(0, 10).replaceAll('-', '')}`;

const startOfDay = (t: Date) => new Date(Math.floor(t.getTime() / DAY_MS) * DAY_MS);

/**
 * Makes the day partitions from `from` to `to` (UTC days, both included) that are missing. Lines
 * of such a day already in the default partition move into it, in the same transaction.
 */
export async function ensureLogPartitions(db: Db, from: Date, to: Date): Promise<string[]> {
  const made: string[] = [];
  for (let day = startOfDay(from); day <= to; day = new Date(day.getTime() + DAY_MS)) {
    const name = dayPartition(day);
    const { rows } = await db.query<{ exists: boolean }>('SELECT to_regclass($1) IS NOT NULL AS exists', [
      name,
    ]);
    if (rows[0]?.exists) continue;
    const [lo, hi] = [day.toISOString(), new Date(day.getTime() + DAY_MS).toISOString()];
    try {
      await db.transaction(async (tx) => {
        await tx.exec(`CREATE TABLE ${name} (LIKE log_messages INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`);
        await tx.query(
          `WITH moved AS (DELETE FROM log_messages_default WHERE time >= $1 AND time < $2 RETURNING *)
           INSERT INTO ${name} SELECT * FROM moved`,
          [lo, hi],
        );
        await tx.exec(
          `ALTER TABLE log_messages ATTACH PARTITION ${name} FOR VALUES FROM ('${lo}') TO ('${hi}')`,
        );
      });
      made.push(name);
    } catch (e) {
      // Another process made it meanwhile.
      if ((e as { code?: string }).code !== '42P07') throw e;
    }
  }
  return made;
}

/** Today's partition and the next days', so that a day exists before its first line. */
export const ensureComingDays = (db: Db, now = new Date()) =>
  ensureLogPartitions(db, now, new Date(now.getTime() + DAYS_AHEAD * DAY_MS));

/** Each owner of a server, with the days their plan keeps. */
async function ownerRetention(db: Queryable, config: RetentionConfig): Promise<Map<string, number>> {
  const { rows } = await db.query<{
    owner: string;
    valid: boolean;
    trial: boolean;
    period: 'monthly' | 'yearly' | null;
  }>(
    `SELECT DISTINCT ON (s.user_id) s.user_id AS owner,
            coalesce(sub.expiration > now(), false) AS valid,
            coalesce(sub.trial_end > now(), false) AS trial,
            sub.plan_period AS period
       FROM services s
       LEFT JOIN subscriptions sub ON sub.user_id = s.user_id AND sub.product_game_id = 'Sentinel'
      ORDER BY s.user_id, sub.expiration DESC NULLS LAST`,
  );
  return new Map(rows.map((r) => [r.owner, config.days ?? RETENTION_DAYS[retentionClass(r)]]));
}

/** The days of history kept for one server: its owner's plan's, or the operator's. */
export async function serviceRetentionDays(
  db: Queryable,
  serviceId: string,
  config: RetentionConfig,
): Promise<number> {
  if (config.days !== undefined) return config.days;
  const { rows } = await db.query<{ owner: string }>(
    'SELECT user_id AS owner FROM services WHERE service_id = $1',
    [serviceId],
  );
  return rows[0]
    ? ((await ownerRetention(db, config)).get(rows[0].owner) ?? RETENTION_DAYS.none)
    : RETENTION_DAYS.none;
}

/**
 * Runs `sql` (a DELETE of at most DELETE_BATCH rows, RETURNING 1) until it removes fewer, each
 * batch its own transaction. The retention setting lets the activity trail's trigger allow it.
 */
async function deleteInBatches(db: Db, sql: string, params: unknown[]): Promise<number> {
  let total = 0;
  for (;;) {
    const { rows } = await db.transaction(async (tx) => {
      await tx.exec("SET LOCAL palisade.retention = 'on'");
      return tx.query(sql, params);
    });
    total += rows.length;
    if (rows.length < DELETE_BATCH) return total;
    // A turn of the event loop between batches: requests waiting on this process go first.
    await new Promise((r) => setImmediate(r));
  }
}

/** Drops the day partitions wholly before `cutoff`, oldest first, until one finds the lock busy. */
async function dropDaysBefore(db: Db, cutoff: Date): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'log_messages'::regclass AND c.relname ~ '^log_messages_p\\d{8}$' ORDER BY 1`,
  );
  const dropped: string[] = [];
  for (const { name } of rows) {
    const day = Date.UTC(
      Number(name.slice(14, 18)),
      Number(name.slice(18, 20)) - 1,
      Number(name.slice(20, 22)),
    );
    if (day + DAY_MS > cutoff.getTime()) break;
    try {
      await db.transaction(async (tx) => {
        await tx.exec(`SET LOCAL lock_timeout = '${DROP_LOCK_TIMEOUT}'`);
        await tx.exec(`DROP TABLE ${name}`);
      });
      dropped.push(name);
    } catch (e) {
      const code = (e as { code?: string }).code;
      // The lock is busy (a long read): the next tick tries again.
      if (code === '55P03') break;
      // Another process dropped it first.
      if (code !== '42P01') throw e;
    }
  }
  return dropped;
}

/** What is older than `cutoff`, for the owner (their servers) or for everyone (owner null). */
async function deleteOlder(
  db: Db,
  cutoff: Date,
  owner: string | null,
): Promise<Omit<RetentionReport, 'droppedDays'>> {
  const theirs = (column: string) =>
    owner === null ? 'true' : `${column} IN (SELECT service_id FROM services WHERE user_id = $2)`;
  const params = owner === null ? [cutoff] : [cutoff, owner];
  return {
    deletedLines: await deleteInBatches(
      db,
      owner === null
        ? // The days are dropped whole; only lines outside every day are left to delete.
          `DELETE FROM log_messages_default WHERE ctid IN
             (SELECT ctid FROM log_messages_default WHERE time < $1 LIMIT ${DELETE_BATCH}) RETURNING 1`
        : `DELETE FROM log_messages WHERE (message_id, time) IN
             (SELECT message_id, time FROM log_messages m WHERE m.time < $1 AND ${theirs('m.service_id')}
               LIMIT ${DELETE_BATCH}) RETURNING 1`,
      params,
    ),
    deletedSessions: await deleteInBatches(
      db,
      `DELETE FROM player_sessions WHERE player_session_id IN
         (SELECT player_session_id FROM player_sessions ps WHERE ps.disconnect_time < $1 AND ${theirs('ps.service_id')}
           LIMIT ${DELETE_BATCH}) RETURNING 1`,
      params,
    ),
    deletedActivity: await deleteInBatches(
      db,
      // An entry of several owners' servers stays while any of them keeps it.
      `DELETE FROM activity WHERE activity_id IN
         (SELECT activity_id FROM activity a WHERE a.time < $1
             ${owner === null ? '' : 'AND cardinality(a.service_ids) > 0 AND a.service_ids <@ ARRAY(SELECT service_id FROM services WHERE user_id = $2)'}
           LIMIT ${DELETE_BATCH}) RETURNING 1`,
      params,
    ),
  };
}

/**
 * One pass: the coming days' partitions made, and everything past its owner's retention removed.
 * Processes sharing a database may run passes at once: each step is safe to race.
 */
export async function retentionTick(
  db: Db,
  config: RetentionConfig,
  now = new Date(),
): Promise<RetentionReport> {
  await ensureComingDays(db, now);
  const owners = await ownerRetention(db, config);
  const longest = config.days ?? Math.max(MAX_RETENTION_DAYS, ...owners.values());
  const daysAgo = (days: number) => new Date(now.getTime() - days * DAY_MS);
  const report: RetentionReport = {
    droppedDays: await dropDaysBefore(db, daysAgo(longest)),
    ...(await deleteOlder(db, daysAgo(longest), null)),
  };
  for (const [owner, days] of owners) {
    if (days >= longest) continue;
    const removed = await deleteOlder(db, daysAgo(days), owner);
    report.deletedLines += removed.deletedLines;
    report.deletedSessions += removed.deletedSessions;
    report.deletedActivity += removed.deletedActivity;
  }
  return report;
}
