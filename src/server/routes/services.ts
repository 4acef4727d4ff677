// /sentinel/services (SENTINEL-API §3.1). Fixes two quirks: a single GET checks the caller's
// permission (404 when they cannot see it), and updates need EditServices (32), not bit 4.

import { isIP } from 'node:net';
import {
  CONNECTION_KINDS,
  GAME_KINDS,
  RealtimeEvent,
  type SERVICE_EDITABLE,
  type ServiceHistory,
} from '../../domain/api.ts';
import { UUID } from '../../domain/constants.ts';
import { API_COLORS } from '../../domain/enums.ts';
import { isEpochSeconds } from '../../domain/limits.ts';
import { ALL_PERMISSIONS, hasAll, Perm } from '../../domain/permissions.ts';
import { POPULATION_MAX_POINTS, POPULATION_MIN_STEP } from '../../domain/population.ts';
import { serverLanguages, serverNickname } from '../../domain/validate.ts';
import type { ServerConfig, ServerContext } from '../context.ts';
import { hashToken, randomToken, seal } from '../crypto.ts';
import type { Queryable } from '../db/db.ts';
import { serviceRetentionDays } from '../db/retention.ts';
import { readJson } from '../http/body.ts';
import { badRequest, forbidden, objectNotFound, validation } from '../http/errors.ts';
import { type ListSpec, Params, planList, runList } from '../http/listQuery.ts';
import {
  type ApiRouter,
  type Ctx,
  json,
  noContent,
  pageJson,
  param,
  pusherSocketOf,
} from '../http/router.ts';
import { isObject, objectsOf } from '../model/bulkBody.ts';
import { populationOf } from '../model/population.ts';
import {
  getService,
  publishServiceChanged,
  publishToUsers,
  SERVICE_COLUMNS,
  usersWithAccess,
  visibleServicesFrom,
} from '../model/service.ts';
import { outboundRefusal } from '../net/outbound.ts';

const READ = ['sentinel:read'];
const WRITE = ['sentinel:read', 'sentinel:write'];

const NAME_COLUMNS = ['s.name', 's.nickname', 's.mini_name'];

const SERVICE_LIST: ListSpec = {
  id: { param: 'serviceId', expr: 's.service_id' },
  filters: {
    gameId: { kind: 'exact', expr: 's.game_id' },
    color: { kind: 'exact', expr: 's.color' },
    platform: { kind: 'exact', expr: 's.platform' },
    accessKey: { kind: 'custom', sql: (v, p) => `s.access_key_hash = ${p.add(hashToken(v))}` },
    searchableName: { kind: 'search', exprs: NAME_COLUMNS },
    displayName: { kind: 'search', exprs: ['coalesce(s.nickname, s.name)'] },
    miniDisplayName: { kind: 'search', exprs: ['coalesce(s.mini_name, s.nickname, s.name)'] },
    nickname: { kind: 'search', exprs: ['s.nickname'] },
    miniName: { kind: 'search', exprs: ['s.mini_name'] },
    name: { kind: 'search', exprs: ['s.name'] },
    isConnected: { kind: 'bool', expr: 's.is_connected' },
    groupId: {
      kind: 'custom',
      sql: (v, p) =>
        UUID.test(v)
          ? `s.service_id IN (SELECT service_id FROM group_services WHERE group_id = ${p.add(v)}::uuid)`
          : 'false',
    },
  },
  sorts: {
    displayName: 'lower(coalesce(s.nickname, s.name))',
    nickname: 'lower(s.nickname)',
    name: 'lower(s.name)',
    gameId: 's.game_id',
    miniName: 'lower(s.mini_name)',
    miniDisplayName: 'lower(coalesce(s.mini_name, s.nickname, s.name))',
  },
  defaultSort: 'displayName',
  tiebreak: 's.service_id',
};

type Patch = Partial<Record<(typeof SERVICE_EDITABLE)[number], unknown>>;

