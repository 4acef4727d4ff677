// /sentinel/alertRules and /sentinel/alertDeliveries (the alerts issue, src/domain/alerts.ts):
// the caller's own rules and what they sent. Every query is bounded by the caller's account: a
// rule of another account answers as one that does not exist. Putting a rule on a server or a
// group takes the right to edit it; what a rule sends goes only to its author's destinations.

import { randomUUID } from 'node:crypto';
import { ALERT_LIMITS, AlertMsg, alertName, type Notice, parseCondition } from '../../domain/alerts.ts';
import { UUID } from '../../domain/constants.ts';
import { hasAny, Perm } from '../../domain/permissions.ts';
import { announce, enqueue } from '../alerts/incidents.ts';
import type { ServerContext } from '../context.ts';
import type { Queryable } from '../db/db.ts';
import { readJson } from '../http/body.ts';
import { ApiException, badRequest, objectNotFound, validation } from '../http/errors.ts';
import { type ListSpec, Params, planList, runList } from '../http/listQuery.ts';
import { type ApiRouter, json, pageJson, param } from '../http/router.ts';
import { isObject, requireProperties } from '../model/bulkBody.ts';
import { bitsOn } from '../model/permissions.ts';
import { epoch } from '../model/service.ts';

const READ = ['sentinel:read'];
const WRITE = ['sentinel:read', 'sentinel:write'];

const RULE_COLUMNS = `
  r.rule_id AS "ruleId", r.name, r.service_id AS "serviceId", r.group_id AS "groupId",
  coalesce(s.nickname, s.name, g.name) AS "scopeName", r.condition,
  coalesce((SELECT array_agg(rd.destination_id::text ORDER BY rd.destination_id)
              FROM alert_rule_destinations rd WHERE rd.rule_id = r.rule_id), '{}') AS "destinationIds",
  r.muted, CASE WHEN r.snoozed_until > now() THEN ${epoch('r.snoozed_until')} END AS "snoozedUntil",
  (SELECT count(*)::int FROM alert_incidents i WHERE i.rule_id = r.rule_id AND i.cleared IS NULL) AS "openIncidents",
  ${epoch('r.date_created')} AS "dateCreated"`;
const RULE_FROM = `alert_rules r LEFT JOIN services s ON s.service_id = r.service_id
  LEFT JOIN groups g ON g.group_id = r.group_id`;

const RULE_LIST: ListSpec = {
  id: { param: 'ruleId', expr: 'r.rule_id' },
  filters: {
    serviceId: { kind: 'exact', expr: 'r.service_id', type: 'uuid' },
    groupId: { kind: 'exact', expr: 'r.group_id', type: 'uuid' },
    name: { kind: 'ilike', exprs: ['r.name'] },
  },
  sorts: { name: 'lower(r.name)', dateCreated: 'r.date_created' },
  defaultSort: 'name',
  tiebreak: 'r.rule_id',
};

const DELIVERY_COLUMNS = `
  d.delivery_id AS "deliveryId", d.rule_id AS "ruleId", r.name AS "ruleName",
  d.destination_id AS "destinationId", d.destination_name AS "destinationName",
  d.destination_kind AS "destinationKind", d.kind, d.notice->>'title' AS title, d.status, d.attempts,
  d.answer, ${epoch('d.date_created')} AS "dateCreated",
  CASE WHEN d.date_sent IS NOT NULL THEN ${epoch('d.date_sent')} END AS "dateSent",
  CASE WHEN d.status = 'pending' THEN ${epoch('greatest(d.next_attempt, t.blocked_until)')} END AS "nextAttempt"`;
const DELIVERY_FROM = `alert_deliveries d LEFT JOIN alert_rules r ON r.rule_id = d.rule_id
  LEFT JOIN alert_destinations t ON t.destination_id = d.destination_id`;

const DELIVERY_LIST: ListSpec = {
  id: { param: 'deliveryId', expr: 'd.delivery_id' },
  filters: {
    ruleId: { kind: 'exact', expr: 'd.rule_id', type: 'uuid' },
    destinationId: { kind: 'exact', expr: 'd.destination_id', type: 'uuid' },
    status: { kind: 'in', expr: 'd.status' },
  },
  sorts: { dateCreated: 'd.date_created' },
  defaultSort: 'dateCreated',
  defaultDirection: 'descending',
  tiebreak: 'd.delivery_id',
};

/** The rule of the caller's account, or 404. */
async function ownRule(q: Queryable, owner: string, id: string): Promise<void> {
  const { rows } = UUID.test(id)
    ? await q.query('SELECT 1 FROM alert_rules WHERE rule_id = $1 AND owner_id = $2 FOR UPDATE', [id, owner])
    : { rows: [] };
  if (!rows[0]) throw objectNotFound({ ruleId: id });
}

