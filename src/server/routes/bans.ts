// /sentinel/groupBans and /sentinel/serviceBans (SENTINEL-API §3.14). Quirks fixed: the `expired`
// filter works, a single GET/PATCH/DELETE answers 404 for a ban the caller cannot see, server
// bans need ControlServices rather than ownership, and an unknown EOS id is refused rather than
// banned under a made-up name (imports still record unseen players; see banList.ts).

import { channelFor } from '../../domain/api.ts';
import { BANS_UPDATED, BanMsg } from '../../domain/bans.ts';
import { UUID } from '../../domain/constants.ts';
import { EPOCH_MAX, isEpochSeconds } from '../../domain/limits.ts';
import { Msg } from '../../domain/messages.ts';
import { hasAll } from '../../domain/permissions.ts';
import type { ServerContext } from '../context.ts';
import type { Queryable } from '../db/db.ts';
import type { Caller } from '../http/auth.ts';
import { readJson } from '../http/body.ts';
import { ApiException, badRequest, forbidden, objectNotFound, validation } from '../http/errors.ts';
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
import {
  type BanClass,
  banColumns,
  banFrom,
  GROUP_BANS,
  getBan,
  SERVICE_BANS,
  servicesReached,
  tellServices,
} from '../model/ban.ts';
import { isObject, objectsOf, requireProperties } from '../model/bulkBody.ts';
import { banTargetPlayer } from '../model/player.ts';

const READ = ['sentinel:read'];
const WRITE = ['sentinel:read', 'sentinel:write'];

const listSpec = (k: BanClass): ListSpec => ({
  id: { param: k.idProp, expr: `b.${k.idColumn}` },
  filters: {
    [k.ownerProp]: { kind: 'exact', expr: `b.${k.ownerColumn}`, type: 'uuid' },
    playerId: { kind: 'exact', expr: 'b.player_id', type: 'uuid' },
    issuerId: { kind: 'exact', expr: 'b.issuer_id', type: 'uuid' },
    playerName: { kind: 'ilike', exprs: ['p.name'] },
    issuerUsername: { kind: 'ilike', exprs: ['u.username'] },
    issuerUsernameFull: { kind: 'ilike', exprs: [`u.username || '#' || left(u.user_id::text, 8)`] },
    expired: { kind: 'bool', expr: '(b.expiration IS NOT NULL AND b.expiration <= now())' },
  },
  sorts: {
    playerName: 'lower(p.name)',
    expiration: `coalesce(b.expiration, 'infinity'::timestamptz)`,
    issuerUsername: 'lower(u.username)',
    issuerUsernameFull: 'lower(u.username)',
  },
  defaultSort: 'playerName',
  tiebreak: `b.${k.idColumn}`,
});

async function bitsOn(tx: Queryable, k: BanClass, ownerId: string, userId: string): Promise<number | null> {
  if (!UUID.test(ownerId)) return null;
  const { rows } = await tx.query<{ permissions: number }>(
    `SELECT permissions FROM ${k.permissionView} WHERE ${k.ownerColumn} = $1 AND user_id = $2`,
    [ownerId, userId],
  );
  return rows[0]?.permissions ?? null;
}

/** Epoch seconds or null; a past time would be a ban that never holds. */
function expirationOf(v: unknown): number | null {
  if (v === null || v === undefined) return null;
  if (!isEpochSeconds(v))
    throw validation(`expiration must be epoch seconds up to ${EPOCH_MAX} (the year 9999), or null.`, {
      field: 'expiration',
    });
  if (v <= Date.now() / 1000) throw validation(BanMsg.expiryPast, { field: 'expiration' });
  return Math.floor(v);
}

function commentsOf(v: unknown): string {
  if (typeof v !== 'string' || v.trim() === '')
    throw validation(BanMsg.commentsRequired, { field: 'comments' });
  return v.trim();
}

interface Change {
  playerId: string;
  ownerId: string;
  id: string;
}

