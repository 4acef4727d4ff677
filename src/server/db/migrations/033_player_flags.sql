-- Player flags (src/domain/flags.ts): an account's named, coloured marks on players, one per name
-- per player (flagging again with a name changes that flag), listed by the account and by player.
CREATE TABLE player_flags (
  flag_id uuid PRIMARY KEY,
  owner_id uuid NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  player_id uuid NOT NULL REFERENCES players (player_id) ON DELETE CASCADE,
  name text NOT NULL,
  colour text NOT NULL,
  reason text NOT NULL,
  date_created timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX player_flags_name_idx ON player_flags (owner_id, player_id, lower(name));
CREATE INDEX player_flags_by_name_idx ON player_flags (owner_id, lower(name), player_id);
