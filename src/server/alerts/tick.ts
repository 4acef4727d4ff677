// What the clock decides: a condition that must hold for minutes (a server down, a population
// past its mark) is looked at on every tick, per rule and server, remembering since when it
// holds (alert_pending, so a restart does not start the wait again); and an event rule's
// incident clears once no event matched for ALERT_LIMITS.quietMinutes. One process of a cluster
// ticks at a time (a transaction-scoped advisory lock), so nothing is raised twice.

import { randomUUID } from 'node:crypto';
import { ALERT_LIMITS, type AlertCondition, type Notice, parseCondition } from '../../domain/alerts.ts';
import type { ServerContext } from '../context.ts';
import type { Queryable } from '../db/db.ts';
import { canSee } from '../model/permissions.ts';
import { quietNotice } from './evaluate.ts';
import { announce, clear, enqueue, type Written } from './incidents.ts';

/** The advisory lock of a tick (4701-4703 are taken by other single-writer jobs). */
const TICK_LOCK = 4704;

interface Observed {
  rule_id: string;
  rule_name: string;
  condition: unknown;
  service_id: string;
  server: string;
  down: boolean;
  rcon_error: string | null;
  online: number;
  /** Epoch seconds since the condition holds, as last seen. */
  since: number | null;
  incident: string | null;
  opened: number | null;
}

const OBSERVE = `
  SELECT r.rule_id, r.name AS rule_name, r.condition, s.service_id, coalesce(s.nickname, s.name) AS server,
         NOT s.is_connected OR s.rcon_error IS NOT NULL AS down, s.rcon_error,
         (SELECT count(*) FROM player_sessions ps
           WHERE ps.service_id = s.service_id AND ps.disconnect_time IS NULL)::int AS online,
         extract(epoch FROM p.since)::float8 AS since,
         i.incident_id AS incident, extract(epoch FROM i.opened)::float8 AS opened
    FROM alert_rules r
    JOIN services s ON s.service_id = r.service_id
      OR s.service_id IN (SELECT gs.service_id FROM group_services gs WHERE gs.group_id = r.group_id)
    LEFT JOIN alert_pending p ON p.rule_id = r.rule_id AND p.service_id = s.service_id
    LEFT JOIN alert_incidents i ON i.rule_id = r.rule_id AND i.service_id = s.service_id
                               AND i.subject = '' AND i.cleared IS NULL
   WHERE r.condition->>'kind' IN ('status', 'population') AND NOT s.deleted
     AND ${canSee('service', 's.service_id', 'r.owner_id')}`;

type Sustained = Extract<AlertCondition, { minutes: number }>;

const holds = (c: Sustained, o: Observed): boolean =>
  c.kind === 'status' ? o.down : c.direction === 'above' ? o.online > c.count : o.online < c.count;

const since = (t: number) => new Date(t * 1000).toUTCString();

function raisedNotice(c: Sustained, o: Observed, from: number): Notice {
  const fields = [
    { name: 'Server', value: o.server },
    { name: 'Rule', value: o.rule_name },
  ];
  if (c.kind === 'status')
    return {
      kind: 'raised',
      title: `Server down: ${o.server}`,
      body: o.rcon_error
        ? `${o.server} cannot be reached over RCON since ${since(from)}: ${o.rcon_error}`
        : `${o.server} is disconnected since ${since(from)}.`,
      fields,
      time: Date.now() / 1000,
    };
  return {
    kind: 'raised',
    title: `Population ${c.direction} ${c.count}: ${o.server}`,
    body: `${o.online} player${o.online === 1 ? '' : 's'} online on ${o.server} since ${since(from)}.`,
    fields,
    time: Date.now() / 1000,
  };
}

function clearedNotice(c: Sustained, o: Observed): Notice {
  const lasted =
    o.opened === null ? '' : ` after ${Math.max(1, Math.round((Date.now() / 1000 - o.opened) / 60))} min`;
  return {
    kind: 'cleared',
    title: c.kind === 'status' ? `Server back up: ${o.server}` : `Population back: ${o.server}`,
    body:
      c.kind === 'status'
        ? `${o.server} is connected again${lasted}.`
        : `${o.online} player${o.online === 1 ? '' : 's'} online on ${o.server}${lasted}.`,
    fields: [
      { name: 'Server', value: o.server },
      { name: 'Rule', value: o.rule_name },
    ],
    time: Date.now() / 1000,
  };
}

async function observe(tx: Queryable, o: Observed, written: (Written | null)[]): Promise<void> {
  const parsed = parseCondition(o.condition);
  if (!('ok' in parsed) || (parsed.ok.kind !== 'status' && parsed.ok.kind !== 'population')) return;
  const c = parsed.ok;
  const now = Date.now() / 1000;
  if (!holds(c, o)) {
    if (o.since !== null)
      await tx.query('DELETE FROM alert_pending WHERE rule_id = $1 AND service_id = $2', [
        o.rule_id,
        o.service_id,
      ]);
    if (o.incident) written.push(await clear(tx, { incidentId: o.incident }, () => clearedNotice(c, o)));
    return;
  }
  const from = o.since ?? now;
  if (o.since === null)
    await tx.query(
      'INSERT INTO alert_pending (rule_id, service_id, since) VALUES ($1, $2, to_timestamp($3))',
      [o.rule_id, o.service_id, from],
    );
  if (o.incident || now - from < c.minutes * 60) return;
  const incidentId = randomUUID();
  const notice = raisedNotice(c, o, from);
  await tx.query(
    `INSERT INTO alert_incidents (incident_id, rule_id, service_id, subject, summary) VALUES ($1, $2, $3, '', $4)`,
    [incidentId, o.rule_id, o.service_id, notice.title],
  );
  written.push(await enqueue(tx, o.rule_id, incidentId, o.service_id, notice));
}

/** One tick: sustained conditions looked at, quiet incidents cleared. */
export async function alertTick(ctx: ServerContext): Promise<void> {
  const written: (Written | null)[] = [];
  await ctx.db.transaction(async (tx) => {
    const { rows: lock } = await tx.query<{ got: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS got', [
      TICK_LOCK,
    ]);
    if (!lock[0].got) return;
    const { rows } = await tx.query<Observed>(OBSERVE);
    for (const o of rows) await observe(tx, o, written);
    // A server its rule no longer covers (taken out of the group, deleted, out of the author's
    // sight): what was open there ends without an all-clear, which nothing would ever send.
    const seen = rows.map((o) => `${o.rule_id}/${o.service_id}`);
    await tx.query(
      `UPDATE alert_incidents i SET cleared = now() FROM alert_rules r
        WHERE r.rule_id = i.rule_id AND i.cleared IS NULL AND r.condition->>'kind' IN ('status', 'population')
          AND NOT (i.rule_id::text || '/' || i.service_id::text = ANY($1::text[]))`,
      [seen],
    );
    await tx.query(
      "DELETE FROM alert_pending WHERE NOT (rule_id::text || '/' || service_id::text = ANY($1::text[]))",
      [seen],
    );
    const { rows: quiet } = await tx.query<{ incident_id: string }>(
      `SELECT i.incident_id FROM alert_incidents i JOIN alert_rules r USING (rule_id)
        WHERE i.cleared IS NULL AND i.last_event < now() - $1 * interval '1 minute'
          AND r.condition->>'kind' NOT IN ('status', 'population')`,
      [ALERT_LIMITS.quietMinutes],
    );
    for (const q of quiet) written.push(await clear(tx, { incidentId: q.incident_id }, quietNotice));
  });
  await announce(ctx, written);
}
