// The Service JSON of SENTINEL-API §3.1, read with the caller's resolved permissions, and the
// realtime notices every change of a service sends.

import type { Service } from '../../domain/api.ts';
import { channelFor, RealtimeEvent, userChannel } from '../../domain/api.ts';
import { Perm } from '../../domain/permissions.ts';
import type { ServerContext } from '../context.ts';
import type { Queryable } from '../db/db.ts';
import { publishAll } from '../realtime/publisher.ts';

/** Epoch seconds of a timestamptz (float), null stays null. */
export const epoch = (expr: string) => `extract(epoch FROM ${expr})::float8`;

/**
 * The access key lets its holder act as the game server (link, events, webhooks): only the owner
 * and holders of EditServices read it; everyone else gets null. So with the RCON address; the
 * RCON password is never read back at all.
 */
export const SERVICE_COLUMNS = `
  s.service_id AS "serviceId", s.user_id AS "userId", s.game_id AS "gameId",
  CASE WHEN sp.permissions & ${Perm.EditServices} <> 0 THEN s.access_key END AS "accessKey",
  s.access_key_hash AS "accessKeyHash",
  s.is_connected AS "isConnected", round(${epoch('s.connection_change_time')}) AS "connectionChangeTime",
  s.name, s.nickname, coalesce(s.nickname, s.name) AS "displayName",
  s.mini_name AS "miniName", coalesce(s.mini_name, s.nickname, s.name) AS "miniDisplayName",
  s.color, s.platform, s.game_specific AS "gameSpecific", s.game_clock AS "gameClock",
  s.current_players AS "currentPlayers", s.max_players AS "maxPlayers", s.languages,
  s.cluster_id AS "clusterId", s.allow_cluster_id_change AS "allowClusterIdChange",
  sp.permissions, s.rcon_connected AS "rconConnected", s.ip_address AS "ipAddress",
  EXISTS (SELECT 1 FROM group_services ugs JOIN groups ug ON ug.group_id = ugs.group_id
          WHERE ugs.service_id = s.service_id AND ug.enable_group_chat) AS "usesGroupChat",
  s.difficulty, s.kick_untracked_players AS "kickUntrackedPlayers",
  s.connection_kind AS "connectionKind",
  CASE WHEN sp.permissions & ${Perm.EditServices} <> 0 THEN s.rcon_host END AS "rconHost",
  CASE WHEN sp.permissions & ${Perm.EditServices} <> 0 THEN s.rcon_port END AS "rconPort",
  s.rcon_password_sealed IS NOT NULL AS "rconPasswordSet", s.rcon_error AS "rconError",
  CASE WHEN s.connection_kind = 'rcon' THEN coalesce(s.game_kind_set, s.game_kind) ELSE 'ascended' END AS "gameKind",
  s.game_kind_set AS "rconGame",
  s.link_refusal AS "linkRefusal"`;

/** Services the user ($userParam) can see, with their permissions as `sp.permissions`. */
export const visibleServicesFrom = (userParam: string) =>
  `services s JOIN service_permissions sp ON sp.service_id = s.service_id AND sp.user_id = ${userParam}`;

export async function getService(db: Queryable, serviceId: string, userId: string): Promise<Service | null> {
  const { rows } = await db.query<Service>(
    `SELECT ${SERVICE_COLUMNS} FROM ${visibleServicesFrom('$2')} WHERE s.service_id = $1 AND NOT s.deleted`,
    [serviceId, userId],
  );
  return rows[0] ?? null;
}

/**
 * The targets whose servers are connected to any server process on the database. links.isConnected
 * knows only this process's links, and a server may be linked to another process, or held over
 * RCON by another (its RCON worker among them).
 */
export async function connectedOf<T extends { serviceId: string }>(
  db: Queryable,
  targets: readonly T[],
): Promise<T[]> {
  if (targets.length === 0) return [];
  const { rows } = await db.query<{ id: string }>(
    'SELECT service_id AS id FROM services WHERE service_id = ANY($1::uuid[]) AND is_connected',
    [targets.map((t) => t.serviceId)],
  );
  const online = new Set(rows.map((r) => r.id));
  return targets.filter((t) => online.has(t.serviceId));
}