export function registerBanRoutes(router: ApiRouter, ctx: ServerContext): void {
  const { db } = ctx;

  async function announce(k: BanClass, changes: Change[], socket?: string): Promise<void> {
    const byOwner = new Map<string, string[]>();
    for (const ch of changes) byOwner.set(ch.ownerId, [...(byOwner.get(ch.ownerId) ?? []), ch.playerId]);
    for (const [ownerId, players] of byOwner) {
      const services = await servicesReached(db, k, ownerId);
      await tellServices(ctx, players, services);
      const channels = services.map((s) => channelFor('services', s));
      if (k.ownerColumn === 'group_id') channels.push(channelFor('groups', ownerId));
      if (channels.length)
        await ctx.publisher.publish(channels, BANS_UPDATED, { [k.ownerProp]: ownerId }, socket);
    }
  }

  /** The ban with its owner, when the caller can see it; 404 otherwise. */
  async function visibleBan(tx: Queryable, k: BanClass, id: string, caller: Caller) {
    const { rows } = UUID.test(id)
      ? await tx.query<{ owner: string; player_id: string }>(
          `SELECT ${k.ownerColumn} AS owner, player_id FROM ${k.table} WHERE ${k.idColumn} = $1`,
          [id],
        )
      : { rows: [] };
    const ban = rows[0];
    const bits = ban ? await bitsOn(tx, k, ban.owner, caller.userId) : null;
    if (!ban || bits === null)
      throw new ApiException(404, 'The ban was not found.', 'notFound', { [k.idProp]: id });
    return { ...ban, bits };
  }

  async function create(
    tx: Queryable,
    k: BanClass,
    obj: Record<string, unknown>,
    caller: Caller,
  ): Promise<Change> {
    requireProperties(obj, [k.ownerProp, 'playerId', 'comments']);
    const ownerId = String(obj[k.ownerProp]).toLowerCase();
    const bits = await bitsOn(tx, k, ownerId, caller.userId);
    if (bits === null || !hasAll(bits, k.writeBits)) throw forbidden(obj);
    const comments = commentsOf(obj.comments);
    const expiration = expirationOf(obj.expiration);
    const playerId = await banTargetPlayer(tx, obj.playerId);
    const dup = await tx.query<{ id: string }>(
      `SELECT ${k.idColumn} AS id FROM ${k.table} WHERE ${k.ownerColumn} = $1 AND player_id = $2`,
      [ownerId, playerId],
    );
    if (dup.rows[0])
      throw badRequest('duplicate', Msg.banDuplicate, {
        [k.ownerProp]: ownerId,
        playerId,
        [k.idProp]: dup.rows[0].id,
      });
    const given =
      typeof obj[k.idProp] === 'string' && UUID.test(obj[k.idProp] as string) ? obj[k.idProp] : null;
    const { rows } = await tx.query<{ id: string }>(
      `INSERT INTO ${k.table} (${k.idColumn}, ${k.ownerColumn}, player_id, issuer_id, expiration, comments)
       VALUES (coalesce($1::uuid, gen_random_uuid()), $2, $3, $4, to_timestamp($5), $6) RETURNING ${k.idColumn} AS id`,
      [given, ownerId, playerId, caller.userId, expiration, comments],
    );
    return { playerId, ownerId, id: rows[0].id };
  }

  async function update(
    tx: Queryable,
    k: BanClass,
    id: string,
    obj: Record<string, unknown>,
    caller: Caller,
  ): Promise<Change> {
    const ban = await visibleBan(tx, k, id, caller);
    if (!hasAll(ban.bits, k.writeBits)) throw forbidden(obj);
    const sets: string[] = [];
    const values: unknown[] = [id];
    if ('comments' in obj) {
      values.push(commentsOf(obj.comments));
      sets.push(`comments = $${values.length}`);
    }
    if ('expiration' in obj) {
      values.push(expirationOf(obj.expiration));
      sets.push(`expiration = to_timestamp($${values.length})`);
    }
    if (sets.length)
      await tx.query(`UPDATE ${k.table} SET ${sets.join(', ')} WHERE ${k.idColumn} = $1`, values);
    return { playerId: ban.player_id, ownerId: ban.owner, id };
  }

  async function remove(tx: Queryable, k: BanClass, id: string, caller: Caller): Promise<Change> {
    const ban = await visibleBan(tx, k, id, caller);
    if (!hasAll(ban.bits, k.writeBits)) throw forbidden({ [k.idProp]: id });
    await tx.query(`DELETE FROM ${k.table} WHERE ${k.idColumn} = $1`, [id]);
    return { playerId: ban.player_id, ownerId: ban.owner, id };
  }

  const load = (k: BanClass, ids: string[]) => Promise.all(ids.map((id) => getBan(db, k, id)));

  for (const k of [GROUP_BANS, SERVICE_BANS]) {
    const path = `/sentinel/${k.path}`;
    const spec = listSpec(k);

    router.authed('GET', path, READ, async (c, caller) => {
      const q = new URL(c.req.url).searchParams;
      const owner = q.get(k.ownerProp) ?? '';
      if ((await bitsOn(db, k, owner, caller.userId)) === null)
        throw forbidden(`Filter by a ${k.ownerProp} you have access to.`);
      const p = new Params();
      const plan = planList(q, spec, p);
      return pageJson(c, await runList(db, { columns: banColumns(k), from: banFrom(k), where: [] }, plan, p));
    });

    router.authed('GET', `${path}/:id`, READ, async (c, caller) => {
      const id = param(c, 'id');
      await visibleBan(db, k, id, caller).catch(() => {
        throw objectNotFound({ [k.idProp]: id });
      });
      return json(c, await getBan(db, k, id));
    });

    const bulk = async (c: Ctx, caller: Caller) => {
      const objects = objectsOf(await readJson(c));
      const outcome = await db.transaction(async (tx) => {
        const created: Change[] = [];
        const updated: Change[] = [];
        for (const obj of objects) {
          const id = typeof obj[k.idProp] === 'string' ? (obj[k.idProp] as string).toLowerCase() : null;
          const exists =
            id !== null &&
            UUID.test(id) &&
            (await tx.query(`SELECT 1 FROM ${k.table} WHERE ${k.idColumn} = $1`, [id])).rows.length > 0;
          if (exists) updated.push(await update(tx, k, id, obj, caller));
          else created.push(await create(tx, k, obj, caller));
        }
        return { created, updated };
      });
      await announce(k, [...outcome.created, ...outcome.updated], pusherSocketOf(c));
      return json(c, {
        created: await load(
          k,
          outcome.created.map((x) => x.id),
        ),
        updated: await load(
          k,
          outcome.updated.map((x) => x.id),
        ),
      });
    };
    router.authed('POST', path, WRITE, bulk);
    router.authed('PATCH', path, WRITE, bulk);

    router.authed('PATCH', `${path}/:id`, WRITE, async (c, caller) => {
      const body = await readJson(c);
      if (!isObject(body)) throw badRequest('notObjectOrArray', 'Send an object.');
      const id = param(c, 'id').toLowerCase();
      const change = await db.transaction((tx) => update(tx, k, id, body, caller));
      await announce(k, [change], pusherSocketOf(c));
      return json(c, await getBan(db, k, id));
    });

    router.authed('DELETE', `${path}/:id`, WRITE, async (c, caller) => {
      const id = param(c, 'id').toLowerCase();
      const change = await db.transaction((tx) => remove(tx, k, id, caller));
      await announce(k, [change], pusherSocketOf(c));
      return noContent(c);
    });

    router.authed('DELETE', path, WRITE, async (c, caller) => {
      const ids = objectsOf(await readJson(c))
        .map((o) => o[k.idProp])
        .filter((id): id is string => typeof id === 'string' && UUID.test(id));
      const changes = await db.transaction(async (tx) => {
        const out: Change[] = [];
        for (const id of ids) {
          // Unknown ids are skipped, as the original does for bulk deletes.
          const seen = await tx.query(`SELECT 1 FROM ${k.table} WHERE ${k.idColumn} = $1`, [
            id.toLowerCase(),
          ]);
          if (seen.rows.length) out.push(await remove(tx, k, id.toLowerCase(), caller));
        }
        return out;
      });
      await announce(k, changes, pusherSocketOf(c));
      return noContent(c);
    });
  }
}