async function ruleById(q: Queryable, owner: string, id: string): Promise<Record<string, unknown>> {
  const { rows } = await q.query(
    `SELECT ${RULE_COLUMNS} FROM ${RULE_FROM} WHERE r.rule_id = $1 AND r.owner_id = $2`,
    [id, owner],
  );
  if (!rows[0]) throw objectNotFound({ ruleId: id });
  return rows[0];
}

/** A rule's or destination's name, trimmed, or 400 naming the field. */
export const checkedName = (v: unknown): string => {
  const problem = alertName(typeof v === 'string' ? v : '');
  if (problem) throw validation(problem, { field: 'name' });
  return (v as string).trim();
};

function checkedCondition(v: unknown) {
  const parsed = parseCondition(v);
  if ('problem' in parsed) throw validation(parsed.problem, { field: parsed.field });
  return parsed.ok;
}

/** The destinations named, all the caller's own (else the whole request is refused). */
async function checkedDestinations(q: Queryable, owner: string, v: unknown): Promise<string[]> {
  if (v === undefined || v === null) return [];
  const ids = Array.isArray(v) ? [...new Set(v)] : null;
  if (
    !ids ||
    ids.some((id) => typeof id !== 'string' || !UUID.test(id)) ||
    ids.length > ALERT_LIMITS.destinationsPerAccount
  )
    throw validation(AlertMsg.destinationUnknown, { field: 'destinationIds' });
  const { rows } = await q.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM alert_destinations WHERE owner_id = $1 AND destination_id = ANY($2::uuid[])',
    [owner, ids],
  );
  if (rows[0].n !== ids.length) throw validation(AlertMsg.destinationUnknown, { field: 'destinationIds' });
  return ids as string[];
}

async function setDestinations(q: Queryable, ruleId: string, ids: string[]): Promise<void> {
  await q.query('DELETE FROM alert_rule_destinations WHERE rule_id = $1', [ruleId]);
  await q.query(
    'INSERT INTO alert_rule_destinations (rule_id, destination_id) SELECT $1, unnest($2::uuid[])',
    [ruleId, ids],
  );
}

/** The scope of a new rule, which the caller must be allowed to edit. */
async function checkedScope(q: Queryable, owner: string, body: Record<string, unknown>) {
  const { serviceId, groupId } = body;
  const one = (serviceId === undefined || serviceId === null) !== (groupId === undefined || groupId === null);
  if (!one) throw validation(AlertMsg.scope, { field: 'serviceId' });
  const kind = serviceId ? 'service' : 'group';
  const bits = await bitsOn(q, kind, serviceId ?? groupId, owner);
  const needs = kind === 'service' ? Perm.EditServices : Perm.EditGroup | Perm.EditServices;
  if (bits === null || !hasAny(bits, needs))
    throw validation(AlertMsg.scopeNotYours, { field: kind === 'service' ? 'serviceId' : 'groupId' });
  return {
    serviceId: (serviceId as string | undefined) ?? null,
    groupId: (groupId as string | undefined) ?? null,
  };
}

/**
 * Tests sent in the last minute to one destination, or of one rule: a test button must not be a
 * way to flood a webhook or an inbox.
 */