export async function usersWithAccess(db: Queryable, serviceId: string): Promise<string[]> {
  const { rows } = await db.query<{ user_id: string }>(
    'SELECT user_id FROM service_permissions WHERE service_id = $1',
    [serviceId],
    'users-with-access',
  );
  return rows.map((r) => r.user_id);
}

/** The groups a server is in, as kept until the next write (every log line asks, for its channels). */
export function groupsOf(ctx: ServerContext, serviceId: string): Promise<string[]> {
  return ctx.reads.setting(`groups:${serviceId}`, async () => {
    const { rows } = await ctx.db.query<{ group_id: string }>(
      'SELECT group_id FROM group_services WHERE service_id = $1',
      [serviceId],
    );
    return rows.map((r) => r.group_id);
  });
}

/** A service as every subscriber gets it (no per-user permissions), and who has access to it. */
type Changed = Service & { usersWithAccess: string[] };
const CHANGED_COLUMNS = `${SERVICE_COLUMNS},
  ARRAY(SELECT up.user_id::text FROM service_permissions up WHERE up.service_id = s.service_id) AS "usersWithAccess"`;
const NO_PERMISSIONS = '(SELECT NULL::bigint AS permissions) sp';

/**
 * `serviceUpdated` on the service's channel and `servicesUpdated` to every user with access.
 * The payload is the Service object once encoded (the original double-encodes it) and without
 * `permissions` and `accessKey`, which differ per subscriber: clients keep the values they hold.
 */
export async function publishServiceChanged(
  ctx: ServerContext,
  serviceId: string,
  exceptSocketId?: string,
): Promise<void> {
  const { rows } = await ctx.db.query<Changed>(
    `SELECT ${CHANGED_COLUMNS} FROM services s CROSS JOIN ${NO_PERMISSIONS} WHERE s.service_id = $1`,
    [serviceId],
    'service-changed',
  );
  await publishChanged(ctx, rows[0], exceptSocketId);
}

/**
 * Sets columns of a service (`set`, e.g. `current_players = $2`, $1 being the service) and
 * publishes it as publishServiceChanged does, the row read back by the same statement: the game's
 * status arrives every few seconds from every server. `when` (SQL on `s`) skips a write that would
 * change nothing, and its notices with it.
 */
export async function updateService(
  ctx: ServerContext,
  serviceId: string,
  set: string,
  params: unknown[],
  opts: { when?: string; name?: string } = {},
): Promise<void> {
  const { rows } = await ctx.db.query<Changed>(
    `UPDATE services s SET ${set} FROM ${NO_PERMISSIONS}
      WHERE s.service_id = $1 AND ${opts.when ?? 'true'} RETURNING ${CHANGED_COLUMNS}`,
    [serviceId, ...params],
    opts.name,
  );
  await publishChanged(ctx, rows[0]);
}

async function publishChanged(ctx: ServerContext, row: Changed | undefined, exceptSocketId?: string) {
  if (!row) return;
  const {
    permissions: _perUser,
    accessKey: _editorsOnly,
    rconHost: _editorsHost,
    rconPort: _editorsPort,
    usersWithAccess: users,
    ...payload
  } = row;
  await publishAll(ctx.publisher, [
    () =>
      ctx.publisher.publish(
        [channelFor('services', row.serviceId)],
        RealtimeEvent.serviceUpdated,
        payload,
        exceptSocketId,
      ),
    () => publishToUsers(ctx, users, RealtimeEvent.servicesUpdated, exceptSocketId),
  ]);
}

export async function publishToUsers(
  ctx: ServerContext,
  userIds: string[],
  event: string,
  exceptSocketId?: string,
): Promise<void> {
  if (userIds.length === 0) return;
  await ctx.publisher.publish(userIds.map(userChannel), event, '', exceptSocketId);
}
