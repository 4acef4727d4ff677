// GET /sentinel/activity (ours, docs/api.md "Activity trail"): the trail of a server (serviceId)
// or a group (groupId), for callers holding ManageUsers there (an owner holds every bit); without
// either, the caller's own writes. Read-only: no route changes or deletes an entry, and the
// table's trigger refuses it anyway.

import { ACTIVITY_PATH } from '../../domain/activity.ts';
import { EPOCH_MAX, isEpochSeconds } from '../../domain/limits.ts';
import { hasAll, Perm } from '../../domain/permissions.ts';
import type { ServerContext } from '../context.ts';
import { ApiException, validation } from '../http/errors.ts';
import { type ListSpec, Params, planList, runList } from '../http/listQuery.ts';
import { type ApiRouter, pageJson } from '../http/router.ts';
import { bitsOn, type ResourceKind } from '../model/permissions.ts';
import { epoch } from '../model/service.ts';

const READ = ['sentinel:read'];
const USERNAME_FULL = `u.username || '#' || left(u.user_id::text, 8)`;
/**
 * Who or what the write was about, by name: the player banned, the server or group changed, the
 * user added. Looked up as the list is read, so it is today's name, and each by its primary key.
 */
const TARGET_NAME = `CASE WHEN a.target ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN coalesce(
    (SELECT p.name FROM players p WHERE p.player_id = a.target::uuid),
    (SELECT coalesce(s.nickname, s.name) FROM services s WHERE s.service_id = a.target::uuid),
    (SELECT g.name FROM groups g WHERE g.group_id = a.target::uuid),
    (SELECT tu.username FROM users tu WHERE tu.user_id = a.target::uuid)) END`;

const COLUMNS = `a.activity_id AS "activityId", ${epoch('a.time')} AS time, a.user_id AS "userId",
  coalesce(u.username, '') AS username, coalesce(${USERNAME_FULL}, a.user_id::text) AS "usernameFull",
  a.method, a.route, a.kind, a.action, a.target, a.summary, a.service_ids AS "serviceIds",
  a.group_ids AS "groupIds", a.outcome, ${TARGET_NAME} AS "targetName"`;
const FROM = 'activity a LEFT JOIN users u ON u.user_id = a.user_id';

/** since/until: epoch seconds, `since` inclusive and `until` exclusive. */
function timeBound(op: '>=' | '<', field: string) {
  return (v: string, p: Params) => {
    const n = Number(v);
    if (v.trim() === '' || !isEpochSeconds(n))
      throw validation(`${field} must be epoch seconds from 0 to ${EPOCH_MAX}.`, { field });
    return `a.time ${op} to_timestamp(${p.add(n)}::float8)`;
  };
}

const LIST: ListSpec = {
  id: { param: 'activityId', expr: 'a.activity_id' },
  filters: {
    userId: { kind: 'exact', expr: 'a.user_id', type: 'uuid' },
    user: { kind: 'ilike', exprs: [USERNAME_FULL] },
    kind: { kind: 'in', expr: 'a.kind' },
    action: { kind: 'in', expr: 'a.action' },
    outcome: { kind: 'in', expr: 'a.outcome' },
    since: { kind: 'custom', sql: timeBound('>=', 'since') },
    until: { kind: 'custom', sql: timeBound('<', 'until') },
  },
  sorts: { time: 'a.time', kind: 'a.kind', usernameFull: `lower(${USERNAME_FULL})` },
  defaultSort: 'time',
  defaultDirection: 'descending',
  tiebreak: 'a.activity_id',
};

const SCOPES: { param: 'serviceId' | 'groupId'; kind: ResourceKind; column: string }[] = [
  { param: 'serviceId', kind: 'service', column: 'a.service_ids' },
  { param: 'groupId', kind: 'group', column: 'a.group_ids' },
];

export function registerActivityRoutes(router: ApiRouter, ctx: ServerContext): void {
  router.authed('GET', ACTIVITY_PATH, READ, async (c, caller) => {
    const q = new URL(c.req.url).searchParams;
    const p = new Params();
    const where: string[] = [];
    for (const s of SCOPES) {
      const id = q.get(s.param);
      if (id === null) continue;
      const bits = await bitsOn(ctx.db, s.kind, id, caller.userId);
      if (bits === null || !hasAll(bits, Perm.ManageUsers))
        throw new ApiException(
          403,
          `You do not have the correct permissions on ${s.kind} ${id}.`,
          'forbidden',
          { [s.param]: id },
        );
      where.push(`${p.add(id.toLowerCase())}::uuid = ANY(${s.column})`);
    }
    if (where.length === 0) where.push(`a.user_id = ${p.add(caller.userId)}::uuid`);
    const plan = planList(q, LIST, p);
    return pageJson(c, await runList(ctx.db, { columns: COLUMNS, from: FROM, where }, plan, p));
  });
}