/** Column assignments for the editable fields present in body, validated with the spec's rules. */
function editableAssignments(body: Record<string, unknown>): [column: string, value: unknown][] {
  const out: [string, unknown][] = [];
  const patch = body as Patch;
  for (const field of ['nickname', 'miniName'] as const) {
    if (!(field in patch)) continue;
    const v = patch[field];
    if (v !== null && typeof v !== 'string') throw validation(`${field} must be a string or null.`);
    const value = typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
    const problem = serverNickname(value);
    if (problem) throw validation(problem, { field });
    out.push([field === 'nickname' ? 'nickname' : 'mini_name', value]);
  }
  if ('color' in patch) {
    if (!(API_COLORS as readonly unknown[]).includes(patch.color))
      throw validation(`color must be one of ${API_COLORS.join(', ')}.`, { field: 'color' });
    out.push(['color', patch.color]);
  }
  if ('gameSpecific' in patch) {
    if (!isObject(patch.gameSpecific)) throw validation('gameSpecific must be an object.');
    out.push(['game_specific', JSON.stringify(patch.gameSpecific)]);
  }
  if ('languages' in patch) {
    const langs = patch.languages;
    if (!Array.isArray(langs) || !langs.every((l) => typeof l === 'string'))
      throw validation('languages must be a list of language codes.', { field: 'languages' });
    const problem = serverLanguages(langs);
    if (problem) throw validation(problem, { field: 'languages' });
    out.push(['languages', langs]);
  }
  for (const [field, column] of [
    ['allowClusterIdChange', 'allow_cluster_id_change'],
    ['kickUntrackedPlayers', 'kick_untracked_players'],
  ] as const) {
    if (!(field in patch)) continue;
    if (typeof patch[field] !== 'boolean') throw validation(`${field} must be true or false.`, { field });
    out.push([column, patch[field]]);
  }
  return out;
}

const RCON_HOST = /^[A-Za-z0-9.:[\]-]{1,253}$/;
const RCON_PASSWORD_MAX = 128;

/** What settling a server's connection needs of the configuration. */
type ConnectionConfig = Pick<ServerConfig, 'rconKey' | 'outboundAllow'>;

/**
 * How the server connects (docs/servers-connecting.md). The password arrives in clear, is sealed
 * with the configured key at once, and is never read back. Changing any of them clears the last
 * RCON error: the connector tries the new settings at its next lease renewal.
 */
function connectionAssignments(body: Record<string, unknown>, keys: ConnectionConfig): [string, unknown][] {
  const out: [string, unknown][] = [];
  if ('connectionKind' in body) {
    if (!(CONNECTION_KINDS as readonly unknown[]).includes(body.connectionKind))
      throw validation(`connectionKind must be one of ${CONNECTION_KINDS.join(', ')}.`, {
        field: 'connectionKind',
      });
    out.push(['connection_kind', body.connectionKind]);
  }
  if ('rconHost' in body) {
    const host = typeof body.rconHost === 'string' ? body.rconHost.trim() : null;
    if (!host || !RCON_HOST.test(host))
      throw validation('rconHost must be a host name or an IP address.', { field: 'rconHost' });
    // An address is judged now; a name, each time it is connected to (net/outbound.ts).
    const refused = isIP(host) ? outboundRefusal(host, keys.outboundAllow) : null;
    if (refused)
      throw validation(
        `rconHost ${host} is ${refused}, which this server does not connect to; the operator of this installation can allow it.`,
        { field: 'rconHost' },
      );
    out.push(['rcon_host', host]);
  }
  if ('rconPort' in body) {
    const port = body.rconPort;
    if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535)
      throw validation('rconPort must be a whole number from 1 to 65535.', { field: 'rconPort' });
    out.push(['rcon_port', port]);
  }
  if ('rconPassword' in body) {
    const pw = body.rconPassword;
    if (typeof pw !== 'string' || pw === '' || pw.length > RCON_PASSWORD_MAX || /[\0\r\n]/.test(pw))
      throw validation(`rconPassword must be 1 to ${RCON_PASSWORD_MAX} characters on one line.`, {
        field: 'rconPassword',
      });
    out.push(['rcon_password_sealed', seal(pw, keys.rconKey)]);
  }
  if (out.length > 0) out.push(['rcon_error', null]);
  // Which game it runs changes which ids go out, not whether it connects: the error stays.
  if ('rconGame' in body) {
    if (body.rconGame !== null && !(GAME_KINDS as readonly unknown[]).includes(body.rconGame))
      throw validation(`rconGame must be one of ${GAME_KINDS.join(', ')}, or null to detect it.`, {
        field: 'rconGame',
      });
    out.push(['game_kind_set', body.rconGame]);
  }
  return out;
}

