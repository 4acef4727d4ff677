// Incidents and what they send. One incident per rule, server and subject (a player, a script)
// is open at a time: the events that match while it is open are counted into it, not sent again;
// it clears when the condition stops holding (status, population) or after a quiet spell with no
// match (the rest), and that sends once more. What is to be sent is stored in the transaction
// that opens or clears the incident, before anything is sent (deliver.ts sends it): a restart
// between the two loses nothing. The console's own notification is written at once.

import { randomUUID } from 'node:crypto';
import { ALERT_LIMITS, AlertEvent, AlertMsg, type Notice } from '../../domain/alerts.ts';
import { userChannel } from '../../domain/api.ts';
import type { ServerContext } from '../context.ts';
import type { Queryable } from '../db/db.ts';

/** A notification to tell a console about once the transaction that wrote it commits. */
export interface Written {
  ownerId: string;
  notificationId: string;
  title: string;
  body: string;
  /** The owner has a browser-notification destination on the rule. */
  push: boolean;
}

/**
 * Stores a notice's deliveries: the console's notification, and one pending delivery per
 * destination of the rule that still takes them. A silenced rule (muted, snoozed) stores none.
 */
export async function enqueue(
  tx: Queryable,
  ruleId: string,
  incidentId: string | null,
  serviceId: string | null,
  notice: Notice,
): Promise<Written | null> {
  const { rows: rule } = await tx.query<{ owner_id: string; silenced: boolean }>(
    `SELECT owner_id, muted OR coalesce(snoozed_until > now(), false) AS silenced
       FROM alert_rules WHERE rule_id = $1`,
    [ruleId],
  );
  if (!rule[0] || (rule[0].silenced && notice.kind !== 'test')) return null;
  const ownerId = rule[0].owner_id;
  const { rows: destinations } = await tx.query<{ id: string; name: string; kind: string }>(
    `SELECT d.destination_id AS id, d.name, d.kind FROM alert_rule_destinations rd
       JOIN alert_destinations d USING (destination_id)
      WHERE rd.rule_id = $1 AND NOT d.unsubscribed`,
    [ruleId],
  );
  const notificationId = randomUUID();
  await writeNotification(tx, notificationId, ownerId, ruleId, serviceId, notice);
  const pushes = destinations.filter((d) => d.kind === 'push');
  // The console's list, and a browser notification, are delivered by the write itself.
  await tx.query(
    `INSERT INTO alert_deliveries (delivery_id, owner_id, rule_id, incident_id, destination_id, destination_name,
                                   destination_kind, kind, notice, status, attempts, date_sent)
     SELECT gen_random_uuid(), $1, $2, $3, d.id, d.name, d.kind, $4, $5, 'sent', 1, now()
       FROM unnest($6::uuid[], $7::text[], $8::text[]) AS d (id, name, kind)`,
    [
      ownerId,
      ruleId,
      incidentId,
      notice.kind,
      notice,
      [null, ...pushes.map((d) => d.id)],
      ['Console', ...pushes.map((d) => d.name)],
      ['console', ...pushes.map(() => 'push')],
    ],
  );
  const remote = destinations.filter((d) => d.kind !== 'push');
  // A destination with ALERT_LIMITS.pendingPerDestination still waiting (rate-limited, or down
  // while a rule raised thousands) takes no more: the history says so instead of the queue growing.
  if (remote.length > 0)
    await tx.query(
      `INSERT INTO alert_deliveries (delivery_id, owner_id, rule_id, incident_id, destination_id, destination_name,
                                     destination_kind, kind, notice, status, answer)
       SELECT gen_random_uuid(), $1, $2, $3, d.id, d.name, d.kind, $4, $5,
              CASE WHEN w.full THEN 'failed' ELSE 'pending' END, CASE WHEN w.full THEN $10 END
         FROM unnest($6::uuid[], $7::text[], $8::text[]) AS d (id, name, kind)
        CROSS JOIN LATERAL (SELECT count(*) >= $9 AS full FROM (
                              SELECT 1 FROM alert_deliveries p
                               WHERE p.destination_id = d.id AND p.status = 'pending' LIMIT $9) x) w`,
      [
        ownerId,
        ruleId,
        incidentId,
        notice.kind,
        notice,
        remote.map((d) => d.id),
        remote.map((d) => d.name),
        remote.map((d) => d.kind),
        ALERT_LIMITS.pendingPerDestination,
        AlertMsg.destinationFull,
      ],
    );
  return { ownerId, notificationId, title: notice.title, body: notice.body, push: pushes.length > 0 };
}

