// /sentinel/groups and the group link classes (SENTINEL-API §3.2–3.6): groupUsers, groupServices,
// groupBuckets and groupScripts, declared over the generic class path.

import { channelFor, userChannel } from '../../domain/api.ts';
import { API_COLORS } from '../../domain/enums.ts';
import { GROUP_MESSAGES, LINK_CODE } from '../../domain/groups.ts';
import { definedBits, hasAll, Perm } from '../../domain/permissions.ts';
import { groupNamePayload } from '../../domain/validate.ts';
import type { ServerContext } from '../context.ts';
import type { Queryable } from '../db/db.ts';
import { validation } from '../http/errors.ts';
import type { ApiRouter } from '../http/router.ts';
import {
  type ClassSpec,
  check,
  type Notice,
  parse,
  type Row,
  registerClassPath,
  requireFilter,
  toAudience,
} from '../model/classPath.ts';
import { bitsOn, bitsOnEach, canSee, holdsAllEach, type ResourceKind } from '../model/permissions.ts';
import { scriptAttachment } from '../model/scriptAttachment.ts';

const name = (v: unknown) => {
  check(groupNamePayload(v));
  return (v as string).trim();
};

/** The chat-community link code the console makes (SPEC §9: 6 characters of the code alphabet). */
const linkCode = (v: unknown, f: string) => {
  if (v === null || v === '') return null;
  if (typeof v !== 'string' || !LINK_CODE.test(v)) throw validation(GROUP_MESSAGES.linkCode, { field: f });
  return v;
};

/** Anonymous accounts cannot be group members (SPEC §5 "User lookup"). */
async function notAnonymous(tx: Queryable, userIds: unknown[]): Promise<void> {
  const { rows } = await tx.query<{ user_id: string }>(
    'SELECT user_id FROM users WHERE user_id = ANY($1::uuid[]) AND is_anonymous',
    [userIds],
  );
  if (rows[0]) throw validation(GROUP_MESSAGES.anonymousUser, { userId: rows[0].user_id });
}

const groupListsUpdated = toAudience('group', 'group_id', 'groupsUpdated');

/** `groupsUpdated` to everyone who can see each row's group, so group lists refresh, and `groupUpdated` on the group. */
export async function groupAudience(tx: Queryable, rows: Row[]): Promise<Notice[]> {
  return [
    ...(await groupListsUpdated(tx, rows)),
    ...rows.map((r) => ({
      channels: [channelFor('groups', r.group_id as string)],
      event: 'groupUpdated',
      data: r.group_id,
    })),
  ];
}

const groupsOf = (rows: Record<string, unknown>[]) => rows.map((r) => r.group_id);

const GROUPS: ClassSpec = {
  narrowsAccess: true,
  path: '/sentinel/groups',
  idProp: 'groupId',
  table: 'groups',
  idColumn: 'group_id',
  columns: `x.group_id AS "groupId", x.user_id AS "userId", x.name, x.color, gp.permissions,
    x.enable_group_chat AS "enableGroupChat", x.discord_invite_code AS "discordInviteCode",
    x.discord_link_code AS "discordLinkCode", x.discord_guild_id AS "discordGuildId",
    x.discord_guild_name AS "discordGuildName", x.discord_chat_channel_id AS "discordChatChannelId",
    x.discord_chat_channel_name AS "discordChatChannelName",
    (x.enable_group_chat OR x.discord_invite_code IS NOT NULL OR x.discord_link_code IS NOT NULL
      OR x.discord_guild_id IS NOT NULL OR x.discord_chat_channel_id IS NOT NULL) AS "isClusterGroup",
    x.require_two_factor AS "requireTwoFactor"`,
  from: (user) =>
    `groups x JOIN group_permissions gp ON gp.group_id = x.group_id AND gp.user_id = ${user}::uuid`,
  visible: () => 'true',
  listWhere: async () => [],
  list: {
    id: { param: 'groupId', expr: 'x.group_id' },
    filters: { color: { kind: 'exact', expr: 'x.color' }, name: { kind: 'search', exprs: ['x.name'] } },
    sorts: { name: 'lower(x.name)' },
    defaultSort: 'name',
    tiebreak: 'x.group_id',
  },
  fields: {
    name: { column: 'name', write: 'edit', required: true, parse: name },
    color: { column: 'color', write: 'edit', parse: parse.oneOf(API_COLORS) },
    enableGroupChat: { column: 'enable_group_chat', write: 'edit', parse: parse.bool },
    discordInviteCode: { column: 'discord_invite_code', write: 'edit', parse: parse.textOrNull(100) },
    discordLinkCode: { column: 'discord_link_code', write: 'edit', parse: linkCode },
    discordGuildId: { column: 'discord_guild_id', write: 'edit', parse: parse.textOrNull(100) },
    discordChatChannelId: { column: 'discord_chat_channel_id', write: 'edit', parse: parse.textOrNull(100) },
    // Members without a second factor keep read access only (036_access.sql).
    requireTwoFactor: { column: 'require_two_factor', write: 'edit', parse: parse.bool },
  },
  owner: (caller) => ({ user_id: caller.userId }),
  canChange: (tx, userId, rows) => holdsAllEach(tx, 'group', groupsOf(rows), userId, Perm.EditGroup),
  afterWrite: async (tx, rows) => {
    await forgetUnlinkedCommunity(tx, groupsOf(rows));
    await oneClusterGroupPerService(tx, groupsOf(rows));
  },
  notify: groupAudience,
};