/** A submitted object as a refusal's `details` echo it (SENTINEL-API §2.2), the password left out. */
function echoed(body: Record<string, unknown>): Record<string, unknown> {
  return 'rconPassword' in body ? { ...body, rconPassword: '(write-only)' } : body;
}

/** An RCON server needs somewhere to connect to and a password, whichever request gave them. */
async function requireRconSettings(tx: Queryable, serviceId: string): Promise<void> {
  const { rows } = await tx.query<{ kind: string; host: string | null; port: number | null; pw: boolean }>(
    `SELECT connection_kind AS kind, rcon_host AS host, rcon_port AS port, rcon_password_sealed IS NOT NULL AS pw
       FROM services WHERE service_id = $1`,
    [serviceId],
  );
  const r = rows[0];
  if (r?.kind !== 'rcon') return;
  const missing = [!r.host && 'rconHost', !r.port && 'rconPort', !r.pw && 'rconPassword'].filter(
    (f): f is string => typeof f === 'string',
  );
  if (missing.length > 0)
    throw validation(`An RCON server needs ${missing.join(', ')}.`, { field: missing[0], missing });
}

const CASTS: Record<string, string> = { game_specific: '::jsonb', languages: '::text[]' };

async function updateService(
  tx: Queryable,
  serviceId: string,
  body: Record<string, unknown>,
  keys: ConnectionConfig,
): Promise<void> {
  const sets = [...editableAssignments(body), ...connectionAssignments(body, keys)];
  if (sets.length === 0) return;
  const p = new Params();
  const assignments = sets.map(([col, v]) => `${col} = ${p.add(v)}${CASTS[col] ?? ''}`);
  await tx.query(
    `UPDATE services SET ${assignments.join(', ')} WHERE service_id = ${p.add(serviceId)}`,
    p.values,
  );
  await requireRconSettings(tx, serviceId);
}

async function permissionsOn(tx: Queryable, serviceId: string, userId: string): Promise<number | null> {
  const { rows } = await tx.query<{ permissions: number }>(
    'SELECT permissions FROM service_permissions WHERE service_id = $1 AND user_id = $2',
    [serviceId, userId],
  );
  return rows[0]?.permissions ?? null;
}

/** Refuses unless the caller may edit the service: 404 without membership, 403 (with `details`) without edit servers. */
async function requireEditable(
  tx: Queryable,
  serviceId: string,
  userId: string,
  details: unknown,
): Promise<void> {
  const bits = UUID.test(serviceId) ? await permissionsOn(tx, serviceId, userId) : null;
  if (bits === null) throw objectNotFound({ serviceId });
  if (!hasAll(bits, Perm.EditServices)) throw forbidden(details);
}

async function serviceLimit(tx: Queryable, userId: string): Promise<{ used: number; allowed: number }> {
  const { rows } = await tx.query<{ used: number; allowed: number }>(
    `SELECT (SELECT count(*) FROM services WHERE user_id = $1 AND NOT deleted) AS used,
            (SELECT coalesce(sum(units_allowed), 0) FROM subscriptions
              WHERE user_id = $1 AND product_game_id = 'Sentinel' AND expiration > now()) AS allowed`,
    [userId],
  );
  return rows[0];
}

const GAME_IDS = ['Ark', 'ArkSA'];
const PLATFORMS = ['PC', 'Xbox', 'PlayStation', 'Switch', 'Universal'];

