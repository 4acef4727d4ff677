// /sentinel/groupWatchlist (the alerts issue, src/domain/flags.ts): the players a group watches.
// Its members read it; those who may manage the group's bans change it. To anyone else a group's
// watchlist, and each of its entries, answers as one that does not exist.

import { randomUUID } from 'node:crypto';
import { UUID } from '../../domain/constants.ts';
import { FlagMsg, WATCHLIST_MAX, watchReason } from '../../domain/flags.ts';
import { hasAll, Perm } from '../../domain/permissions.ts';
import { noteRow } from '../activity/trail.ts';
import type { ServerContext } from '../context.ts';
import type { Queryable } from '../db/db.ts';
import type { Caller } from '../http/auth.ts';
import { readJson } from '../http/body.ts';
import { badRequest, forbidden, objectNotFound, validation } from '../http/errors.ts';
import { type ListSpec, Params, planList, runList } from '../http/listQuery.ts';
import { type ApiRouter, json, pageJson, param } from '../http/router.ts';
import { isObject, requireProperties } from '../model/bulkBody.ts';
import { bitsOn } from '../model/permissions.ts';
import { PLAYER_NAME } from '../model/player.ts';
import { epoch } from '../model/service.ts';

const READ = ['sentinel:read'];
const WRITE = ['sentinel:read', 'sentinel:write'];

const WATCH_COLUMNS = `
  w.watch_id AS "watchId", w.group_id AS "groupId", w.player_id AS "playerId",
  ${PLAYER_NAME} AS "playerName", w.reason,
  CASE WHEN u.user_id IS NULL THEN NULL ELSE u.username || '#' || left(u.user_id::text, 8) END AS "addedBy",
  ${epoch('w.date_added')} AS "dateAdded"`;
const WATCH_FROM = `group_watchlist w JOIN players p ON p.player_id = w.player_id
  LEFT JOIN users u ON u.user_id = w.added_by`;

const WATCH_LIST: ListSpec = {
  id: { param: 'watchId', expr: 'w.watch_id' },
  filters: {
    groupId: { kind: 'exact', expr: 'w.group_id', type: 'uuid' },
    playerId: { kind: 'exact', expr: 'w.player_id', type: 'uuid' },
  },
  sorts: { playerName: 'lower(p.name)', dateAdded: 'w.date_added' },
  defaultSort: 'playerName',
  tiebreak: 'w.watch_id',
};

/** The caller's bits on the group, and the group's trail shows the write; null: not theirs to see. */
async function bitsOnGroup(q: Queryable, groupId: string, caller: Caller): Promise<number | null> {
  const bits = await bitsOn(q, 'group', groupId, caller.userId);
  if (bits !== null) noteRow({ group_id: groupId });
  return bits;
}

export function registerGroupWatchlistRoutes(router: ApiRouter, ctx: ServerContext): void {
  const { db } = ctx;

  router.authed('GET', '/sentinel/groupWatchlist', READ, async (c, caller) => {
    const q = new URL(c.req.url).searchParams;
    const groupId = q.get('groupId') ?? '';
    if ((await bitsOn(db, 'group', groupId, caller.userId)) === null)
      throw forbidden('Filter by a groupId you have access to.');
    const p = new Params();
    const plan = planList(q, WATCH_LIST, p);
    // The group checked is the one listed, whatever else the query's filters say.
    const visible = `w.group_id = ${p.add(groupId)}::uuid`;
    return pageJson(
      c,
      await runList(db, { columns: WATCH_COLUMNS, from: WATCH_FROM, where: [visible] }, plan, p),
    );
  });

  /** Adds a player to the group's watchlist, or changes why they are on it. */
  router.authed('POST', '/sentinel/groupWatchlist', WRITE, async (c, caller) => {
    const body = await readJson(c);
    if (!isObject(body)) throw badRequest('notObjectOrArray', 'Send an object.');
    requireProperties(body, ['groupId', 'playerId', 'reason']);
    const reason = typeof body.reason === 'string' ? body.reason : '';
    const problem = watchReason(reason);
    if (problem) throw validation(problem, { field: 'reason' });
    const { groupId, playerId } = body;
    if (typeof groupId !== 'string' || typeof playerId !== 'string' || !UUID.test(playerId))
      throw badRequest('notFound', 'The player was not found.', { playerId });
    const id = await db.transaction(async (tx) => {
      const bits = await bitsOnGroup(tx, groupId, caller);
      if (bits === null || !hasAll(bits, Perm.ManageBans)) throw forbidden(body);
      // One group's writes in turn: the count below is then what this write adds to.
      await tx.query('SELECT pg_advisory_xact_lock(4703, hashtext($1))', [groupId]);
      const { rows: player } = await tx.query('SELECT 1 FROM players WHERE player_id = $1', [playerId]);
      if (!player[0]) throw badRequest('notFound', 'The player was not found.', { playerId });
      const { rows } = await tx.query<{ id: string }>(
        `INSERT INTO group_watchlist (watch_id, group_id, player_id, reason, added_by)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (group_id, player_id) DO UPDATE SET reason = excluded.reason
         RETURNING watch_id::text AS id`,
        [randomUUID(), groupId, playerId, reason.trim(), caller.userId],
      );
      const { rows: count } = await tx.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM group_watchlist WHERE group_id = $1',
        [groupId],
      );
      if (count[0].n > WATCHLIST_MAX) throw validation(FlagMsg.watchlistFull);
      return rows[0].id;
    });
    const { rows } = await db.query(`SELECT ${WATCH_COLUMNS} FROM ${WATCH_FROM} WHERE w.watch_id = $1`, [id]);
    return json(c, rows[0]);
  });

  router.authed('DELETE', '/sentinel/groupWatchlist/:watchId', WRITE, async (c, caller) => {
    const id = param(c, 'watchId');
    await db.transaction(async (tx) => {
      const { rows } = UUID.test(id)
        ? await tx.query<{ group_id: string }>('SELECT group_id FROM group_watchlist WHERE watch_id = $1', [
            id,
          ])
        : { rows: [] };
      const bits = rows[0] ? await bitsOnGroup(tx, rows[0].group_id, caller) : null;
      if (bits === null) throw objectNotFound({ watchId: id });
      if (!hasAll(bits, Perm.ManageBans)) throw forbidden({ watchId: id });
      await tx.query('DELETE FROM group_watchlist WHERE watch_id = $1', [id]);
    });
    return json(c, true);
  });
}