export async function refuseTestFlood(
  q: Queryable,
  of: { ruleId: string } | { destinationId: string },
): Promise<void> {
  const [column, id] = 'ruleId' in of ? ['rule_id', of.ruleId] : ['destination_id', of.destinationId];
  await q.query('SELECT pg_advisory_xact_lock(4706, hashtext($1))', [id]);
  const { rows } = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM alert_deliveries
      WHERE ${column} = $1 AND kind = 'test' AND date_created > now() - interval '1 minute'
        AND (destination_kind = 'console' OR rule_id IS NULL)`,
    [id],
  );
  if (rows[0].n >= ALERT_LIMITS.testsPerMinute)
    throw new ApiException(429, AlertMsg.tooManyTests, 'tooManyRequests', null, { 'Retry-After': '60' });
}

export const testNotice = (to: string): Notice => ({
  kind: 'test',
  title: `Test from Palisade: ${to}`,
  body: 'If you read this, alerts reach you here.',
  fields: [],
  time: Date.now() / 1000,
});

export function registerAlertRuleRoutes(router: ApiRouter, ctx: ServerContext): void {
  const { db } = ctx;

  router.authed('GET', '/sentinel/alertRules', READ, async (c, caller) => {
    const p = new Params();
    const plan = planList(new URL(c.req.url).searchParams, RULE_LIST, p);
    const owner = `r.owner_id = ${p.add(caller.userId)}`;
    return pageJson(
      c,
      await runList(db, { columns: RULE_COLUMNS, from: RULE_FROM, where: [owner] }, plan, p),
    );
  });

  router.authed('GET', '/sentinel/alertRules/:ruleId', READ, async (c, caller) => {
    const id = param(c, 'ruleId');
    if (!UUID.test(id)) throw objectNotFound({ ruleId: id });
    return json(c, await ruleById(db, caller.userId, id));
  });

  router.authed('POST', '/sentinel/alertRules', WRITE, async (c, caller) => {
    const body = await readJson(c);
    if (!isObject(body)) throw badRequest('notObjectOrArray', 'Send an object.');
    requireProperties(body, ['name', 'condition']);
    const name = checkedName(body.name);
    const condition = checkedCondition(body.condition);
    const id = randomUUID();
    await db.transaction(async (tx) => {
      const scope = await checkedScope(tx, caller.userId, body);
      const destinations = await checkedDestinations(tx, caller.userId, body.destinationIds);
      // One account's writes in turn: the count below is then what this write adds to.
      await tx.query('SELECT pg_advisory_xact_lock(4705, hashtext($1))', [caller.userId]);
      const { rows } = await tx.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM alert_rules WHERE owner_id = $1',
        [caller.userId],
      );
      if (rows[0].n >= ALERT_LIMITS.rulesPerAccount) throw validation(AlertMsg.tooManyRules);
      await tx.query(
        `INSERT INTO alert_rules (rule_id, owner_id, name, service_id, group_id, condition, muted)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [id, caller.userId, name, scope.serviceId, scope.groupId, condition, body.muted === true],
      );
      await setDestinations(tx, id, destinations);
    });
    return json(c, await ruleById(db, caller.userId, id));
  });

  /** Changes what is sent: name, condition, destinations, mute, snooze (epoch seconds, or null). */
  router.authed('PATCH', '/sentinel/alertRules/:ruleId', WRITE, async (c, caller) => {
    const id = param(c, 'ruleId');
    const body = await readJson(c);
    if (!isObject(body)) throw badRequest('notObjectOrArray', 'Send an object.');
    await db.transaction(async (tx) => {
      await ownRule(tx, caller.userId, id);
      if ('name' in body)
        await tx.query('UPDATE alert_rules SET name = $2 WHERE rule_id = $1', [id, checkedName(body.name)]);
      if ('condition' in body) {
        const condition = checkedCondition(body.condition);
        await tx.query('UPDATE alert_rules SET condition = $2 WHERE rule_id = $1', [id, condition]);
        // What was open was the old condition's: it ends without an all-clear the new one never raised.
        await tx.query('UPDATE alert_incidents SET cleared = now() WHERE rule_id = $1 AND cleared IS NULL', [
          id,
        ]);
        await tx.query('DELETE FROM alert_pending WHERE rule_id = $1', [id]);
      }
      if ('destinationIds' in body)
        await setDestinations(tx, id, await checkedDestinations(tx, caller.userId, body.destinationIds));
      if ('muted' in body) {
        if (typeof body.muted !== 'boolean') throw validation('Muted is true or false.', { field: 'muted' });
        await tx.query('UPDATE alert_rules SET muted = $2 WHERE rule_id = $1', [id, body.muted]);
      }
      if ('snoozedUntil' in body) {
        const until = body.snoozedUntil;
        if (until !== null && (typeof until !== 'number' || !Number.isFinite(until)))
          throw validation('Snooze until a time (epoch seconds), or null to wake it.', {
            field: 'snoozedUntil',
          });
        await tx.query('UPDATE alert_rules SET snoozed_until = to_timestamp($2) WHERE rule_id = $1', [
          id,
          until,
        ]);
      }
      await tx.query('UPDATE alert_rules SET date_modified = now() WHERE rule_id = $1', [id]);
    });
    return json(c, await ruleById(db, caller.userId, id));
  });

  router.authed('DELETE', '/sentinel/alertRules/:ruleId', WRITE, async (c, caller) => {
    const id = param(c, 'ruleId');
    await db.transaction(async (tx) => {
      await ownRule(tx, caller.userId, id);
      await tx.query('DELETE FROM alert_rules WHERE rule_id = $1', [id]);
    });
    return json(c, true);
  });

  /** A test notice to every destination of the rule and the console, even while muted. */
  router.authed('POST', '/sentinel/alertRules/:ruleId/test', WRITE, async (c, caller) => {
    const id = param(c, 'ruleId');
    const written = await db.transaction(async (tx) => {
      await ownRule(tx, caller.userId, id);
      await refuseTestFlood(tx, { ruleId: id });
      const { rows } = await tx.query<{ name: string }>('SELECT name FROM alert_rules WHERE rule_id = $1', [
        id,
      ]);
      return enqueue(tx, id, null, null, testNotice(rows[0].name));
    });
    await announce(ctx, [written]);
    return json(c, true);
  });

  router.authed('GET', '/sentinel/alertDeliveries', READ, async (c, caller) => {
    const p = new Params();
    const plan = planList(new URL(c.req.url).searchParams, DELIVERY_LIST, p);
    const owner = `d.owner_id = ${p.add(caller.userId)}`;
    return pageJson(
      c,
      await runList(db, { columns: DELIVERY_COLUMNS, from: DELIVERY_FROM, where: [owner] }, plan, p),
    );
  });
}