/** The community's names are the bot's to set (docs/api.md "Chat community"); an unlinked group keeps none. */
async function forgetUnlinkedCommunity(tx: Queryable, groupIds: unknown[]): Promise<void> {
  await tx.query(
    `UPDATE groups
        SET discord_guild_name = CASE WHEN discord_guild_id IS NULL THEN NULL ELSE discord_guild_name END,
            discord_chat_channel_name = CASE WHEN discord_chat_channel_id IS NULL THEN NULL
                                             ELSE discord_chat_channel_name END
      WHERE group_id = ANY($1::uuid[])
        AND ((discord_guild_id IS NULL AND discord_guild_name IS NOT NULL)
          OR (discord_chat_channel_id IS NULL AND discord_chat_channel_name IS NOT NULL))`,
    [groupIds],
  );
}

/** A service may be in at most one cluster group (§3.2); checks the services of these groups. */
async function oneClusterGroupPerService(tx: Queryable, groupIds: unknown[]): Promise<void> {
  const { rows } = await tx.query<{ service_id: string }>(
    `SELECT gs.service_id FROM group_services gs JOIN groups g ON g.group_id = gs.group_id
      WHERE gs.service_id IN (SELECT service_id FROM group_services WHERE group_id = ANY($1::uuid[]))
        AND (g.enable_group_chat OR g.discord_guild_id IS NOT NULL OR g.discord_link_code IS NOT NULL
             OR g.discord_invite_code IS NOT NULL)
      GROUP BY gs.service_id HAVING count(*) > 1 LIMIT 1`,
    [groupIds],
  );
  if (rows[0])
    throw validation('A server can be in only one cluster group.', { serviceId: rows[0].service_id });
}

const GROUP_USERS: ClassSpec = {
  narrowsAccess: true,
  path: '/sentinel/groupUsers',
  idProp: 'groupUserId',
  table: 'group_users',
  idColumn: 'group_user_id',
  extraScopes: ['users:read'],
  columns: `x.group_user_id AS "groupUserId", x.group_id AS "groupId", g.name AS "groupName",
    g.color AS "groupColor", g.user_id AS "groupOwnerId", x.user_id AS "userId", u.username,
    u.username || '#' || left(x.user_id::text, 8) AS "usernameFull", x.permissions,
    x.role_id AS "roleId", r.name AS "roleName",
    (g.require_two_factor AND NOT u.second_factor) AS "readOnlyUntilTwoFactor"`,
  from: () => `group_users x JOIN groups g ON g.group_id = x.group_id JOIN users u ON u.user_id = x.user_id
    LEFT JOIN group_roles r ON r.role_id = x.role_id`,
  visible: (user) => `(x.user_id = ${user}::uuid OR ${canSee('group', 'x.group_id', user)})`,
  // Without a groupId the caller can see, a list shows the caller's own memberships (§2.4).
  listWhere: async (q, user, _p, tx, caller) =>
    (await bitsOn(tx, 'group', q.get('groupId'), caller.userId)) === null
      ? [`x.user_id = ${user}::uuid`]
      : [],
  list: {
    id: { param: 'groupUserId', expr: 'x.group_user_id' },
    filters: {
      groupId: { kind: 'exact', expr: 'x.group_id', type: 'uuid' },
      groupOwnerId: { kind: 'exact', expr: 'g.user_id', type: 'uuid' },
      userId: { kind: 'exact', expr: 'x.user_id', type: 'uuid' },
      groupName: { kind: 'search', exprs: ['g.name'] },
      username: { kind: 'search', exprs: ['u.username'] },
      usernameFull: { kind: 'search', exprs: [`u.username || '#' || left(x.user_id::text, 8)`] },
    },
    sorts: {
      groupName: 'lower(g.name)',
      username: 'lower(u.username)',
      usernameFull: `lower(u.username || '#' || left(x.user_id::text, 8))`,
    },
    defaultSort: 'groupName',
    tiebreak: 'x.group_user_id',
  },
  fields: {
    groupId: { column: 'group_id', write: 'create', required: true, parse: parse.uuid },
    userId: { column: 'user_id', write: 'create', required: true, parse: parse.uuid },
    permissions: { column: 'permissions', write: 'edit', required: true, parse: parse.mask },
    // A role of the group (or a built-in one): its bits replace `permissions` (036_access.sql).
    roleId: { column: 'role_id', write: 'edit', parse: parse.uuidOrNull },
  },
  canCreate: async (tx, userId, values) =>
    mayGrant(tx, userId, groupsOf(values), await grantedBits(tx, groupsOf(values), values, 'role_id')),
  canChange: async (tx, userId, rows, change, objs) =>
    change === 'delete'
      ? holdsAllEach(tx, 'group', groupsOf(rows), userId, Perm.ManageUsers)
      : mayGrant(tx, userId, groupsOf(rows), await grantedBits(tx, groupsOf(rows), objs ?? [], 'roleId')),
  afterWrite: (tx, rows) =>
    notAnonymous(
      tx,
      rows.map((r) => r.user_id),
    ),
  // The member added, changed or removed hears it on their own channel too: one removed is no
  // longer in the group's audience, and their open page of it must say that their access ended.
  notify: async (tx, rows) => [
    ...(await groupAudience(tx, rows)),
    ...rows.map((r) => ({
      channels: [userChannel(r.user_id as string)],
      event: 'groupsUpdated',
      data: r.group_id,
    })),
  ],
};