async function createService(
  tx: Queryable,
  userId: string,
  body: Record<string, unknown>,
  keys: ConnectionConfig,
): Promise<string> {
  const missing = ['gameId', 'name', 'platform', 'languages'].filter((k) => body[k] === undefined);
  if (missing.length > 0) {
    const list =
      missing.length === 1 ? missing[0] : `${missing.slice(0, -1).join(', ')} and ${missing.at(-1)}`;
    throw badRequest(
      'missingProperties',
      `Missing ${missing.length === 1 ? 'property' : 'properties'} ${list}.`,
      {
        missing,
      },
    );
  }
  if (!GAME_IDS.includes(body.gameId as string))
    throw validation(`gameId must be one of ${GAME_IDS.join(', ')}.`);
  if (!PLATFORMS.includes(body.platform as string))
    throw validation(`platform must be one of ${PLATFORMS.join(', ')}.`);
  if (typeof body.name !== 'string' || body.name.trim() === '') throw validation('name must not be empty.');
  const limit = await serviceLimit(tx, userId);
  if (limit.used >= limit.allowed)
    throw badRequest('tooManyResources', 'Your subscription does not allow more servers.', limit);

  const accessKey = randomToken();
  const id = typeof body.serviceId === 'string' ? body.serviceId : null;
  const { rows } = await tx.query<{ service_id: string }>(
    `INSERT INTO services (service_id, user_id, game_id, name, platform, access_key, access_key_hash)
     VALUES (coalesce($1::uuid, gen_random_uuid()), $2, $3, $4, $5, $6, $7) RETURNING service_id`,
    [id, userId, body.gameId, body.name.trim(), body.platform, accessKey, hashToken(accessKey)],
  );
  const serviceId = rows[0].service_id;
  await updateService(tx, serviceId, body, keys);
  return serviceId;
}

