// /sentinel/notifications (the alerts issue): the console's own list of what the caller's alert
// rules raised and cleared, newest first, with how many are unread; only ever the caller's.

import { AlertEvent } from '../../domain/alerts.ts';
import { userChannel } from '../../domain/api.ts';
import { UUID } from '../../domain/constants.ts';
import type { ServerContext } from '../context.ts';
import { readJson } from '../http/body.ts';
import { badRequest } from '../http/errors.ts';
import { type ListSpec, Params, planList, runList } from '../http/listQuery.ts';
import { type ApiRouter, json, pageJson } from '../http/router.ts';
import { isObject } from '../model/bulkBody.ts';
import { epoch } from '../model/service.ts';

const READ = ['sentinel:read'];
const WRITE = ['sentinel:read', 'sentinel:write'];

const COLUMNS = `
  n.notification_id AS "notificationId", n.rule_id AS "ruleId", n.service_id AS "serviceId", n.kind,
  n.title, n.body, n.is_read AS "isRead", ${epoch('n.date_created')} AS "dateCreated"`;

const LIST: ListSpec = {
  id: { param: 'notificationId', expr: 'n.notification_id' },
  filters: {
    isRead: { kind: 'bool', expr: 'n.is_read' },
    ruleId: { kind: 'exact', expr: 'n.rule_id', type: 'uuid' },
  },
  sorts: { dateCreated: 'n.date_created' },
  defaultSort: 'dateCreated',
  defaultDirection: 'descending',
  tiebreak: 'n.notification_id',
};

export function registerNotificationRoutes(router: ApiRouter, ctx: ServerContext): void {
  const { db } = ctx;

  router.authed('GET', '/sentinel/notifications', READ, async (c, caller) => {
    const p = new Params();
    const plan = planList(new URL(c.req.url).searchParams, LIST, p);
    const owner = `n.owner_id = ${p.add(caller.userId)}`;
    return pageJson(
      c,
      await runList(db, { columns: COLUMNS, from: 'notifications n', where: [owner] }, plan, p),
    );
  });

  router.authed('GET', '/sentinel/notifications/unread', READ, async (c, caller) => {
    const { rows } = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM notifications WHERE owner_id = $1 AND NOT is_read',
      [caller.userId],
    );
    return json(c, { count: rows[0].n });
  });

  /** `{notificationIds: [...]}` marks those read; `{all: true}` every one. */
  router.authed('POST', '/sentinel/notifications/read', WRITE, async (c, caller) => {
    const body = await readJson(c);
    if (!isObject(body)) throw badRequest('notObjectOrArray', 'Send an object.');
    const ids = body.notificationIds;
    if (
      body.all !== true &&
      !(
        Array.isArray(ids) &&
        ids.length <= 1000 &&
        ids.every((id) => typeof id === 'string' && UUID.test(id))
      )
    )
      throw badRequest('validation', 'Send notificationIds, or all: true.');
    await db.query(
      `UPDATE notifications SET is_read = true
        WHERE owner_id = $1 AND NOT is_read AND ($2::boolean OR notification_id = ANY($3::uuid[]))`,
      [caller.userId, body.all === true, body.all === true ? [] : ids],
    );
    await ctx.publisher.publish([userChannel(caller.userId)], AlertEvent.notificationsRead, '');
    return json(c, true);
  });
}