/**
 * ManageUsers on the group, and no bit the caller does not hold there: a member who manages users
 * cannot hand out (or take) more than they have.
 */
export async function mayGrant(
  tx: Queryable,
  userId: string,
  groupIds: unknown[],
  bits: unknown[],
): Promise<boolean[]> {
  return (await bitsOnEach(tx, 'group', groupIds, userId)).map(
    (mine, i) =>
      mine !== null &&
      hasAll(mine, Perm.ManageUsers) &&
      (typeof bits[i] !== 'number' || hasAll(mine, (bits[i] as number) & 16383)),
  );
}

/**
 * The bits each write would give: its role's (a role of that group or a built-in one; another
 * group's role gives nothing, and the database refuses it) or its `permissions`.
 */
async function grantedBits(
  tx: Queryable,
  groupIds: unknown[],
  objs: Record<string, unknown>[],
  roleKey: 'role_id' | 'roleId',
): Promise<unknown[]> {
  const roleIds = objs.map((o) => o?.[roleKey]);
  // Bits set by hand (every write before roles) need no read.
  if (!roleIds.some((r) => typeof r === 'string')) return objs.map((o) => o?.permissions);
  const { rows } = await tx.query<{ i: number; permissions: number }>(
    `SELECT w.i, r.permissions FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS w(role_id, group_id, i)
       JOIN group_roles r ON r.role_id::text = lower(w.role_id) AND (r.group_id IS NULL OR r.group_id::text = lower(w.group_id))`,
    [
      roleIds.map((r) => (typeof r === 'string' ? r : null)),
      groupIds.map((g) => (typeof g === 'string' ? g : null)),
    ],
  );
  const byIndex = new Map(rows.map((r) => [Number(r.i) - 1, Number(r.permissions)]));
  return objs.map((o, i) => byIndex.get(i) ?? o?.permissions);
}

interface LinkedResource {
  kind: Exclude<ResourceKind, 'group' | 'script'>;
  path: string;
  table: string;
  idProp: string;
  idColumn: string;
  /** JSON → SQL over the resource alias `r`, after the resource's id. */
  columns: Record<string, string>;
  join: string;
  filters: ClassSpec['list']['filters'];
  sorts: Record<string, string>;
  defaultSort: string;
  manage: number;
  share: number;
}

