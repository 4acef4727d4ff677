-- A group's watchlist (src/domain/flags.ts): players its moderators keep an eye on, once each,
-- with why and who added them; the alerts that watch for them read it by group.
CREATE TABLE group_watchlist (
  watch_id uuid PRIMARY KEY,
  group_id uuid NOT NULL REFERENCES groups (group_id) ON DELETE CASCADE,
  player_id uuid NOT NULL REFERENCES players (player_id) ON DELETE CASCADE,
  reason text NOT NULL,
  added_by uuid REFERENCES users (user_id) ON DELETE SET NULL,
  date_added timestamptz NOT NULL DEFAULT now(),
  UNIQUE (group_id, player_id)
);
