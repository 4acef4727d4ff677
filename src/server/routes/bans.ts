// /sentinel/groupBans and /sentinel/serviceBans (SENTINEL-API §3.14). Quirks fixed: the `expired`
// filter works, a single GET/PATCH/DELETE answers 404 for a ban the caller cannot see, server
// bans need ControlServices rather than ownership, and an unknown EOS id is refused rather than
// banned under a made-up name (imports still record unseen players; see banList.ts).

import { randomUUID } from 'node:crypto';
import { channelFor } from '../../domain/api.ts';
import { BANS_UPDATED, BanMsg } from '../../domain/bans.ts';
import { UUID } from '../../domain/constants.ts';
import { EPOCH_MAX, isEpochSeconds } from '../../domain/limits.ts';
import { Msg } from '../../domain/messages.ts';
import { hasAll } from '../../domain/permissions.ts';
import { noteRow } from '../activity/trail.ts';
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
  getBans,
  SERVICE_BANS,
  servicesReached,
  tellServices,
} from '../model/ban.ts';
import { isObject, objectsOf, requireProperties, rounds } from '../model/bulkBody.ts';
import { banTargetPlayers, banTargetText, banTargetUnknown } from '../model/player.ts';

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

/** The owner an object names; '' for anything but a string (String() of `{ toString: '' }` throws). */
const ownerOf = (o: Record<string, unknown>, k: BanClass) => {
  const v = o[k.ownerProp];
  return typeof v === 'string' ? v.toLowerCase() : '';
};

/** The trail of a ban's owner shows the write, and a group's servers' trails too: it reaches them. */
async function noteOwner(tx: Queryable, k: BanClass, ownerId: string): Promise<void> {
  noteRow({ [k.ownerColumn]: ownerId });
  if (k.ownerColumn === 'group_id')
    for (const serviceId of await servicesReached(tx, k, ownerId)) noteRow({ service_id: serviceId });
}

