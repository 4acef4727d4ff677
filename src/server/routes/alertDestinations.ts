// /sentinel/alertDestinations (the alerts issue): where the caller's notifications go besides the
// console. A webhook's address is a secret (whoever holds it may post to the channel), so it is
// written but never read back whole; it goes through the outbound guard like every address a user
// chooses, when made and again on every send. An email destination carries a one-click way out
// for its recipient (RFC 8058), who may not be the account that added it.

import { randomBytes, randomUUID } from 'node:crypto';
import {
  ALERT_LIMITS,
  AlertMsg,
  DESTINATION_KINDS,
  type DestinationKind,
  maskedWebhook,
  webhookProblem,
} from '../../domain/alerts.ts';
import { UUID } from '../../domain/constants.ts';
import { emailFormProblem } from '../../domain/email.ts';
import { announce, type Written, writeNotification } from '../alerts/incidents.ts';
import type { ServerContext } from '../context.ts';
import type { Queryable } from '../db/db.ts';
import { readJson } from '../http/body.ts';
import { badRequest, objectNotFound, validation } from '../http/errors.ts';
import { escapeHtml, htmlPage } from '../http/html.ts';
import { type ListSpec, Params, planList, runList } from '../http/listQuery.ts';
import { type ApiRouter, type Ctx, json, pageJson, param } from '../http/router.ts';
import { isObject, requireProperties } from '../model/bulkBody.ts';
import { epoch } from '../model/service.ts';
import { OutboundRefused, resolveOutbound } from '../net/outbound.ts';
import { checkedName, refuseTestFlood, testNotice } from './alertRules.ts';

const READ = ['sentinel:read'];
const WRITE = ['sentinel:read', 'sentinel:write'];

const DESTINATION_COLUMNS = `
  t.destination_id AS "destinationId", t.name, t.kind, t.address, t.unsubscribed,
  ${epoch('t.date_created')} AS "dateCreated"`;

const DESTINATION_LIST: ListSpec = {
  id: { param: 'destinationId', expr: 't.destination_id' },
  filters: { kind: { kind: 'in', expr: 't.kind' }, name: { kind: 'ilike', exprs: ['t.name'] } },
  sorts: { name: 'lower(t.name)', dateCreated: 't.date_created' },
  defaultSort: 'name',
  tiebreak: 't.destination_id',
};

/** A row as the API shows it: a webhook's token left out. */
const shown = (row: Record<string, unknown>) =>
  row.kind === 'discord' || row.kind === 'slack'
    ? { ...row, address: maskedWebhook(row.address as string) }
    : row;

/** The address checked for its kind: the form, and for a webhook where it leads. */
async function checkedAddress(ctx: ServerContext, kind: DestinationKind, v: unknown): Promise<string> {
  const address = typeof v === 'string' ? v.trim() : '';
  if (kind === 'push') return '';
  if (kind === 'email') {
    if (emailFormProblem(address)) throw validation(AlertMsg.email, { field: 'address' });
    if (!ctx.alerts.sendsMail)
      throw validation('This installation sends no email: its operator has not configured a mail relay.', {
        field: 'kind',
      });
    return address;
  }
  const problem = webhookProblem(address);
  if (problem) throw validation(problem, { field: 'address' });
  try {
    await resolveOutbound(new URL(address).hostname, ctx.config.outboundAllow);
  } catch (e) {
    const why = e instanceof OutboundRefused ? e.message : `${new URL(address).hostname} could not be found.`;
    throw validation(why, { field: 'address' });
  }
  return address;
}

async function ownDestination(q: Queryable, owner: string, id: string) {
  const { rows } = UUID.test(id)
    ? await q.query<{ kind: DestinationKind; name: string; unsubscribed: boolean }>(
        `SELECT kind, name, unsubscribed FROM alert_destinations
          WHERE destination_id = $1 AND owner_id = $2 FOR UPDATE`,
        [id, owner],
      )
    : { rows: [] };
  if (!rows[0]) throw objectNotFound({ destinationId: id });
  return rows[0];
}