export function registerServiceRoutes(router: ApiRouter, ctx: ServerContext): void {
  const { db } = ctx;

  router.authed('GET', '/sentinel/services', READ, async (c, caller) => {
    const p = new Params();
    const user = p.add(caller.userId);
    const plan = planList(new URL(c.req.url).searchParams, SERVICE_LIST, p);
    const page = await runList(
      db,
      { columns: SERVICE_COLUMNS, from: visibleServicesFrom(`${user}::uuid`), where: ['NOT s.deleted'] },
      plan,
      p,
    );
    return pageJson(c, page);
  });

  router.authed('GET', '/sentinel/services/:serviceId', READ, async (c, caller) => {
    const id = param(c, 'serviceId');
    const service = UUID.test(id) ? await getService(db, id, caller.userId) : null;
    if (!service) throw objectNotFound({ serviceId: id });
    return json(c, service);
  });

  // How far back the server's history goes (issue 32): its owner's plan's days, or the operator's.
  router.authed('GET', '/sentinel/services/:serviceId/history', READ, async (c, caller) => {
    const id = param(c, 'serviceId');
    const service = UUID.test(id) ? await getService(db, id, caller.userId) : null;
    if (!service) throw objectNotFound({ serviceId: id });
    const days = await serviceRetentionDays(db, id, ctx.config.retention);
    return json(c, {
      serviceId: id,
      days,
      since: Math.floor(Date.now() / 1000) - days * 86_400,
    } satisfies ServiceHistory);
  });

  // Players on the server per step, from its sessions (docs/api.md "Population").
  router.authed('GET', '/sentinel/services/:serviceId/population', READ, async (c, caller) => {
    const id = param(c, 'serviceId');
    const service = UUID.test(id) ? await getService(db, id, caller.userId) : null;
    if (!service) throw objectNotFound({ serviceId: id });
    const q = new URL(c.req.url).searchParams;
    const now = Math.floor(Date.now() / 1000);
    const step = Number(q.get('step') ?? 300);
    if (!Number.isInteger(step) || step < POPULATION_MIN_STEP)
      throw validation(`step must be a whole number of seconds, at least ${POPULATION_MIN_STEP}.`, {
        field: 'step',
      });
    const asked = Number(q.get('since') ?? now - 86_400);
    if (!isEpochSeconds(asked) || asked >= now)
      throw validation('since must be epoch seconds before now.', { field: 'since' });
    // Nothing older than the server's history is kept: a chart starts where it does.
    const kept = now - (await serviceRetentionDays(db, id, ctx.config.retention)) * 86_400;
    const since = Math.max(asked, kept);
    if ((now - since) / step > POPULATION_MAX_POINTS)
      throw validation(`That step is too small for the span: at most ${POPULATION_MAX_POINTS} points.`, {
        field: 'step',
      });
    return json(c, await populationOf(db, id, since, now, step));
  });

  router.authed('PATCH', '/sentinel/services/:serviceId', WRITE, async (c, caller) => {
    const id = param(c, 'serviceId');
    const body = await readJson(c);
    if (!isObject(body)) throw badRequest('notObjectOrArray', 'Send an object.');
    await db.transaction(async (tx) => {
      await requireEditable(tx, id, caller.userId, echoed(body));
      await updateService(tx, id, body, ctx.config);
    });
    await publishServiceChanged(ctx, id, pusherSocketOf(c));
    return json(c, await getService(db, id, caller.userId));
  });

  // A new key closes the link that used the old one: whoever copied it can no longer act as the
  // game server (docs/api.md "Access keys").
  router.authed('POST', '/sentinel/services/:serviceId/accessKey', WRITE, async (c, caller) => {
    const id = param(c, 'serviceId');
    await db.transaction(async (tx) => {
      await requireEditable(tx, id, caller.userId, { serviceId: id });
      const accessKey = randomToken();
      await tx.query('UPDATE services SET access_key = $2, access_key_hash = $3 WHERE service_id = $1', [
        id,
        accessKey,
        hashToken(accessKey),
      ]);
    });
    ctx.links.kick(id, 'keyChanged');
    await publishServiceChanged(ctx, id, pusherSocketOf(c));
    return json(c, await getService(db, id, caller.userId));
  });

  async function bulkWrite(c: Ctx, userId: string) {
    const objects = objectsOf(await readJson(c));
    const outcome = await db.transaction(async (tx) => {
      const created: string[] = [];
      const updated: string[] = [];
      for (const obj of objects) {
        const id = typeof obj.serviceId === 'string' ? obj.serviceId : null;
        if (id !== null && !UUID.test(id)) throw validation('serviceId must be a UUID.', obj);
        const exists =
          id !== null &&
          (await tx.query('SELECT 1 FROM services WHERE service_id = $1 AND NOT deleted', [id])).rows.length >
            0;
        if (!exists) {
          created.push(await createService(tx, userId, obj, ctx.config));
          continue;
        }
        const bits = await permissionsOn(tx, id, userId);
        if (bits === null || !hasAll(bits, Perm.EditServices)) throw forbidden(echoed(obj));
        await updateService(tx, id, obj, ctx.config);
        updated.push(id);
      }
      return { created, updated };
    });
    const socket = pusherSocketOf(c);
    for (const id of [...outcome.created, ...outcome.updated]) await publishServiceChanged(ctx, id, socket);
    if (outcome.created.length > 0) await publishToUsers(ctx, [userId], RealtimeEvent.userUpdated, socket);
    const load = (ids: string[]) => Promise.all(ids.map((id) => getService(db, id, userId)));
    return json(c, { created: await load(outcome.created), updated: await load(outcome.updated) });
  }

  router.authed('POST', '/sentinel/services', WRITE, (c, caller) => bulkWrite(c, caller.userId));
  router.authed('PATCH', '/sentinel/services', WRITE, (c, caller) => bulkWrite(c, caller.userId));

  /** Soft delete, owner only: deleting someone else's server through a group is not a group right. */
  async function deleteServices(ids: string[], userId: string, socket?: string): Promise<void> {
    const affected = new Map<string, string[]>();
    await db.transaction(async (tx) => {
      for (const id of ids) {
        const bits = await permissionsOn(tx, id, userId);
        if (bits === null) continue;
        if (bits !== ALL_PERMISSIONS) throw forbidden({ serviceId: id });
        affected.set(id, await usersWithAccess(tx, id));
        await tx.query('UPDATE services SET deleted = true, is_connected = false WHERE service_id = $1', [
          id,
        ]);
      }
    });
    for (const [id, users] of affected) {
      ctx.links.kick(id, 'deleted');
      ctx.accessNarrowed();
      await publishToUsers(ctx, users, RealtimeEvent.servicesUpdated, socket);
      await publishToUsers(ctx, users, RealtimeEvent.userUpdated, socket);
    }
  }

  router.authed('DELETE', '/sentinel/services/:serviceId', WRITE, async (c, caller) => {
    const id = param(c, 'serviceId');
    if (UUID.test(id)) await deleteServices([id], caller.userId, pusherSocketOf(c));
    return noContent(c);
  });

  router.authed('DELETE', '/sentinel/services', WRITE, async (c, caller) => {
    const ids = objectsOf(await readJson(c))
      .map((o) => o.serviceId)
      .filter((id): id is string => typeof id === 'string' && UUID.test(id));
    await deleteServices(ids, caller.userId, pusherSocketOf(c));
    return noContent(c);
  });
}
