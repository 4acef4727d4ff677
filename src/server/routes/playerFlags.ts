// /sentinel/playerFlags (the alerts issue, src/domain/flags.ts): the caller's own flags on players.
// Every query is bounded by the caller's account, so another account's flags are never listed,
// changed or removed, and a flag id of theirs answers as one that does not exist.

import { randomUUID } from 'node:crypto';
import { UUID } from '../../domain/constants.ts';
import { FLAGS_PER_ACCOUNT, FlagMsg, flagName, flagReason, isFlagColour } from '../../domain/flags.ts';
import type { ServerContext } from '../context.ts';
import type { Queryable } from '../db/db.ts';
import { readJson } from '../http/body.ts';
import { badRequest, objectNotFound, validation } from '../http/errors.ts';
import { type ListSpec, Params, planList, runList } from '../http/listQuery.ts';
import { type ApiRouter, json, pageJson, param } from '../http/router.ts';
import { objectsOf, requireProperties } from '../model/bulkBody.ts';
import { PLAYER_NAME } from '../model/player.ts';
import { epoch } from '../model/service.ts';

const READ = ['sentinel:read'];
const WRITE = ['sentinel:read', 'sentinel:write'];

const FLAG_COLUMNS = `
  f.flag_id AS "flagId", f.player_id AS "playerId",
  ${PLAYER_NAME} AS "playerName",
  f.name, f.colour, f.reason, ${epoch('f.date_created')} AS "dateCreated"`;
const FLAG_FROM = 'player_flags f JOIN players p ON p.player_id = f.player_id';

const FLAG_LIST: ListSpec = {
  id: { param: 'flagId', expr: 'f.flag_id' },
  filters: {
    playerId: { kind: 'exact', expr: 'f.player_id', type: 'uuid' },
    name: { kind: 'custom', sql: (v, p) => `lower(f.name) = lower(${p.add(v.trim())})` },
  },
  sorts: { name: 'lower(f.name)', dateCreated: 'f.date_created' },
  defaultSort: 'name',
  tiebreak: 'f.flag_id',
};

interface FlagInput {
  playerId: string;
  name: string;
  colour: string;
  reason: string;
}

/** One flag of a request body, checked: the first problem is the answer, naming its field. */
function flagOf(obj: Record<string, unknown>): FlagInput {
  requireProperties(obj, ['playerId', 'name', 'colour', 'reason']);
  const text = (field: string, check: (v: string) => string | null) => {
    const v = obj[field];
    const problem = typeof v === 'string' ? check(v) : check('');
    if (problem) throw validation(problem, { field });
    return (v as string).trim();
  };
  const name = text('name', flagName);
  if (!isFlagColour(obj.colour)) throw validation(FlagMsg.colourBad, { field: 'colour' });
  const reason = text('reason', flagReason);
  if (typeof obj.playerId !== 'string' || !UUID.test(obj.playerId))
    throw badRequest('notFound', 'The player was not found.', { playerId: obj.playerId });
  return { playerId: obj.playerId, name, colour: obj.colour, reason };
}

async function flagsById(db: Queryable, owner: string, ids: string[]) {
  const { rows } = await db.query<Record<string, unknown>>(
    `SELECT ${FLAG_COLUMNS} FROM ${FLAG_FROM} WHERE f.owner_id = $1 AND f.flag_id = ANY($2::uuid[])`,
    [owner, ids],
  );
  const byId = new Map(rows.map((r) => [r.flagId as string, r]));
  return ids.map((id) => byId.get(id));
}

export function registerPlayerFlagRoutes(router: ApiRouter, ctx: ServerContext): void {
  const { db } = ctx;

  router.authed('GET', '/sentinel/playerFlags', READ, async (c, caller) => {
    const p = new Params();
    const plan = planList(new URL(c.req.url).searchParams, FLAG_LIST, p);
    const owner = `f.owner_id = ${p.add(caller.userId)}`;
    return pageJson(
      c,
      await runList(db, { columns: FLAG_COLUMNS, from: FLAG_FROM, where: [owner] }, plan, p),
    );
  });

  /**
   * Flags a player, or changes the caller's flag of that name on them (its colour and reason):
   * one flag per name per player, so flagging twice never shows a name twice.
   */
  router.authed('POST', '/sentinel/playerFlags', WRITE, async (c, caller) => {
    // The same player and name twice in one body: the last says what the flag is.
    const flags = [
      ...new Map(
        objectsOf(await readJson(c))
          .map(flagOf)
          .map((f) => [`${f.playerId} ${f.name.toLowerCase()}`, f] as const),
      ).values(),
    ];
    const outcome = await db.transaction(async (tx) => {
      // One account's writes in turn: the count below is then what this write adds to.
      await tx.query('SELECT pg_advisory_xact_lock(4702, hashtext($1))', [caller.userId]);
      const { rows: players } = await tx.query<{ id: string }>(
        'SELECT player_id::text AS id FROM players WHERE player_id = ANY($1::uuid[])',
        [flags.map((f) => f.playerId)],
      );
      const known = new Set(players.map((r) => r.id));
      const missing = flags.find((f) => !known.has(f.playerId));
      if (missing) throw badRequest('notFound', 'The player was not found.', { playerId: missing.playerId });
      const { rows } = await tx.query<{ id: string; created: boolean }>(
        `INSERT INTO player_flags (flag_id, owner_id, player_id, name, colour, reason)
         SELECT id, $1, player, name, colour, reason
           FROM unnest($2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::text[]) AS f(id, player, name, colour, reason)
         ON CONFLICT (owner_id, player_id, lower(name))
           DO UPDATE SET colour = excluded.colour, reason = excluded.reason, name = excluded.name
         RETURNING flag_id::text AS id, (xmax = 0) AS created`,
        [
          caller.userId,
          flags.map(() => randomUUID()),
          flags.map((f) => f.playerId),
          flags.map((f) => f.name),
          flags.map((f) => f.colour),
          flags.map((f) => f.reason),
        ],
      );
      const { rows: count } = await tx.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM player_flags WHERE owner_id = $1',
        [caller.userId],
      );
      if (count[0].n > FLAGS_PER_ACCOUNT) throw validation(FlagMsg.tooMany);
      return rows;
    });
    const created = outcome.filter((r) => r.created).map((r) => r.id);
    const updated = outcome.filter((r) => !r.created).map((r) => r.id);
    return json(c, {
      created: await flagsById(db, caller.userId, created),
      updated: await flagsById(db, caller.userId, updated),
    });
  });

  router.authed('DELETE', '/sentinel/playerFlags/:flagId', WRITE, async (c, caller) => {
    const id = param(c, 'flagId');
    const { rows } = UUID.test(id)
      ? await db.query('DELETE FROM player_flags WHERE flag_id = $1 AND owner_id = $2 RETURNING flag_id', [
          id,
          caller.userId,
        ])
      : { rows: [] };
    if (rows.length === 0) throw objectNotFound({ flagId: id });
    return json(c, true);
  });
}
