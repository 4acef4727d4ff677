// History kept by plan (issue 32, docs/billing.md "Retention"): log lines and chat, player
// sessions and the activity trail older than the owner's plan allows are removed, and none of it
// by a long statement that holds others up.
//
// The log is partitioned by UTC week (migration 024). What no owner keeps any longer goes by
// dropping whole weeks, once past: a DROP takes the table's lock for an instant, and is tried with a short
// lock timeout so that it never queues requests behind a long read (it waits for the next tick
// instead). What only some owners keep (a monthly plan's 30 days beside a yearly plan's 90) goes
// in small batches of rows, each its own short statement; so do sessions, the activity trail and
// stragglers in the range before the first week. On an install
// whose owners all keep the same days (one plan, or the operator's PALISADE_RETENTION_DAYS), lines
// go by whole weeks only, each within a week of passing its owners' retention.

import { MAX_RETENTION_DAYS, RETENTION_DAYS, retentionClass } from '../../domain/plans.ts';
import type { Db, Queryable } from './db.ts';

const DAY_MS = 86_400_000;
/** A partition of the log spans a week, from Monday 00:00 UTC (migration 024). */
const WEEK_MS = 7 * DAY_MS;
/** The first Monday of the epoch, 1970-01-05: weeks are counted from it. */
const MONDAY_MS = 4 * DAY_MS;
/** How far ahead of the clock the partitions reach, so a week's exists before its first line. */
const DAYS_AHEAD = 2;
/** Rows a batched delete removes per statement: a few milliseconds each. */
export const DELETE_BATCH = 2_000;
/**
 * How long the retention job waits for the table's lock (to drop weeks, or bound the end ranges);
 * requests that come meanwhile queue behind it, so it gives way soon and leaves it to the next tick.
 */
const LOCK_TIMEOUT = '50ms';

export interface RetentionConfig {
  /** The operator's retention for every owner, in days (PALISADE_RETENTION_DAYS); unset, by plan. */
  days?: number;
}

export interface RetentionReport {
  droppedWeeks: string[];
  deletedLines: number;
  deletedSessions: number;
  deletedActivity: number;
  /** Alert deliveries sent or failed, and incidents cleared, before the longest retention. */
  deletedAlertHistory: number;
}

const startOfWeek = (ms: number) => Math.floor((ms - MONDAY_MS) / WEEK_MS) * WEEK_MS + MONDAY_MS;
const iso = (ms: number) => new Date(ms).toISOString();

/** log_messages_w20261123: the partition of the week (from Monday, UTC) holding that moment. */
export const logPartition = (t: Date) =>
  `log_messages_w${iso(startOfWeek(t.getTime())).slice(0, 10).replaceAll('-', '')}`;

/** The ranges before the first week and after the last (migration 024). */
const BEFORE = 'log_messages_before';
const LATER = 'log_messages_later';
/** A line's columns but the words, which PostgreSQL makes from the message (migration 024). */
const STORED_COLUMNS = `message_id, service_id, link_seq, event_name, type, level, time, analyzer_status, metadata,
  message, translations, grouping_key, group_repeat, rcon_key`;
const WEEK_NAME = /^log_messages_w(\d{4})(\d{2})(\d{2})$/;

