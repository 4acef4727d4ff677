// /sentinel/players, /sentinel/playerIdentifiers, /sentinel/playerNameChanges (SENTINEL-API §3.7),
// read-only. Players are visible to every signed-in user, as in the original. Ours: the player
// carries its connection facts and `otherNames`, and `name` also matches identifiers.

import { UUID } from '../../domain/constants.ts';
import type { ServerContext } from '../context.ts';
import { objectNotFound } from '../http/errors.ts';
import { type Filter, type ListSpec, Params, planList, runList } from '../http/listQuery.ts';
import { type ApiRouter, json, pageJson, param } from '../http/router.ts';
import { playerColumns } from '../model/player.ts';
import { epoch } from '../model/service.ts';

const READ = ['sentinel:read'];

/** Full-text or contains over one name column of rows belonging to the player. */
const nameIn =
  (table: string, column: string, extra = '') =>
  (q: string, like: string) =>
    `p.player_id IN (SELECT player_id FROM ${table} WHERE (to_tsvector('simple', ${column}) @@ websearch_to_tsquery('simple', ${q}) OR ${column} ILIKE ${like})${extra})`;

const likeOf = (v: string) => `%${v.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;

const byNames = (sources: ((q: string, like: string) => string)[]): Filter => ({
  kind: 'custom',
  sql: (v, p) => {
    const q = p.add(v);
    const like = p.add(likeOf(v));
    return `(${sources.map((s) => s(q, like)).join(' OR ')})`;
  },
});

const CURRENT = (q: string, like: string) =>
  `(NOT p.opted_out AND (to_tsvector('simple', p.name) @@ websearch_to_tsquery('simple', ${q}) OR p.name ILIKE ${like}))`;
const HISTORY = nameIn('player_name_changes', 'name');
const CHARACTERS = nameIn('characters', 'name', ' AND NOT deleted');
const IDENTIFIER = (q: string) =>
  `p.player_id IN (SELECT player_id FROM player_identifiers WHERE lower(identifier) = lower(${q}))`;

const PLAYER_LIST: ListSpec = {
  id: { param: 'playerId', expr: 'p.player_id' },
  filters: {
    identifier: { kind: 'custom', sql: (v, p) => IDENTIFIER(p.add(v.trim())) },
    name: byNames([CURRENT, HISTORY, CHARACTERS, IDENTIFIER]),
    characterName: byNames([CHARACTERS]),
    playerName: byNames([CURRENT]),
    serviceId: {
      kind: 'custom',
      sql: (v, p) => {
        if (!UUID.test(v)) return 'false';
        const s = p.add(v);
        return `(p.player_id IN (SELECT player_id FROM characters WHERE service_id = ${s}::uuid AND NOT deleted)
          OR p.player_id IN (SELECT player_id FROM player_sessions WHERE service_id = ${s}::uuid))`;
      },
    },
  },
  sorts: { playerName: 'lower(p.name)' },
  defaultSort: 'playerName',
  tiebreak: 'p.player_id',
};

const IDENTIFIER_LIST: ListSpec = {
  id: { param: 'playerIdentifierId', expr: 'i.player_identifier_id' },
  filters: {
    name: { kind: 'ilike', exprs: ['i.name'] },
    identifier: { kind: 'ilike', exprs: ['i.identifier'] },
    provider: { kind: 'in', expr: 'i.provider' },
    playerId: { kind: 'exact', expr: 'i.player_id', type: 'uuid' },
  },
  sorts: { name: 'lower(i.name)', provider: 'i.provider' },
  defaultSort: 'name',
  tiebreak: 'i.player_identifier_id',
};

const IDENTIFIER_COLUMNS = `i.player_identifier_id AS "playerIdentifierId", i.player_id AS "playerId",
  i.provider, i.identifier, i.name`;

const NAME_CHANGE_LIST: ListSpec = {
  id: { param: 'historyId', expr: 'h.history_id' },
  filters: { playerId: { kind: 'exact', expr: 'h.player_id', type: 'uuid' } },
  sorts: { changeTime: 'h.change_time' },
  defaultSort: 'changeTime',
  tiebreak: 'h.history_id',
};

const NAME_CHANGE_COLUMNS = `h.history_id AS "historyId", h.player_id AS "playerId", h.name,
  ${epoch('h.change_time')} AS "changeTime"`;

/** A list that answers an empty page unless some filter applies (§3.0, no "allow all"). */
const filtered = (plan: { where: string[] }) => plan.where.length > 0;

export function registerPlayerRoutes(router: ApiRouter, ctx: ServerContext): void {
  const { db } = ctx;

  router.authed('GET', '/sentinel/players', READ, async (c, caller) => {
    const q = new URL(c.req.url).searchParams;
    const p = new Params();
    const plan = planList(q, PLAYER_LIST, p);
    const me = p.add(caller.userId);
    // `flag`: the players the caller flagged with that name (their own flags only). Otherwise the
    // caller's id is named in a condition that always holds: a page's count reads the conditions
    // alone, with every parameter, and one it does not name is refused by the database.
    const flag = q.get('flag')?.trim();
    const where = [
      flag
        ? `p.player_id IN (SELECT player_id FROM player_flags
            WHERE owner_id = ${me}::uuid AND lower(name) = lower(${p.add(flag)}))`
        : `${me}::uuid IS NOT NULL`,
    ];
    return pageJson(c, await runList(db, { columns: playerColumns(me), from: 'players p', where }, plan, p));
  });

  router.authed('GET', '/sentinel/players/:playerId', READ, async (c, caller) => {
    const id = param(c, 'playerId');
    const { rows } = UUID.test(id)
      ? await db.query(`SELECT ${playerColumns('$2')} FROM players p WHERE p.player_id = $1`, [
          id,
          caller.userId,
        ])
      : { rows: [] };
    if (!rows[0]) throw objectNotFound({ playerId: id });
    return json(c, rows[0]);
  });

  const readOnlyClass = (path: string, idParam: string, spec: ListSpec, columns: string, from: string) => {
    router.authed('GET', path, READ, async (c) => {
      const p = new Params();
      const plan = planList(new URL(c.req.url).searchParams, spec, p);
      const where = filtered(plan) ? [] : ['false'];
      return pageJson(c, await runList(db, { columns, from, where }, plan, p));
    });
    router.authed('GET', `${path}/:${idParam}`, READ, async (c) => {
      const id = param(c, idParam);
      const { rows } = UUID.test(id)
        ? await db.query(`SELECT ${columns} FROM ${from} WHERE ${spec.id.expr} = $1`, [id])
        : { rows: [] };
      if (!rows[0]) throw objectNotFound({ [idParam]: id });
      return json(c, rows[0]);
    });
  };

  readOnlyClass(
    '/sentinel/playerIdentifiers',
    'playerIdentifierId',
    IDENTIFIER_LIST,
    IDENTIFIER_COLUMNS,
    'player_identifiers i',
  );
  readOnlyClass(
    '/sentinel/playerNameChanges',
    'historyId',
    NAME_CHANGE_LIST,
    NAME_CHANGE_COLUMNS,
    'player_name_changes h',
  );
}
