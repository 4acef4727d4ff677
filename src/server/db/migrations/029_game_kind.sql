-- Which game a server runs, for RCON servers: detected from the ids it prints (SteamID64 on
-- Survival Evolved, EOS ids on Ascended), or set by an admin, which wins over the detection.
ALTER TABLE services
  ADD COLUMN game_kind text CHECK (game_kind IN ('evolved', 'ascended')),
  ADD COLUMN game_kind_set text CHECK (game_kind_set IN ('evolved', 'ascended'));