/** The week partitions there are, oldest first, as the moments they start (epoch ms). */
async function weeks(db: Queryable): Promise<number[]> {
  const { rows } = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'log_messages'::regclass`,
  );
  return rows
    .flatMap(({ name }) => {
      const m = WEEK_NAME.exec(name);
      return m ? [Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))] : [];
    })
    .sort((a, b) => a - b);
}

/**
 * The log's lock, taken first: writers take the table before the week they write to, so a drop or
 * detach that took a week first and then waited for the table deadlocked with them.
 */
async function lockLog(tx: Queryable, timeout: string): Promise<void> {
  await tx.exec(`SET LOCAL lock_timeout = '${timeout}'; LOCK TABLE log_messages IN ACCESS EXCLUSIVE MODE`);
}

const isCode = (e: unknown, ...codes: string[]) => codes.includes((e as { code?: string }).code ?? '');

/**
 * Makes the week partitions holding `from` and `to` and every one between them and the weeks there
 * are, so that the weeks stay one run between the two end ranges. Lines of the new weeks waiting
 * in an end range move into them, and the ends are bounded anew: one transaction,
 * whose detaching of the ends takes the table's lock for the few milliseconds it lasts, waiting
 * at most `lockTimeout` for it (55P03 past that). Resolves to the partitions made.
 */
export async function ensureLogPartitions(
  db: Db,
  from: Date,
  to: Date,
  lockTimeout = '10s',
): Promise<string[]> {
  const have = await weeks(db);
  const first = Math.min(startOfWeek(from.getTime()), have[0] ?? Number.POSITIVE_INFINITY);
  const last = Math.max(startOfWeek(to.getTime()), have.at(-1) ?? Number.NEGATIVE_INFINITY);
  const wanted: number[] = [];
  for (let week = first; week <= last; week += WEEK_MS) if (!have.includes(week)) wanted.push(week);
  if (wanted.length === 0) return [];
  try {
    await db.transaction(async (tx) => {
      await lockLog(tx, lockTimeout);
      await tx.exec(`ALTER TABLE log_messages DETACH PARTITION ${BEFORE}`);
      await tx.exec(`ALTER TABLE log_messages DETACH PARTITION ${LATER}`);
      for (const week of wanted)
        await tx.exec(
          `CREATE TABLE ${logPartition(new Date(week))} PARTITION OF log_messages
             FOR VALUES FROM ('${iso(week)}') TO ('${iso(week + WEEK_MS)}')`,
        );
      for (const end of [BEFORE, LATER])
        await tx.query(
          `WITH moved AS (DELETE FROM ${end} WHERE time >= $1 AND time < $2 RETURNING ${STORED_COLUMNS})
           INSERT INTO log_messages (${STORED_COLUMNS}) SELECT ${STORED_COLUMNS} FROM moved`,
          [iso(first), iso(last + WEEK_MS)],
        );
      await tx.exec(
        `ALTER TABLE log_messages ATTACH PARTITION ${BEFORE} FOR VALUES FROM (MINVALUE) TO ('${iso(first)}')`,
      );
      await tx.exec(
        `ALTER TABLE log_messages ATTACH PARTITION ${LATER} FOR VALUES FROM ('${iso(last + WEEK_MS)}') TO (MAXVALUE)`,
      );
    });
  } catch (e) {
    // Another process made them meanwhile.
    if (isCode(e, '42P07')) return [];
    throw e;
  }
  return wanted.map((week) => logPartition(new Date(week)));
}

/** The partitions of this week and of the days just ahead, so a week exists before its first line. */
export const ensureComingWeeks = (db: Db, now = new Date(), lockTimeout?: string) =>
  ensureLogPartitions(db, now, new Date(now.getTime() + DAYS_AHEAD * DAY_MS), lockTimeout);

/** Each owner of a server (or the one given), with the days their plan keeps. */
async function ownerRetention(
  db: Queryable,
  config: RetentionConfig,
  owner: string | null = null,
): Promise<Map<string, number>> {
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
      WHERE $1::uuid IS NULL OR s.user_id = $1
      ORDER BY s.user_id, sub.expiration DESC NULLS LAST`,
    [owner],
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
  const owner = rows[0]?.owner;
  return (owner && (await ownerRetention(db, config, owner)).get(owner)) || RETENTION_DAYS.none;
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

/**
 * Drops the week partitions wholly before `cutoff` and moves the range before the weeks up to the
 * first week left, in one transaction that gives way after LOCK_TIMEOUT to a long read (55P03:
 * the next tick tries again). The range before the weeks then holds nothing but older stragglers.
 */
async function dropWeeksBefore(db: Db, cutoff: Date): Promise<string[]> {
  const all = await weeks(db);
  const old = all.filter((week) => week + WEEK_MS <= cutoff.getTime());
  const firstLeft = all.find((week) => week + WEEK_MS > cutoff.getTime());
  if (old.length === 0 || firstLeft === undefined) return [];
  try {
    await db.transaction(async (tx) => {
      await lockLog(tx, LOCK_TIMEOUT);
      for (const week of old) await tx.exec(`DROP TABLE ${logPartition(new Date(week))}`);
      await tx.exec(`ALTER TABLE log_messages DETACH PARTITION ${BEFORE}`);
      await tx.exec(
        `ALTER TABLE log_messages ATTACH PARTITION ${BEFORE} FOR VALUES FROM (MINVALUE) TO ('${iso(firstLeft)}')`,
      );
    });
  } catch (e) {
    // 55P03: the lock was busy; 42P01: another process dropped them first.
    if (isCode(e, '55P03', '42P01')) return [];
    throw e;
  }
  return old.map((week) => logPartition(new Date(week)));
}

/** What is older than `cutoff`, for the owner (their servers) or for everyone (owner null). */
async function deleteOlder(
  db: Db,
  cutoff: Date,
  owner: string | null,
): Promise<Omit<RetentionReport, 'droppedWeeks' | 'deletedAlertHistory'>> {
  const theirs = (column: string) =>
    owner === null ? 'true' : `${column} IN (SELECT service_id FROM services WHERE user_id = $2)`;
  const params = owner === null ? [cutoff] : [cutoff, owner];
  return {
    deletedLines: await deleteInBatches(
      db,
      owner === null
        ? // The weeks are dropped whole; only lines older than every week are left to delete.
          `DELETE FROM ${BEFORE} WHERE ctid IN
             (SELECT ctid FROM ${BEFORE} WHERE time < $1 LIMIT ${DELETE_BATCH}) RETURNING 1`
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
 * What alert rules sent and the incidents they closed, past the longest retention: a rule's
 * history is its author's, who may follow servers of many owners, so it goes by the longest.
 */
async function deleteAlertHistory(db: Db, cutoff: Date): Promise<number> {
  const deliveries = await deleteInBatches(
    db,
    `DELETE FROM alert_deliveries WHERE delivery_id IN
       (SELECT delivery_id FROM alert_deliveries WHERE status <> 'pending' AND date_created < $1
         LIMIT ${DELETE_BATCH}) RETURNING 1`,
    [cutoff],
  );
  const incidents = await deleteInBatches(
    db,
    `DELETE FROM alert_incidents WHERE incident_id IN
       (SELECT incident_id FROM alert_incidents WHERE cleared < $1 LIMIT ${DELETE_BATCH}) RETURNING 1`,
    [cutoff],
  );
  return deliveries + incidents;
}

/**
 * One pass: the coming week's partitions made, and everything past its owner's retention removed.
 * Processes sharing a database may run passes at once: each step is safe to race.
 */
export async function retentionTick(
  db: Db,
  config: RetentionConfig,
  now = new Date(),
): Promise<RetentionReport> {
  // Two days ahead: a tick that finds the table busy leaves them to the next.
  await ensureComingWeeks(db, now, LOCK_TIMEOUT).catch((e) => {
    if (!isCode(e, '55P03')) throw e;
  });
  const owners = await ownerRetention(db, config);
  const longest = config.days ?? Math.max(MAX_RETENTION_DAYS, ...owners.values());
  const daysAgo = (days: number) => new Date(now.getTime() - days * DAY_MS);
  const report: RetentionReport = {
    droppedWeeks: await dropWeeksBefore(db, daysAgo(longest)),
    ...(await deleteOlder(db, daysAgo(longest), null)),
    deletedAlertHistory: await deleteAlertHistory(db, daysAgo(longest)),
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
