// Role templates (/sentinel/groupRoles, docs/api.md "Roles"): named sets of a group's permission
// bits, the built-in ones for every group and each group's own; and where a user's bits on a
// server come from (/sentinel/services/:serviceId/access).

import { ACCESS_MESSAGES, type AccessSource, ROLE_NAME_MAX, ROLES_PER_GROUP } from '../../domain/access.ts';
import { UUID } from '../../domain/constants.ts';
import { Perm } from '../../domain/permissions.ts';
import type { ServerContext } from '../context.ts';
import { ApiException, objectNotFound, validation } from '../http/errors.ts';
import { type ApiRouter, json, param } from '../http/router.ts';
import { type ClassSpec, parse, registerClassPath } from '../model/classPath.ts';
import { bitsOn, canSee } from '../model/permissions.ts';
import { groupAudience, mayGrant } from './groups.ts';

const roleName = (v: unknown, f: string) => {
  const name = typeof v === 'string' ? v.trim() : '';
  if (!name || name.length > ROLE_NAME_MAX) throw validation(ACCESS_MESSAGES.roleName, { field: f });
  return name;
};

/** A role's bits: the group's defined bits only (a role never grants an owner's all), with membership. */
const roleBits = (v: unknown, f: string) => {
  const mask = parse.mask(v, f) as number;
  if (mask > 16383)
    throw validation(`${f} must be a whole number of the group's permission bits.`, { field: f });
  return mask;
};

function ownRolesOnly(rows: Record<string, unknown>[]): void {
  if (rows.some((r) => r.group_id === null))
    throw new ApiException(403, ACCESS_MESSAGES.roleBuiltIn, 'builtInRole');
}

const GROUP_ROLES: ClassSpec = {
  path: '/sentinel/groupRoles',
  idProp: 'roleId',
  table: 'group_roles',
  idColumn: 'role_id',
  columns: `x.role_id AS "roleId", x.group_id AS "groupId", x.name, x.permissions, (x.group_id IS NULL) AS "builtIn"`,
  from: () => 'group_roles x',
  visible: (user) => `(x.group_id IS NULL OR ${canSee('group', 'x.group_id', user)})`,
  // A group's roles are the built-in ones and its own; without a group, the built-in ones.
  listWhere: async (q, user, p) => {
    const groupId = q.get('groupId');
    if (!groupId || !UUID.test(groupId)) return ['x.group_id IS NULL'];
    const g = p.add(groupId);
    return [`(x.group_id IS NULL OR (x.group_id = ${g}::uuid AND ${canSee('group', `${g}::uuid`, user)}))`];
  },
  list: {
    id: { param: 'roleId', expr: 'x.role_id' },
    filters: { name: { kind: 'search', exprs: ['x.name'] } },
    sorts: { name: 'lower(x.name)', permissions: 'x.permissions' },
    // By how much they give: the order a person reads a ladder of roles.
    defaultSort: 'permissions',
    tiebreak: 'x.role_id',
  },
  fields: {
    groupId: { column: 'group_id', write: 'create', required: true, parse: parse.uuid },
    name: { column: 'name', write: 'edit', required: true, parse: roleName },
    permissions: { column: 'permissions', write: 'edit', required: true, parse: roleBits },
  },
  canCreate: (tx, userId, values) =>
    mayGrant(
      tx,
      userId,
      values.map((v) => v.group_id),
      values.map((v) => v.permissions),
    ),
  canChange: async (tx, userId, rows, change, objs) => {
    ownRolesOnly(rows);
    return mayGrant(
      tx,
      userId,
      rows.map((r) => r.group_id),
      // Deleting leaves holders their bits; editing hands the new ones out.
      change === 'delete'
        ? rows.map((r) => r.permissions)
        : rows.map((r, i) => objs?.[i]?.permissions ?? r.permissions),
    );
  },
  afterWrite: async (tx, rows) => {
    const { rows: over } = await tx.query(
      `SELECT group_id FROM group_roles WHERE group_id = ANY($1::uuid[]) GROUP BY group_id HAVING count(*) > $2`,
      [rows.map((r) => r.group_id), ROLES_PER_GROUP],
    );
    if (over[0]) throw validation(ACCESS_MESSAGES.roleCount);
  },
  // A role's change is a change of its holders' bits: the group's audience hears it.
  notify: (tx, rows) => groupAudience(tx, rows),
};

export function registerGroupRoleRoutes(router: ApiRouter, ctx: ServerContext): void {
  registerClassPath(router, ctx, GROUP_ROLES);

  // Anyone may see their own; another user's, the server's owner or whoever manages users in a
  // group holding it.
  router.authed('GET', '/sentinel/services/:serviceId/access', ['sentinel:read'], async (c, caller) => {
    const serviceId = param(c, 'serviceId');
    const asked = (c.req.query('userId') ?? caller.userId).toLowerCase();
    if (!UUID.test(asked) || (await bitsOn(ctx.db, 'service', serviceId, caller.userId)) === null)
      throw objectNotFound();
    if (asked !== caller.userId) {
      const { rows } = await ctx.db.query(
        `SELECT 1 FROM services s WHERE s.service_id = $1 AND s.user_id = $2
         UNION ALL
         SELECT 1 FROM group_services gs JOIN group_permissions gp ON gp.group_id = gs.group_id AND gp.user_id = $2
          WHERE gs.service_id = $1 AND gp.permissions & ${Perm.ManageUsers} <> 0 LIMIT 1`,
        [serviceId, caller.userId],
      );
      if (!rows[0])
        throw new ApiException(
          403,
          'Only the server’s owner or a group’s user manager may see another user’s access.',
          'forbidden',
        );
    }
    const { rows: sources } = await ctx.db.query<AccessSource>(
      `SELECT 'owner' AS kind, NULL::uuid AS "groupId", NULL AS "groupName", NULL AS "roleName",
              NULL::bigint AS "memberBits", NULL::bigint AS "linkMask", false AS "readOnlyUntilTwoFactor",
              9007199254740991::float8 AS bits
         FROM services s WHERE s.service_id = $1 AND s.user_id = $2 AND NOT s.deleted
       UNION ALL
       SELECT 'groupOwner', g.group_id, g.name, NULL, NULL, gs.permissions_mask, false,
              (gs.permissions_mask & 16383)::float8
         FROM group_services gs JOIN groups g ON g.group_id = gs.group_id
        WHERE gs.service_id = $1 AND g.user_id = $2
       UNION ALL
       SELECT 'member', g.group_id, g.name, r.name, gu.permissions, gs.permissions_mask,
              g.require_two_factor AND NOT u.second_factor, (gs.permissions_mask & mb.bits & 16383)::float8
         FROM group_services gs JOIN groups g ON g.group_id = gs.group_id
         JOIN group_users gu ON gu.group_id = gs.group_id AND gu.user_id = $2
         JOIN group_member_bits mb ON mb.group_id = gu.group_id AND mb.user_id = gu.user_id
         JOIN users u ON u.user_id = gu.user_id
         LEFT JOIN group_roles r ON r.role_id = gu.role_id
        WHERE gs.service_id = $1
        ORDER BY 1, 3`,
      [serviceId, asked],
    );
    const effective = await bitsOn(ctx.db, 'service', serviceId, asked);
    return json(c, { serviceId, userId: asked, permissions: effective ?? 0, sources });
  });
}
