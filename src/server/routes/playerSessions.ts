// /sentinel/playerSessions (SENTINEL-API §3.7), read-only: who played where and when, on the
// services the caller can see. Needs only the `common` scope, as the original class sets none.

import { UUID } from '../../domain/constants.ts';
import { isEpochSeconds } from '../../domain/limits.ts';
import type { ServerContext } from '../context.ts';
import { objectNotFound } from '../http/errors.ts';
import { type ListSpec, Params, planList, runList } from '../http/listQuery.ts';
import { type ApiRouter, json, pageJson, param } from '../http/router.ts';
import { PLAYER_NAME, playerFlags } from '../model/player.ts';
import { epoch } from '../model/service.ts';

/** The columns of a session, with the flags the caller (the SQL expression `owner`) put on its player. */
const sessionColumns = (owner: string) => `
  ps.player_session_id AS "playerSessionId", ps.player_id AS "playerId",
  ${PLAYER_NAME} AS "playerName", ${playerFlags(owner)} AS "playerFlags",
  ps.service_id AS "serviceId", coalesce(s.nickname, s.name) AS "serviceDisplayName",
  ${epoch('ps.connect_time')} AS "connectTime", ${epoch('ps.disconnect_time')} AS "disconnectTime",
  ${epoch('coalesce(ps.disconnect_time, now())')} - ${epoch('ps.connect_time')} AS "playTime",
  ps.disconnect_time IS NULL AS "isConnected"`;

const SESSION_FROM = `player_sessions ps JOIN players p ON p.player_id = ps.player_id
  JOIN services s ON s.service_id = ps.service_id AND NOT s.deleted`;

const SESSION_LIST: ListSpec = {
  id: { param: 'playerSessionId', expr: 'ps.player_session_id' },
  filters: {
    playerId: { kind: 'exact', expr: 'ps.player_id', type: 'uuid' },
    serviceId: { kind: 'exact', expr: 'ps.service_id', type: 'uuid' },
    groupId: {
      kind: 'custom',
      sql: (v, p) =>
        UUID.test(v)
          ? `ps.service_id IN (SELECT service_id FROM group_services WHERE group_id = ${p.add(v)}::uuid)`
          : 'false',
    },
    isConnected: { kind: 'bool', expr: '(ps.disconnect_time IS NULL)' },
    // Ours: sessions on at or after a moment (still open, or ended since), for a timeline.
    activeSince: {
      kind: 'custom',
      sql: (v, p) =>
        isEpochSeconds(Number(v)) && v.trim() !== ''
          ? `(ps.disconnect_time IS NULL OR ps.disconnect_time >= to_timestamp(${p.add(Number(v))}::float8))`
          : 'false',
    },
    playerName: { kind: 'search', exprs: ['p.name'] },
    serviceDisplayName: { kind: 'search', exprs: ['coalesce(s.nickname, s.name)'] },
  },
  sorts: {
    connectTime: 'ps.connect_time',
    playerName: 'lower(p.name)',
    serviceDisplayName: 'lower(coalesce(s.nickname, s.name))',
  },
  defaultSort: 'connectTime',
  tiebreak: 'ps.player_session_id',
};

const visible = (user: string) =>
  `ps.service_id IN (SELECT service_id FROM service_permissions WHERE user_id = ${user}::uuid)`;

export function registerPlayerSessionRoutes(router: ApiRouter, ctx: ServerContext): void {
  router.authed('GET', '/sentinel/playerSessions', [], async (c, caller) => {
    const p = new Params();
    const user = p.add(caller.userId);
    const plan = planList(new URL(c.req.url).searchParams, SESSION_LIST, p);
    const where = [visible(user), ...(plan.where.length ? [] : ['false'])];
    return pageJson(
      c,
      await runList(ctx.db, { columns: sessionColumns(user), from: SESSION_FROM, where }, plan, p),
    );
  });

  router.authed('GET', '/sentinel/playerSessions/:playerSessionId', [], async (c, caller) => {
    const id = param(c, 'playerSessionId');
    const { rows } = UUID.test(id)
      ? await ctx.db.query(
          `SELECT ${sessionColumns('$2')} FROM ${SESSION_FROM} WHERE ps.player_session_id = $1 AND ${visible('$2')}`,
          [id, caller.userId],
        )
      : { rows: [] };
    if (!rows[0]) throw objectNotFound({ playerSessionId: id });
    return json(c, rows[0]);
  });
}