async function destinationById(q: Queryable, owner: string, id: string) {
  const { rows } = await q.query<Record<string, unknown>>(
    `SELECT ${DESTINATION_COLUMNS} FROM alert_destinations t WHERE t.destination_id = $1 AND t.owner_id = $2`,
    [id, owner],
  );
  if (!rows[0]) throw objectNotFound({ destinationId: id });
  return shown(rows[0]);
}

const newToken = () => randomBytes(24).toString('base64url');

/** The page a recipient lands on from a mail's link, and where its button (and a one-click client) posts. */
function unsubscribePage(c: Ctx, done: boolean, address: string | null): Response {
  if (!address)
    return htmlPage(
      c,
      'Not found',
      '<h1>Nothing to unsubscribe</h1><p>This link is not in use any more.</p>',
      404,
    );
  if (done)
    return htmlPage(
      c,
      'Unsubscribed',
      `<h1>Unsubscribed</h1><p>No more alerts are sent to ${escapeHtml(address)}.</p>`,
    );
  return htmlPage(
    c,
    'Unsubscribe',
    `<h1>Stop alerts to ${escapeHtml(address)}?</h1>
<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click">
<button type="submit">Unsubscribe</button></form>`,
  );
}

export function registerAlertDestinationRoutes(router: ApiRouter, ctx: ServerContext): void {
  const { db } = ctx;

  router.authed('GET', '/sentinel/alertDestinations', READ, async (c, caller) => {
    const p = new Params();
    const plan = planList(new URL(c.req.url).searchParams, DESTINATION_LIST, p);
    const owner = `t.owner_id = ${p.add(caller.userId)}`;
    const page = await runList(
      db,
      { columns: DESTINATION_COLUMNS, from: 'alert_destinations t', where: [owner] },
      plan,
      p,
    );
    const results = (JSON.parse(page.results.toString('utf8')) as Record<string, unknown>[]).map(shown);
    return pageJson(c, { ...page, results: Buffer.from(JSON.stringify(results)) });
  });

  router.authed('GET', '/sentinel/alertDestinations/:destinationId', READ, async (c, caller) => {
    const id = param(c, 'destinationId');
    if (!UUID.test(id)) throw objectNotFound({ destinationId: id });
    return json(c, await destinationById(db, caller.userId, id));
  });

  router.authed('POST', '/sentinel/alertDestinations', WRITE, async (c, caller) => {
    const body = await readJson(c);
    if (!isObject(body)) throw badRequest('notObjectOrArray', 'Send an object.');
    requireProperties(body, ['name', 'kind']);
    const name = checkedName(body.name);
    if (!DESTINATION_KINDS.includes(body.kind as DestinationKind))
      throw validation(AlertMsg.destinationKind, { field: 'kind' });
    const kind = body.kind as DestinationKind;
    const address = await checkedAddress(ctx, kind, body.address);
    const id = randomUUID();
    await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock(4705, hashtext($1))', [caller.userId]);
      const { rows } = await tx.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM alert_destinations WHERE owner_id = $1',
        [caller.userId],
      );
      if (rows[0].n >= ALERT_LIMITS.destinationsPerAccount) throw validation(AlertMsg.tooManyDestinations);
      await tx.query(
        `INSERT INTO alert_destinations (destination_id, owner_id, name, kind, address, unsubscribe_token)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [id, caller.userId, name, kind, address, kind === 'email' ? newToken() : null],
      );
    });
    return json(c, await destinationById(db, caller.userId, id));
  });

  /** Renames it, or points it elsewhere (a new email address is subscribed afresh). */
  router.authed('PATCH', '/sentinel/alertDestinations/:destinationId', WRITE, async (c, caller) => {
    const id = param(c, 'destinationId');
    const body = await readJson(c);
    if (!isObject(body)) throw badRequest('notObjectOrArray', 'Send an object.');
    const current = await ownDestination(db, caller.userId, id);
    const address = 'address' in body ? await checkedAddress(ctx, current.kind, body.address) : null;
    await db.transaction(async (tx) => {
      await ownDestination(tx, caller.userId, id);
      if ('name' in body)
        await tx.query('UPDATE alert_destinations SET name = $2 WHERE destination_id = $1', [
          id,
          checkedName(body.name),
        ]);
      if (address !== null)
        await tx.query(
          `UPDATE alert_destinations SET address = $2, unsubscribed = false, blocked_until = NULL,
                  unsubscribe_token = CASE WHEN kind = 'email' THEN $3 END
            WHERE destination_id = $1`,
          [id, address, newToken()],
        );
    });
    return json(c, await destinationById(db, caller.userId, id));
  });

  router.authed('DELETE', '/sentinel/alertDestinations/:destinationId', WRITE, async (c, caller) => {
    const id = param(c, 'destinationId');
    await db.transaction(async (tx) => {
      await ownDestination(tx, caller.userId, id);
      // What was still to be sent there goes nowhere now; the history keeps the rest.
      await tx.query(
        `UPDATE alert_deliveries SET status = 'failed', answer = 'The destination was deleted.'
          WHERE destination_id = $1 AND status = 'pending'`,
        [id],
      );
      await tx.query('DELETE FROM alert_destinations WHERE destination_id = $1', [id]);
    });
    return json(c, true);
  });

  router.authed('POST', '/sentinel/alertDestinations/:destinationId/test', WRITE, async (c, caller) => {
    const id = param(c, 'destinationId');
    const written = await db.transaction(async (tx): Promise<Written | null> => {
      const d = await ownDestination(tx, caller.userId, id);
      if (d.unsubscribed) throw validation(AlertMsg.unsubscribed);
      await refuseTestFlood(tx, { destinationId: id });
      const notice = testNotice(d.name);
      // A browser notification is the console's own: its test is a notification with push on.
      const sentNow = d.kind === 'push';
      await tx.query(
        `INSERT INTO alert_deliveries (delivery_id, owner_id, destination_id, destination_name, destination_kind,
                                       kind, notice, status, attempts, date_sent)
         VALUES (gen_random_uuid(), $1, $2, $3, $4, 'test', $5, $6, $7, CASE WHEN $6 = 'sent' THEN now() END)`,
        [caller.userId, id, d.name, d.kind, notice, sentNow ? 'sent' : 'pending', sentNow ? 1 : 0],
      );
      if (!sentNow) return null;
      const notificationId = randomUUID();
      await writeNotification(tx, notificationId, caller.userId, null, null, notice);
      return { ownerId: caller.userId, notificationId, title: notice.title, body: notice.body, push: true };
    });
    await announce(ctx, [written]);
    ctx.alerts.wake();
    return json(c, true);
  });

  const unsubscribe = async (c: Ctx, confirm: boolean): Promise<Response> => {
    const token = param(c, 'token');
    const { rows } = await db.query<{ address: string }>(
      confirm
        ? `UPDATE alert_destinations SET unsubscribed = true WHERE unsubscribe_token = $1 RETURNING address`
        : 'SELECT address FROM alert_destinations WHERE unsubscribe_token = $1',
      [token],
    );
    if (confirm && rows[0])
      await db.query(
        `UPDATE alert_deliveries SET status = 'failed', answer = 'The recipient unsubscribed.'
          WHERE status = 'pending' AND destination_id = (SELECT destination_id FROM alert_destinations
                                                          WHERE unsubscribe_token = $1)`,
        [token],
      );
    return unsubscribePage(c, confirm, rows[0]?.address ?? null);
  };
  router.open('GET', '/unsubscribe/:token', (c) => unsubscribe(c, false));
  router.open('POST', '/unsubscribe/:token', (c) => unsubscribe(c, true));
}