async function bitsOn(tx: Queryable, k: BanClass, ownerId: string, userId: string): Promise<number | null> {
  if (!UUID.test(ownerId)) return null;
  await noteOwner(tx, k, ownerId);
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

  /** The stored bans of these ids and the caller's bits on their owners, in two queries. */
  async function bansAndBits(tx: Queryable, k: BanClass, ids: string[], owners: string[], caller: Caller) {
    const { rows } = await tx.query<{ id: string; owner: string; player_id: string }>(
      `SELECT ${k.idColumn} AS id, ${k.ownerColumn} AS owner, player_id FROM ${k.table}
        WHERE ${k.idColumn} = ANY($1::uuid[])`,
      [ids.filter((id) => UUID.test(id))],
    );
    const bans = new Map(rows.map((r) => [r.id, { owner: r.owner, player_id: r.player_id }]));
    const asked = [...new Set([...owners, ...rows.map((r) => r.owner)])].filter((o) => UUID.test(o));
    for (const owner of asked) await noteOwner(tx, k, owner);
    const bits = await tx.query<{ owner: string; permissions: number }>(
      `SELECT ${k.ownerColumn} AS owner, permissions FROM ${k.permissionView}
        WHERE ${k.ownerColumn} = ANY($1::uuid[]) AND user_id = $2`,
      [asked, caller.userId],
    );
    return { bans, bits: new Map(bits.rows.map((r) => [r.owner, r.permissions])) };
  }

  /**
   * A bulk write in a fixed number of statements (issue 11): the stored bans, bits, players and
   * duplicates read at once, each object then checked in the body's order as `create` and `update`
   * check one (the first refusal wins), one insert, one update per round, all in `tx`.
   */
  async function writeMany(tx: Queryable, k: BanClass, objects: Record<string, unknown>[], caller: Caller) {
    const named = objects.map((o) =>
      typeof o[k.idProp] === 'string' ? (o[k.idProp] as string).toLowerCase() : null,
    );
    const { bans, bits } = await bansAndBits(
      tx,
      k,
      named.filter((id): id is string => id !== null),
      objects.map((o) => ownerOf(o, k)),
      caller,
    );
    // Players and duplicates for every object that may be a create; the loop below tells which are.
    const targets = objects.flatMap((o) => {
      try {
        return [banTargetText(o.playerId)];
      } catch {
        return [];
      }
    });
    const players = await banTargetPlayers(tx, targets);
    const owners = objects.map((o) => ownerOf(o, k)).filter((o) => UUID.test(o));
    const { rows: stored } = await tx.query<{ id: string; owner: string; player_id: string }>(
      `SELECT ${k.idColumn} AS id, ${k.ownerColumn} AS owner, player_id FROM ${k.table}
        WHERE ${k.ownerColumn} = ANY($1::uuid[]) AND player_id = ANY($2::uuid[])`,
      [[...new Set(owners)], [...new Set(players.values())]],
    );
    const banOf = new Map(stored.map((r) => [`${r.owner} ${r.player_id}`, r.id]));

    const created: Change[] = [];
    const updated: Change[] = [];
    const inserts: {
      id: string;
      owner: string;
      player: string;
      expiration: number | null;
      comments: string;
    }[] = [];
    const edits: {
      id: string;
      comments: string | null;
      expiration: number | null;
      setExpiration: boolean;
    }[] = [];
    objects.forEach((obj, i) => {
      const id = named[i];
      const ban = id !== null && UUID.test(id) ? bans.get(id) : undefined;
      if (id !== null && ban) {
        const held = bits.get(ban.owner);
        if (held === undefined)
          throw new ApiException(404, 'The ban was not found.', 'notFound', { [k.idProp]: id });
        if (!hasAll(held, k.writeBits)) throw forbidden(obj);
        const comments = 'comments' in obj ? commentsOf(obj.comments) : null;
        const setExpiration = 'expiration' in obj;
        const expiration = setExpiration ? expirationOf(obj.expiration) : null;
        if (comments !== null || setExpiration) edits.push({ id, comments, expiration, setExpiration });
        updated.push({ playerId: ban.player_id, ownerId: ban.owner, id });
        return;
      }
      requireProperties(obj, [k.ownerProp, 'playerId', 'comments']);
      const ownerId = ownerOf(obj, k);
      const held = UUID.test(ownerId) ? bits.get(ownerId) : undefined;
      if (held === undefined || !hasAll(held, k.writeBits)) throw forbidden(obj);
      const comments = commentsOf(obj.comments);
      const expiration = expirationOf(obj.expiration);
      const text = banTargetText(obj.playerId);
      const playerId = players.get(text);
      if (playerId === undefined) throw banTargetUnknown(text);
      const dup = banOf.get(`${ownerId} ${playerId}`);
      if (dup)
        throw badRequest('duplicate', Msg.banDuplicate, {
          [k.ownerProp]: ownerId,
          playerId,
          [k.idProp]: dup,
        });
      const given =
        typeof obj[k.idProp] === 'string' && UUID.test(obj[k.idProp] as string) ? (id as string) : null;
      const made = given ?? randomUUID();
      inserts.push({ id: made, owner: ownerId, player: playerId, expiration, comments });
      bans.set(made, { owner: ownerId, player_id: playerId });
      banOf.set(`${ownerId} ${playerId}`, made);
      created.push({ playerId, ownerId, id: made });
    });
    if (inserts.length)
      await tx.query(
        `INSERT INTO ${k.table} (${k.idColumn}, ${k.ownerColumn}, player_id, issuer_id, expiration, comments)
         SELECT id, owner, player, $6, to_timestamp(expiration), comments
           FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::float8[], $5::text[])
             AS n(id, owner, player, expiration, comments)`,
        [
          inserts.map((n) => n.id),
          inserts.map((n) => n.owner),
          inserts.map((n) => n.player),
          inserts.map((n) => n.expiration),
          inserts.map((n) => n.comments),
          caller.userId,
        ],
      );
    for (const round of rounds(edits, (e) => e.id))
      await tx.query(
        `UPDATE ${k.table} b SET comments = coalesce(e.comments, b.comments),
                expiration = CASE WHEN e.set_expiration THEN to_timestamp(e.expiration) ELSE b.expiration END
           FROM unnest($1::uuid[], $2::text[], $3::float8[], $4::boolean[])
             AS e(id, comments, expiration, set_expiration)
          WHERE b.${k.idColumn} = e.id`,
        [
          round.map((e) => e.id),
          round.map((e) => e.comments),
          round.map((e) => e.expiration),
          round.map((e) => e.setExpiration),
        ],
      );
    return { created, updated };
  }

  /** A bulk delete in three statements; unknown ids are skipped, as the original does. */
  async function removeMany(tx: Queryable, k: BanClass, ids: string[], caller: Caller): Promise<Change[]> {
    const { bans, bits } = await bansAndBits(tx, k, ids, [], caller);
    const out: Change[] = [];
    for (const id of ids) {
      const ban = bans.get(id);
      // Unknown, or named twice: the first deleted it.
      if (!ban || out.some((x) => x.id === id)) continue;
      const held = bits.get(ban.owner);
      if (held === undefined)
        throw new ApiException(404, 'The ban was not found.', 'notFound', { [k.idProp]: id });
      if (!hasAll(held, k.writeBits)) throw forbidden({ [k.idProp]: id });
      out.push({ playerId: ban.player_id, ownerId: ban.owner, id });
    }
    if (out.length)
      await tx.query(`DELETE FROM ${k.table} WHERE ${k.idColumn} = ANY($1::uuid[])`, [out.map((x) => x.id)]);
    return out;
  }

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
      // The caller's flags on each player; the count reuses the parameters, so the where names it too.
      const me = p.add(caller.userId);
      return pageJson(
        c,
        await runList(
          db,
          { columns: banColumns(k, me), from: banFrom(k), where: [`${me}::uuid IS NOT NULL`] },
          plan,
          p,
        ),
      );
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
      const outcome = await db.transaction((tx) => writeMany(tx, k, objects, caller));
      await announce(k, [...outcome.created, ...outcome.updated], pusherSocketOf(c));
      const bans = await getBans(
        db,
        k,
        [...outcome.created, ...outcome.updated].map((x) => x.id),
      );
      const load = (changes: Change[]) => changes.map((x) => bans.get(x.id) ?? null);
      return json(c, { created: load(outcome.created), updated: load(outcome.updated) });
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
        .filter((id): id is string => typeof id === 'string' && UUID.test(id))
        .map((id) => id.toLowerCase());
      const changes = await db.transaction((tx) => removeMany(tx, k, ids, caller));
      await announce(k, changes, pusherSocketOf(c));
      return noContent(c);
    });
  }
}
