// Which game a server runs, and so which of a player's ids its commands take
// (src/domain/gameIds.ts). A server on the mod's link runs Ascended; an RCON server's game is
// what an admin set, else what its answers showed, else unknown, when both ids are sent.

/** SQL: the providers whose ids the service `param` names understands, as a text[] (an expression, for `= ANY(…)`). */
export const gameProvidersSql = (param: string) => `(
  SELECT CASE WHEN gk.connection_kind <> 'rcon' THEN ARRAY['EOS']
              ELSE CASE coalesce(gk.game_kind_set, gk.game_kind)
                     WHEN 'evolved' THEN ARRAY['Steam'] WHEN 'ascended' THEN ARRAY['EOS']
                     ELSE ARRAY['EOS', 'Steam'] END END
    FROM services gk WHERE gk.service_id = ${param})::text[]`;