/** groupServices / groupBuckets: a resource in a group with its permissions mask (§3.4, §3.5). */
function groupLink(r: LinkedResource): ClassSpec {
  const rid = `${r.kind}_id`;
  const cols = Object.entries(r.columns)
    .map(([k, v]) => `${v} AS "${k}"`)
    .join(', ');
  const allowed = async (tx: Queryable, userId: string, rows: Record<string, unknown>[]) => {
    const manage = await holdsAllEach(tx, 'group', groupsOf(rows), userId, r.manage);
    const share = await holdsAllEach(
      tx,
      r.kind,
      rows.map((x) => x[rid]),
      userId,
      r.share,
    );
    return manage.map((ok, i) => ok && share[i]);
  };
  /** The caller's defined bits on each row's resource (0 when none). */
  const heldOn = async (tx: Queryable, userId: string, rows: Record<string, unknown>[]) =>
    (
      await bitsOnEach(
        tx,
        r.kind,
        rows.map((x) => x[rid]),
        userId,
      )
    ).map((mine) => (mine === null ? 0 : definedBits(Number(mine))));
  return {
    path: r.path,
    idProp: r.idProp,
    table: r.table,
    idColumn: r.idColumn,
    // A server, bucket or script taken out of a group (or masked) is no longer the members'.
    narrowsAccess: true,
    columns: `x.${r.idColumn} AS "${r.idProp}", x.group_id AS "groupId", g.name AS "groupName",
      g.color AS "groupColor", coalesce(gp.permissions, 0) AS "groupPermissions", x.${rid} AS "${r.kind}Id", ${cols},
      x.permissions_mask AS "permissionsMask"`,
    from: (user) => `${r.table} x JOIN groups g ON g.group_id = x.group_id ${r.join}
      LEFT JOIN group_permissions gp ON gp.group_id = x.group_id AND gp.user_id = ${user}::uuid`,
    visible: (user) => `(gp.permissions IS NOT NULL OR ${canSee(r.kind, `x.${rid}`, user)})`,
    listWhere: requireFilter(
      [
        { key: 'groupId', kind: 'group' },
        { key: `${r.kind}Id`, kind: r.kind },
      ],
      `Filter by groupId or ${r.kind}Id.`,
    ),
    list: {
      id: { param: r.idProp, expr: `x.${r.idColumn}` },
      filters: {
        groupId: { kind: 'exact', expr: 'x.group_id', type: 'uuid' },
        groupColor: { kind: 'exact', expr: 'g.color' },
        groupName: { kind: 'ilike', exprs: ['g.name'] },
        [`${r.kind}Id`]: { kind: 'exact', expr: `x.${rid}`, type: 'uuid' },
        ...r.filters,
      },
      sorts: { groupName: 'lower(g.name)', ...r.sorts },
      defaultSort: r.defaultSort,
      tiebreak: `x.${r.idColumn}`,
    },
    fields: {
      groupId: { column: 'group_id', write: 'create', required: true, parse: parse.uuid },
      [`${r.kind}Id`]: { column: rid, write: 'create', required: true, parse: parse.uuid },
      permissionsMask: { column: 'permissions_mask', write: 'edit', required: true, parse: parse.mask },
    },
    canCreate: allowed,
    // A link allows no more than its sharer holds on the resource: else sharing a bucket into one's
    // own group (whose owner gets what the link allows) would turn share buckets into every bit.
    derive: async (tx, userId, values) =>
      (await heldOn(tx, userId, values)).map((mine, i) => ({
        permissions_mask: (Number(values[i].permissions_mask) & mine) | Perm.Membership,
      })),
    canChange: async (tx, userId, rows, change, objs) => {
      const ok = await allowed(tx, userId, rows);
      if (change === 'delete') return ok;
      const held = await heldOn(tx, userId, rows);
      const asked = (i: number) => objs?.[i]?.permissionsMask;
      return ok.map(
        (y, i) => y && (typeof asked(i) !== 'number' || hasAll(held[i], (asked(i) as number) & 16383)),
      );
    },
    afterWrite: (tx, rows) =>
      r.kind === 'service' ? oneClusterGroupPerService(tx, groupsOf(rows)) : Promise.resolve(),
    notify: groupAudience,
  };
}

const GROUP_SERVICES = groupLink({
  kind: 'service',
  path: '/sentinel/groupServices',
  table: 'group_services',
  idProp: 'groupServiceId',
  idColumn: 'group_service_id',
  columns: { serviceDisplayName: 'coalesce(s.nickname, s.name)', serviceColor: 's.color' },
  join: 'JOIN services s ON s.service_id = x.service_id AND NOT s.deleted',
  filters: {
    serviceColor: { kind: 'exact', expr: 's.color' },
    serviceDisplayName: { kind: 'ilike', exprs: ['coalesce(s.nickname, s.name)'] },
  },
  sorts: { serviceDisplayName: 'lower(coalesce(s.nickname, s.name))' },
  defaultSort: 'serviceDisplayName',
  manage: Perm.ManageServices,
  share: Perm.ShareServices,
});

const GROUP_BUCKETS = groupLink({
  kind: 'bucket',
  path: '/sentinel/groupBuckets',
  table: 'group_buckets',
  idProp: 'groupBucketId',
  idColumn: 'group_bucket_id',
  columns: { bucketName: 'b.name' },
  join: 'JOIN buckets b ON b.bucket_id = x.bucket_id',
  filters: { bucketName: { kind: 'ilike', exprs: ['b.name'] } },
  sorts: { bucketName: 'lower(b.name)' },
  defaultSort: 'bucketName',
  manage: Perm.ManageBuckets,
  share: Perm.ShareBuckets,
});

export function registerGroupRoutes(router: ApiRouter, ctx: ServerContext): void {
  for (const spec of [GROUPS, GROUP_USERS, GROUP_SERVICES, GROUP_BUCKETS, scriptAttachment('group')])
    registerClassPath(router, ctx, spec);
}