/** The console's notification; the account keeps its newest ALERT_LIMITS.notificationsKept. */
export async function writeNotification(
  tx: Queryable,
  notificationId: string,
  ownerId: string,
  ruleId: string | null,
  serviceId: string | null,
  notice: Notice,
): Promise<void> {
  await tx.query(
    `INSERT INTO notifications (notification_id, owner_id, rule_id, service_id, kind, title, body)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [notificationId, ownerId, ruleId, serviceId, notice.kind, notice.title, noticeText(notice)],
  );
  await tx.query(
    `DELETE FROM notifications WHERE owner_id = $1 AND notification_id IN (
       SELECT notification_id FROM notifications WHERE owner_id = $1
        ORDER BY date_created DESC, notification_id OFFSET $2)`,
    [ownerId, ALERT_LIMITS.notificationsKept],
  );
}

/** A notice's body and facts as one text: the console shows it as it is, line by line. */
export const noticeText = (n: Notice): string =>
  [n.body, ...n.fields.map((f) => `${f.name}: ${f.value}`)].filter((l) => l !== '').join('\n');

/** Tells the owners' consoles, after the transaction that wrote them committed. */
export async function announce(ctx: ServerContext, written: readonly (Written | null)[]): Promise<void> {
  for (const w of written) {
    if (!w) continue;
    const { ownerId, ...data } = w;
    await ctx.publisher.publish([userChannel(ownerId)], AlertEvent.notificationCreated, data);
  }
  if (written.some((w) => w !== null)) ctx.alerts.wake();
}

export interface Raise {
  ruleId: string;
  serviceId: string;
  subject: string;
  notice: Notice;
}

/**
 * Events matched (`events` of them): opens the incident (and stores what it sends) unless one is open, which
 * then counts the event. Returns what to announce.
 */
export async function raise(tx: Queryable, r: Raise, events = 1): Promise<Written | null> {
  const { rows } = await tx.query<{ id: string; opened: boolean }>(
    `INSERT INTO alert_incidents (incident_id, rule_id, service_id, subject, summary, events)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (rule_id, service_id, subject) WHERE cleared IS NULL
       DO UPDATE SET events = alert_incidents.events + excluded.events, last_event = now()
     RETURNING incident_id AS id, xmax = 0 AS opened`,
    [randomUUID(), r.ruleId, r.serviceId, r.subject, r.notice.title, events],
  );
  return rows[0].opened ? enqueue(tx, r.ruleId, rows[0].id, r.serviceId, r.notice) : null;
}

/** Clears an open incident and stores its all-clear; null when none was open. */
export async function clear(
  tx: Queryable,
  where: { incidentId: string },
  notice: (summary: string, events: number, opened: number) => Notice,
): Promise<Written | null> {
  const { rows } = await tx.query<{
    rule_id: string;
    service_id: string;
    summary: string;
    events: number;
    opened: number;
  }>(
    `UPDATE alert_incidents SET cleared = now() WHERE incident_id = $1 AND cleared IS NULL
     RETURNING rule_id, service_id, summary, events, extract(epoch FROM opened)::float8 AS opened`,
    [where.incidentId],
  );
  const c = rows[0];
  return c
    ? enqueue(tx, c.rule_id, where.incidentId, c.service_id, notice(c.summary, c.events, c.opened))
    : null;
}
