// Players (SENTINEL-API §3.7): the Player JSON with its connection facts, and how a ban names
// the player it is about (an EOS id or a Sentinel player id).

import { ANONYMOUS_NAME, UUID } from '../../domain/constants.ts';
import { gameIdProvider } from '../../domain/gameIds.ts';
import { Msg } from '../../domain/messages.ts';
import { banPlayerId } from '../../domain/validate.ts';
import type { Queryable } from '../db/db.ts';
import { ApiException, badRequest } from '../http/errors.ts';

/** `players p`'s name as every list shows it: an opted-out player's is not shown to anyone. */
export const PLAYER_NAME = `CASE WHEN p.opted_out THEN '${ANONYMOUS_NAME}' ELSE p.name END`;

/** A fact of an opted-out player is not shown to anyone. */
const unlessAnonymous = (expr: string) => `CASE WHEN p.opted_out THEN NULL ELSE ${expr} END`;

/** Every name a player went by besides the current one: former names and survivor names. */
const OTHER_NAMES = `ARRAY(SELECT DISTINCT x.n FROM (
    SELECT h.name AS n FROM player_name_changes h WHERE h.player_id = p.player_id
    UNION SELECT ch.name FROM characters ch WHERE ch.player_id = p.player_id AND NOT ch.deleted) x
  WHERE x.n <> p.name ORDER BY x.n)`;

/**
 * The flags the account whose id is the SQL expression `owner` put on the player `p` (its own
 * only: src/domain/flags.ts), as `[{flagId, name, colour, reason}]`; every list of players shows
 * them beside the name.
 */
export const playerFlags = (owner: string) => `coalesce((SELECT json_agg(json_build_object(
      'flagId', f.flag_id, 'name', f.name, 'colour', f.colour, 'reason', f.reason) ORDER BY lower(f.name))
    FROM player_flags f WHERE f.owner_id = ${owner}::uuid AND f.player_id = p.player_id), '[]'::json)`;

/**
 * Select list over `players p`, with the flags the account whose id is the SQL parameter `owner`
 * put on each player (its own only: src/domain/flags.ts).
 */
export const playerColumns = (owner: string) => `
  p.player_id AS "playerId",
  ${PLAYER_NAME} AS "playerName",
  1 AS permissions, p.opted_out AS "isAnonymous",
  ${unlessAnonymous('p.timezone')} AS timezone,
  ${unlessAnonymous('p.is_using_vpn')} AS "isUsingVpn",
  ${unlessAnonymous('p.ip_lookup_success')} AS "ipLookupSuccess",
  ${unlessAnonymous('p.ip_fingerprint')} AS "ipFingerprint",
  ${unlessAnonymous('p.country_code')} AS "countryCode",
  ${unlessAnonymous('p.continent_code')} AS "continentCode",
  CASE WHEN p.opted_out THEN '{}'::text[] ELSE ${OTHER_NAMES} END AS "otherNames",
  ${playerFlags(owner)} AS flags`;

/** `[{provider, name, identifier}]` of the player whose id is `expr`. */
export const playerAccounts = (expr: string) => `coalesce((SELECT json_agg(json_build_object(
    'provider', i.provider, 'name', i.name, 'identifier', i.identifier) ORDER BY i.provider, i.identifier)
  FROM player_identifiers i WHERE i.player_id = ${expr}), '[]'::json)`;

export const banError = {
  format: () => badRequest('badPlayerId', Msg.banPlayerFormat),
  pie: () => badRequest('pieCharacter', Msg.banPieCharacter),
  notFound: (playerId: string) =>
    new ApiException(404, Msg.banPlayerNotFound, 'playerNotFound', { playerId }),
  eosUnknown: (eosId: string) => new ApiException(404, Msg.banEosUnknown, 'eosIdUnknown', { eosId }),
};

/** The lower-case Sentinel player id or game id (EOS or Steam) a ban names; throws the refusal of a malformed one. */
export function banTargetText(given: unknown): string {
  if (typeof given !== 'string' || given.trim() === '') throw banError.format();
  const problem = banPlayerId(given);
  if (problem) throw problem === Msg.banPieCharacter ? banError.pie() : banError.format();
  const text = given.trim().toLowerCase();
  if (!UUID.test(text) && !gameIdProvider(text)) throw banError.format();
  return text;
}

/** The refusal of a well-formed id that names no player. */
export const banTargetUnknown = (text: string) =>
  UUID.test(text) ? banError.notFound(text) : banError.eosUnknown(text);

/** The identifiers of game ids (EOS or Steam, any case) in the text array the SQL parameter `param` holds. */
export const identifiersOfGameIds = (param: string) =>
  `player_identifiers WHERE provider IN ('EOS', 'Steam') AND lower(identifier) = ANY(${param}::text[])`;

/** The known players of many ban targets (texts from banTargetText), in two queries: text → player id. */
export async function banTargetPlayers(tx: Queryable, texts: string[]): Promise<Map<string, string>> {
  const ids = texts.filter((t) => UUID.test(t));
  const gameIds = texts.filter((t) => !UUID.test(t));
  const known = new Map<string, string>();
  if (ids.length) {
    const { rows } = await tx.query<{ id: string }>(
      'SELECT player_id AS id FROM players WHERE player_id = ANY($1::uuid[])',
      [ids],
    );
    for (const r of rows) known.set(r.id, r.id);
  }
  if (gameIds.length) {
    const { rows } = await tx.query<{ gameId: string; id: string }>(
      `SELECT lower(identifier) AS "gameId", player_id AS id FROM ${identifiersOfGameIds('$1')}`,
      [gameIds],
    );
    for (const r of rows) known.set(r.gameId, r.id);
  }
  return known;
}
