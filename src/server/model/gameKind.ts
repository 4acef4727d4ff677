// Which game a server runs, and so which of a player's ids its commands take
// (src/domain/gameIds.ts). A server on the mod's link runs Ascended; an RCON server's game is
// what an admin set, else what its answers showed, else unknown, when both ids are sent.

import { UUID } from '../../domain/constants.ts';
import { gameIdProvider, normalGameId } from '../../domain/gameIds.ts';
import type { Queryable } from '../db/db.ts';

/** SQL: the providers whose ids the service `param` names understands, as a text[] (an expression, for `= ANY(…)`). */
export const gameProvidersSql = (param: string) => `(
  SELECT CASE WHEN gk.connection_kind <> 'rcon' THEN ARRAY['EOS']
              ELSE CASE coalesce(gk.game_kind_set, gk.game_kind)
                     WHEN 'evolved' THEN ARRAY['Steam'] WHEN 'ascended' THEN ARRAY['EOS']
                     ELSE ARRAY['EOS', 'Steam'] END END
    FROM services gk WHERE gk.service_id = ${param})::text[]`;

/**
 * The game id of a player named by player id or by game id, the one `serviceId`'s game
 * understands (docs/servers-connecting.md "Player ids"); null when no server has seen them.
 */
export async function gameIdOn(
  db: Queryable,
  playerId: string,
  serviceId: string,
): Promise<{ gameId: string; playerId: string | null } | null> {
  // Each side of the OR on an index of its own: a player id compared as text could use neither,
  // and read every identifier for each command of a script.
  const { rows } = await db.query<{ identifier: string; player_id: string }>(
    `SELECT identifier, player_id FROM player_identifiers
      WHERE provider = ANY(${gameProvidersSql('$2')})
        AND (lower(identifier) = lower($1) OR player_id = $3::uuid)
      ORDER BY provider = 'EOS' DESC LIMIT 1`,
    [playerId, serviceId, UUID.test(playerId) ? playerId.toLowerCase() : null],
  );
  if (rows[0]) return { gameId: rows[0].identifier, playerId: rows[0].player_id };
  return gameIdProvider(playerId) ? { gameId: normalGameId(playerId), playerId: null } : null;
}
