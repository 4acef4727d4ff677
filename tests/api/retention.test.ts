// History kept by plan (db/retention.ts): days past every owner's retention are dropped whole,
// lines only some owners keep go in batches, sessions and the activity trail follow the same days,
// and nothing of it waits on, or holds up, the requests and the game's writes.

import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETENTION_DAYS } from '../../src/domain/plans.ts';
import {
  ensureLogPartitions,
  logPartition,
  retentionTick,
  serviceRetentionDays,
} from '../../src/server/db/retention.ts';
import { insertLogs } from '../../src/server/game/ingest.ts';
import { call, signIn, startTestServer, type TestServer, testDatabaseUrl } from './helpers.ts';

const DAY = 86_400_000;
const AGES = [1, 20, 40, 100];
let t: TestServer;
/** Each owner's one server: the demo admin (yearly), a monthly plan, and an owner with no plan. */
const servers: Record<'yearly' | 'monthly' | 'none', string> = { yearly: '', monthly: '', none: '' };

const ago = (days: number) => new Date(Date.now() - days * DAY);
const line = (serviceId: string, days: number, tag: string) =>
  t.server.db.query(
    `INSERT INTO log_messages (message_id, service_id, event_name, type, level, time, message)
     VALUES ($1, $2, 'chat', 'Gameplay', 'Informational', $3, $4)`,
    [randomUUID(), serviceId, ago(days), tag],
  );
const tags = async (serviceId: string) =>
  (
    await t.server.db.query<{ message: string }>(
      'SELECT message FROM log_messages WHERE service_id = $1 AND message LIKE $2 ORDER BY time DESC',
      [serviceId, 'kept %'],
    )
  ).rows.map((r) => r.message);

