// /sentinel/serviceUsers (SENTINEL-API §3.15), read-only, scope users:read. A `serviceId` filter
// needs any bit on that service; without one the list is the caller's own rows.

import { UUID } from '../../domain/constants.ts';
import type { ServerContext } from '../context.ts';
import { objectNotFound } from '../http/errors.ts';
import { type ListSpec, Params, planList, runList } from '../http/listQuery.ts';
import { type ApiRouter, json, pageJson, param } from '../http/router.ts';
import { SERVICE_USER_COLUMNS, SERVICE_USER_FROM, SERVICE_USER_ID } from '../model/serviceUser.ts';

const SCOPES = ['sentinel:read', 'users:read'];

const SERVICE_USER_LIST: ListSpec = {
  id: { param: 'serviceUserId', expr: SERVICE_USER_ID },
  filters: {
    serviceId: { kind: 'exact', expr: 'su.service_id', type: 'uuid' },
    userId: { kind: 'exact', expr: 'su.user_id', type: 'uuid' },
    usernameFull: { kind: 'ilike', exprs: [`u.username || '#' || left(u.user_id::text, 8)`] },
    username: { kind: 'ilike', exprs: ['u.username'] },
  },
  sorts: {
    usernameFull: `lower(u.username || '#' || left(u.user_id::text, 8))`,
    username: 'lower(u.username)',
    serviceDisplayName: 'lower(coalesce(s.nickname, s.name))',
  },
  defaultSort: 'usernameFull',
  tiebreak: 'su.user_id',
};

/** Services the caller may see the users of: any bit on them. */
const mine = (user: string) =>
  `su.service_id IN (SELECT service_id FROM service_permissions WHERE user_id = ${user}::uuid)`;

export function registerServiceUserRoutes(router: ApiRouter, ctx: ServerContext): void {
  router.authed('GET', '/sentinel/serviceUsers', SCOPES, async (c, caller) => {
    const q = new URL(c.req.url).searchParams;
    const p = new Params();
    const user = p.add(caller.userId);
    const where = [mine(user)];
    if (!q.has('serviceId')) where.push(`su.user_id = ${user}::uuid`);
    const plan = planList(q, SERVICE_USER_LIST, p);
    return pageJson(
      c,
      await runList(ctx.db, { columns: SERVICE_USER_COLUMNS, from: SERVICE_USER_FROM, where }, plan, p),
    );
  });

  router.authed('GET', '/sentinel/serviceUsers/:serviceUserId', SCOPES, async (c, caller) => {
    const id = param(c, 'serviceUserId');
    const { rows } = UUID.test(id)
      ? await ctx.db.query(
          `SELECT ${SERVICE_USER_COLUMNS} FROM ${SERVICE_USER_FROM} WHERE ${SERVICE_USER_ID} = $1 AND ${mine('$2')}`,
          [id, caller.userId],
        )
      : { rows: [] };
    if (!rows[0]) throw objectNotFound({ serviceUserId: id });
    return json(c, rows[0]);
  });
}