async function owner(email: string, period: 'monthly' | null): Promise<string> {
  const db = t.server.db;
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO users (username, email, password_hash) VALUES ($1, $1, 'x') RETURNING user_id AS id`,
    [email],
  );
  const user = rows[0]!.id;
  if (period)
    await db.query(
      `INSERT INTO subscriptions (user_id, product_id, product_name, product_game_id, expiration, plan_period,
                                  period_start, customer_email)
       VALUES ($1, gen_random_uuid(), 'Plan', 'Sentinel', now() + interval '20 days', $2, now(), $3)`,
      [user, period, email],
    );
  const made = await db.query<{ id: string }>(
    `INSERT INTO services (user_id, game_id, access_key, access_key_hash, name, platform)
     VALUES ($1, 'Ark', $2, $2, $3, 'PC') RETURNING service_id AS id`,
    [user, randomUUID(), `Server of ${email}`],
  );
  return made.rows[0]!.id;
}

beforeAll(async () => {
  t = await startTestServer();
  servers.yearly = t.demo.servers[0]!.serviceId;
  servers.monthly = await owner('monthly@example.com', 'monthly');
  servers.none = await owner('lapsed@example.com', null);
  await ensureLogPartitions(t.server.db, ago(Math.max(...AGES) + 1), new Date());
});
afterAll(() => t?.close());

describe('by plan', () => {
  beforeAll(async () => {
    const db = t.server.db;
    await db.query("INSERT INTO players (name) VALUES ('Ana'), ('Bob')");
    for (const [kind, id] of Object.entries(servers)) {
      for (const days of AGES) {
        await line(id, days, `kept ${days} days`);
        await db.query(
          `INSERT INTO player_sessions (player_id, service_id, connect_time, disconnect_time)
           VALUES ((SELECT player_id FROM players WHERE name = 'Ana'), $1, $2::timestamptz, $2::timestamptz + interval '1 hour')`,
          [id, ago(days)],
        );
        await db.query(
          `INSERT INTO activity (activity_id, time, user_id, application_id, method, route, kind, action, service_ids, outcome)
           VALUES ($1, $2, (SELECT user_id FROM services WHERE service_id = $3), 'test', 'POST', '/x', 'x', $4, ARRAY[$3::uuid], 'ok')`,
          [randomUUID(), ago(days), id, `${kind} ${days}`],
        );
      }
    }
    // A player still connected after 100 days: an open session is never history.
    await db.query(
      `INSERT INTO player_sessions (player_id, service_id, connect_time)
       VALUES ((SELECT player_id FROM players WHERE name = 'Bob'), $1, $2)`,
      [servers.none, ago(100)],
    );
    // A line from before every day (the game's clock in 2001): the range before the days.
    await db.query(
      `INSERT INTO log_messages (message_id, service_id, event_name, type, level, time, message)
       VALUES ($1, $2, 'chat', 'Gameplay', 'Informational', to_timestamp(1000000000), 'kept since 2001')`,
      [randomUUID(), servers.yearly],
    );
  });

  it('keeps what each plan keeps, drops the weeks no plan keeps, and reports it', async () => {
    expect(RETENTION_DAYS).toMatchObject({ yearly: 90, monthly: 30, none: 7 });
    const report = await retentionTick(t.server.db, {});
    expect(report.droppedWeeks).toContain(logPartition(ago(100)));
    expect(report.droppedWeeks).not.toContain(logPartition(ago(40)));
    expect(await tags(servers.yearly)).toEqual(['kept 1 days', 'kept 20 days', 'kept 40 days']);
    expect(await tags(servers.monthly)).toEqual(['kept 1 days', 'kept 20 days']);
    expect(await tags(servers.none)).toEqual(['kept 1 days']);
    // Batched deletes: the monthly owner's 40-day line, the lapsed owner's 20- and 40-day lines,
    // and the line of 2001; the 100-day lines went with their day.
    expect(report.deletedLines).toBe(4);

    const { rows: sessions } = await t.server.db.query<{ kind: string; open: boolean; days: number }>(
      `SELECT service_id::text AS kind, disconnect_time IS NULL AS open,
              round(extract(epoch FROM now() - connect_time) / 86400)::int AS days
         FROM player_sessions WHERE service_id = ANY($1::uuid[]) ORDER BY 1, 3`,
      [Object.values(servers)],
    );
    const sessionsOf = (id: string) =>
      sessions.filter((s) => s.kind === id).map((s) => `${s.days}${s.open ? ' open' : ''}`);
    expect(sessionsOf(servers.yearly)).toEqual(['1', '20', '40']);
    expect(sessionsOf(servers.monthly)).toEqual(['1', '20']);
    expect(sessionsOf(servers.none)).toEqual(['1', '100 open']);

    const { rows: trail } = await t.server.db.query<{ action: string }>(
      `SELECT action FROM activity WHERE route = '/x' ORDER BY action`,
    );
    expect(trail.map((r) => r.action)).toEqual(
      ['monthly 1', 'monthly 20', 'none 1', 'yearly 1', 'yearly 20', 'yearly 40'].sort(),
    );
  });

  it('forgets what alert rules sent past the longest retention, never a delivery still to send', async () => {
    const db = t.server.db;
    const rule = randomUUID();
    await db.query(
      `INSERT INTO alert_rules (rule_id, owner_id, name, service_id, condition)
       VALUES ($1, $2, 'Down', $3, '{"kind":"status","minutes":5}')`,
      [rule, t.demo.userId, servers.yearly],
    );
    for (const [days, status] of [
      [100, 'sent'],
      [100, 'pending'],
      [1, 'sent'],
    ] as const)
      await db.query(
        `INSERT INTO alert_deliveries (delivery_id, owner_id, rule_id, destination_name, destination_kind, kind, notice, status, date_created)
         VALUES ($1, $2, $3, 'Ops', 'discord', 'raised', '{}', $4, $5)`,
        [randomUUID(), t.demo.userId, rule, status, ago(days)],
      );
    const report = await retentionTick(db, {});
    expect(report.deletedAlertHistory).toBe(1);
    const { rows } = await db.query<{ status: string }>(
      'SELECT status FROM alert_deliveries WHERE rule_id = $1 ORDER BY date_created',
      [rule],
    );
    expect(rows.map((r) => r.status)).toEqual(['pending', 'sent']);
  });

  it('takes the operator’s days for every owner, by whole weeks where that is enough', async () => {
    const report = await retentionTick(t.server.db, { days: 10 });
    expect(report.droppedWeeks).toEqual(
      expect.arrayContaining([logPartition(ago(20)), logPartition(ago(40))]),
    );
    expect(report.deletedLines).toBe(0);
    for (const id of Object.values(servers)) expect(await tags(id)).toEqual(['kept 1 days']);
  });
});

describe('alongside the game and the consoles', () => {
  it('never waits on a reader: a week held by a long read is left for the next pass', async () => {
    await ensureLogPartitions(t.server.db, ago(120), ago(119));
    await line(servers.yearly, 119.5, 'kept 119 days');
    const reader = new pg.Client({ connectionString: testDatabaseUrl() });
    await reader.connect();
    try {
      await reader.query(`SET search_path TO ${await schemaOf()}, public`);
      await reader.query('BEGIN');
      await reader.query('SELECT count(*) FROM log_messages');
      const first = await retentionTick(t.server.db, {});
      expect(first.droppedWeeks).not.toContain(logPartition(ago(119.5)));
      await reader.query('COMMIT');
      const second = await retentionTick(t.server.db, {});
      expect(second.droppedWeeks).toContain(logPartition(ago(119.5)));
    } finally {
      await reader.end();
    }
  });

  it('loses nothing the game writes while it runs', async () => {
    await ensureLogPartitions(t.server.db, ago(100), ago(95));
    for (let i = 0; i < 30; i++) await line(servers.monthly, 95 + (i % 5), 'old');
    const written: string[] = [];
    let writing = true;
    const game = (async () => {
      for (let n = 0; writing || n < 20; n++) {
        const rows = await t.server.db.transaction((tx) =>
          insertLogs(tx, servers.monthly, [
            {
              event: {
                eventName: 'chat',
                time: Date.now() / 1000,
                type: 'Gameplay',
                level: 'Informational',
                message: `live ${n}`,
                metadata: {},
              },
              key: { seq: 1_000_000 + n },
            },
          ]),
        );
        written.push(rows[0]!.messageId);
      }
    })();
    // A pass that finds the table busy past its short wait leaves the days to the next, as the
    // hourly job does; within a few passes the writes leave it a moment.
    const dropped: string[] = [];
    for (let pass = 0; pass < 50 && dropped.length === 0; pass++)
      dropped.push(...(await retentionTick(t.server.db, {})).droppedWeeks);
    writing = false;
    await game;
    expect(dropped.length).toBeGreaterThan(0);
    const { rows } = await t.server.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM log_messages WHERE message_id = ANY($1::uuid[])',
      [written],
    );
    expect(rows[0]!.n).toBe(written.length);
  });
});

describe('how far back a server goes', () => {
  it('answers its owner’s plan’s days, the operator’s when set, and nothing on a server the caller cannot see', async () => {
    const token = (await signIn(t.base)).access_token;
    const history = (id: string, as = token) => call(t.base, as, 'GET', `/sentinel/services/${id}/history`);
    const yearly = await history(servers.yearly);
    expect(yearly.status).toBe(200);
    expect(yearly.body).toMatchObject({ serviceId: servers.yearly, days: 90 });
    expect(Math.abs(yearly.body.since - (Date.now() / 1000 - 90 * 86_400))).toBeLessThan(60);
    // The demo admin cannot see the other owners' servers.
    expect((await history(servers.monthly)).status).toBe(404);
    expect((await history('not-a-uuid')).status).toBe(404);
    expect(await serviceRetentionDays(t.server.db, servers.monthly, {})).toBe(30);
    expect(await serviceRetentionDays(t.server.db, servers.none, {})).toBe(7);
    expect(await serviceRetentionDays(t.server.db, servers.none, { days: 400 })).toBe(400);
  });
});

describe('the activity trail', () => {
  it('stays unchangeable: only the retention job deletes, and only entries past the shortest plan', async () => {
    const db = t.server.db;
    const id = randomUUID();
    await db.query(
      `INSERT INTO activity (activity_id, time, user_id, application_id, method, route, kind, action, outcome)
       VALUES ($1, now() - interval '3 days', $2, 'test', 'POST', '/y', 'y', 'young', 'ok')`,
      [id, t.demo.userId],
    );
    await expect(db.query('DELETE FROM activity WHERE activity_id = $1', [id])).rejects.toMatchObject({
      code: '42501',
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.exec("SET LOCAL palisade.retention = 'on'");
        await tx.query('DELETE FROM activity WHERE activity_id = $1', [id]);
      }),
    ).rejects.toMatchObject({ code: '42501' });
    await expect(
      db.query("UPDATE activity SET summary = 'rewritten' WHERE activity_id = $1", [id]),
    ).rejects.toMatchObject({
      code: '42501',
    });
  });
});

async function schemaOf(): Promise<string> {
  const { rows } = await t.server.db.query<{ schema: string }>('SELECT current_schema() AS schema');
  return rows[0]!.schema;
}
