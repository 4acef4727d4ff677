-- Every entity of SENTINEL-API §3, so later work adds routes, not tables.
-- Times are timestamptz (the API answers epoch seconds); ids are uuid; permission masks bigint.

CREATE TABLE users (
  user_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  username text NOT NULL,
  email text NOT NULL,
  password_hash text NOT NULL,
  public_key text NOT NULL DEFAULT '',
  is_anonymous boolean NOT NULL DEFAULT false,
  banned boolean NOT NULL DEFAULT false,
  created timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));

CREATE TABLE user_policies (
  user_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  policy text NOT NULL,
  accepted timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, policy)
);

CREATE TABLE policy_signing_requests (
  request_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  policies text[] NOT NULL,
  return_url text,
  created timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE applications (
  application_id uuid PRIMARY KEY,
  name text NOT NULL,
  website text NOT NULL DEFAULT '',
  secret_hash text,
  callbacks text[] NOT NULL DEFAULT '{}',
  scopes text[] NOT NULL,
  rate_limit integer NOT NULL DEFAULT 50
);

CREATE TABLE auth_flows (
  flow_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  application_id uuid NOT NULL REFERENCES applications ON DELETE CASCADE,
  scopes text[] NOT NULL,
  redirect_uri text NOT NULL,
  state text NOT NULL DEFAULT '',
  code_challenge text NOT NULL,
  device_id text,
  expires timestamptz NOT NULL,
  user_id uuid REFERENCES users ON DELETE CASCADE,
  code_hash text UNIQUE,
  code_expires timestamptz
);
CREATE INDEX auth_flows_challenge_idx ON auth_flows (application_id, code_challenge);

CREATE TABLE sessions (
  access_token_hash text PRIMARY KEY,
  refresh_token_hash text NOT NULL UNIQUE,
  -- The refresh token sealed with the access token, so GET /session can show it (as the original does).
  refresh_token_sealed text NOT NULL,
  user_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  application_id uuid NOT NULL REFERENCES applications ON DELETE CASCADE,
  scopes text[] NOT NULL,
  device_id text,
  access_expires timestamptz NOT NULL,
  refresh_expires timestamptz NOT NULL,
  created timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sessions_user_idx ON sessions (user_id);

CREATE TABLE subscriptions (
  subscription_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  product_id uuid NOT NULL,
  product_name text NOT NULL,
  product_game_id text NOT NULL,
  product_flags integer NOT NULL DEFAULT 0,
  created timestamptz NOT NULL DEFAULT now(),
  expiration timestamptz NOT NULL,
  last_purchase_id uuid,
  units_allowed integer NOT NULL DEFAULT 0
);
CREATE INDEX subscriptions_user_idx ON subscriptions (user_id);

CREATE TABLE services (
  service_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  game_id text NOT NULL CHECK (game_id IN ('Ark', 'ArkSA')),
  access_key text NOT NULL,
  access_key_hash text NOT NULL UNIQUE,
  is_connected boolean NOT NULL DEFAULT false,
  connection_change_time timestamptz,
  name text NOT NULL,
  nickname text,
  mini_name text,
  color text NOT NULL DEFAULT 'None'
    CHECK (color IN ('None','Blue','Brown','Grey','Green','Indigo','Orange','Pink','Purple','Red','Teal','Yellow')),
  platform text NOT NULL CHECK (platform IN ('PC', 'Xbox', 'PlayStation', 'Switch', 'Universal')),
  game_specific jsonb NOT NULL DEFAULT '{}',
  game_clock double precision NOT NULL DEFAULT 0,
  current_players integer NOT NULL DEFAULT 0,
  max_players integer NOT NULL DEFAULT -1,
  languages text[] NOT NULL DEFAULT '{en}',
  cluster_id uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000',
  allow_cluster_id_change boolean NOT NULL DEFAULT true,
  rcon_connected boolean NOT NULL DEFAULT false,
  ip_address text NOT NULL DEFAULT '',
  difficulty double precision NOT NULL DEFAULT 5.0,
  kick_untracked_players boolean NOT NULL DEFAULT true,
  connected_to text,
  created timestamptz NOT NULL DEFAULT now(),
  deleted boolean NOT NULL DEFAULT false
);
CREATE INDEX services_user_idx ON services (user_id) WHERE NOT deleted;

CREATE TABLE groups (
  group_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  name text NOT NULL,
  color text NOT NULL DEFAULT 'None',
  enable_group_chat boolean NOT NULL DEFAULT false,
  discord_invite_code text,
  discord_link_code text,
  discord_guild_id text,
  discord_guild_name text,
  discord_chat_channel_id text,
  discord_chat_channel_name text,
  UNIQUE (user_id, name),
  CHECK (discord_link_code IS NULL OR discord_guild_id IS NULL),
  CHECK (discord_chat_channel_id IS NULL OR (discord_guild_id IS NOT NULL AND enable_group_chat))
);

CREATE TABLE group_users (
  group_user_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  group_id uuid NOT NULL REFERENCES groups ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  permissions bigint NOT NULL CHECK (permissions & 1 = 1),
  UNIQUE (group_id, user_id)
);
CREATE INDEX group_users_user_idx ON group_users (user_id);

CREATE TABLE group_services (
  group_service_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  group_id uuid NOT NULL REFERENCES groups ON DELETE CASCADE,
  service_id uuid NOT NULL REFERENCES services ON DELETE CASCADE,
  permissions_mask bigint NOT NULL CHECK (permissions_mask & 1 = 1),
  UNIQUE (group_id, service_id)
);
CREATE INDEX group_services_service_idx ON group_services (service_id);

CREATE TABLE buckets (
  bucket_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  name text NOT NULL,
  UNIQUE (user_id, name)
);

CREATE TABLE players (
  player_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  timezone text,
  is_using_vpn boolean,
  ip_lookup_success boolean,
  ip_fingerprint text,
  country_code text,
  continent_code text,
  opted_out boolean NOT NULL DEFAULT false,
  created timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX players_name_idx ON players (lower(name));

CREATE TABLE bucket_values (
  bucket_value_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  bucket_id uuid NOT NULL REFERENCES buckets ON DELETE CASCADE,
  player_id uuid REFERENCES players ON DELETE CASCADE,
  key text NOT NULL,
  value text NOT NULL
);
CREATE UNIQUE INDEX bucket_values_key ON bucket_values
  (bucket_id, coalesce(player_id, '00000000-0000-0000-0000-000000000000'), lower(key));

CREATE TABLE group_buckets (
  group_bucket_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  group_id uuid NOT NULL REFERENCES groups ON DELETE CASCADE,
  bucket_id uuid NOT NULL REFERENCES buckets ON DELETE CASCADE,
  permissions_mask bigint NOT NULL CHECK (permissions_mask & 1 = 1),
  UNIQUE (group_id, bucket_id)
);

CREATE TABLE scripts (
  script_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  name text NOT NULL,
  preview text NOT NULL DEFAULT '',
  description text NOT NULL DEFAULT '',
  date_created timestamptz NOT NULL DEFAULT now(),
  date_modified timestamptz NOT NULL DEFAULT now(),
  community_status text NOT NULL DEFAULT 'Private' CHECK (community_status IN ('Private', 'Approved', 'Rejected')),
  latest_revision_id uuid,
  deleted boolean NOT NULL DEFAULT false
);
CREATE UNIQUE INDEX scripts_name_key ON scripts (user_id, lower(name)) WHERE NOT deleted;

-- A revision's id is the UUID v5 of its content; every save makes one.
CREATE TABLE script_revisions (
  revision_id uuid PRIMARY KEY,
  script_id uuid NOT NULL REFERENCES scripts ON DELETE CASCADE,
  date_created timestamptz NOT NULL DEFAULT now(),
  approval_status text NOT NULL CHECK (approval_status IN ('Approved', 'Probation', 'Needs Review', 'Rejected')),
  parameters jsonb NOT NULL DEFAULT '[]',
  common_javascript text NOT NULL DEFAULT ''
);
CREATE INDEX script_revisions_script_idx ON script_revisions (script_id, date_created DESC);

CREATE TABLE script_events (
  script_event_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  revision_id uuid NOT NULL REFERENCES script_revisions ON DELETE CASCADE,
  language text NOT NULL CHECK (language IN ('Simple', 'JavaScript')),
  context text NOT NULL,
  code text NOT NULL,
  keyword text,
  arguments jsonb
);
CREATE INDEX script_events_revision_idx ON script_events (revision_id);

CREATE TABLE script_votes (
  script_id uuid NOT NULL REFERENCES scripts ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  liked boolean NOT NULL,
  PRIMARY KEY (script_id, user_id)
);

CREATE TABLE script_tests (
  request_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  script_data text NOT NULL,
  queue_time timestamptz NOT NULL DEFAULT now(),
  completion_time timestamptz,
  output text
);
CREATE INDEX script_tests_user_idx ON script_tests (user_id, queue_time DESC);

CREATE TABLE group_scripts (
  group_script_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  group_id uuid NOT NULL REFERENCES groups ON DELETE CASCADE,
  script_id uuid NOT NULL REFERENCES scripts ON DELETE CASCADE,
  permissions_mask bigint NOT NULL CHECK (permissions_mask & 1 = 1),
  parameter_values jsonb NOT NULL DEFAULT '{}',
  revision_id uuid REFERENCES script_revisions ON DELETE SET NULL,
  origin text NOT NULL DEFAULT 'Direct' CHECK (origin IN ('Direct', 'Community')),
  UNIQUE (group_id, script_id, parameter_values)
);

CREATE TABLE service_scripts (
  service_script_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  service_id uuid NOT NULL REFERENCES services ON DELETE CASCADE,
  script_id uuid NOT NULL REFERENCES scripts ON DELETE CASCADE,
  parameter_values jsonb NOT NULL DEFAULT '{}',
  revision_id uuid REFERENCES script_revisions ON DELETE SET NULL,
  origin text NOT NULL DEFAULT 'Direct' CHECK (origin IN ('Direct', 'Community')),
  UNIQUE (service_id, script_id, parameter_values)
);

CREATE TABLE player_identifiers (
  player_identifier_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  player_id uuid NOT NULL REFERENCES players ON DELETE CASCADE,
  provider text NOT NULL,
  identifier text NOT NULL,
  name text NOT NULL DEFAULT '',
  UNIQUE (provider, identifier)
);
CREATE INDEX player_identifiers_player_idx ON player_identifiers (player_id);

CREATE TABLE player_name_changes (
  history_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  player_id uuid NOT NULL REFERENCES players ON DELETE CASCADE,
  name text NOT NULL,
  change_time timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX player_name_changes_player_idx ON player_name_changes (player_id, change_time);

CREATE TABLE player_notes (
  note_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  player_id uuid NOT NULL REFERENCES players ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  content text NOT NULL CHECK (btrim(content) <> ''),
  date_created timestamptz NOT NULL DEFAULT now(),
  date_modified timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX player_notes_player_idx ON player_notes (player_id, date_created DESC);

CREATE TABLE player_note_edits (
  edit_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  note_id uuid NOT NULL REFERENCES player_notes ON DELETE CASCADE,
  previous_content text NOT NULL,
  previous_timestamp timestamptz NOT NULL
);
CREATE INDEX player_note_edits_note_idx ON player_note_edits (note_id, previous_timestamp DESC);

-- The edit history is kept by the database, so no route can forget it.
CREATE FUNCTION player_notes_record_edit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.content IS DISTINCT FROM OLD.content THEN
    INSERT INTO player_note_edits (note_id, previous_content, previous_timestamp)
      VALUES (OLD.note_id, OLD.content, OLD.date_modified);
    NEW.date_modified := now();
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER player_notes_edit BEFORE UPDATE ON player_notes
  FOR EACH ROW EXECUTE FUNCTION player_notes_record_edit();

CREATE TABLE player_sessions (
  player_session_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  player_id uuid NOT NULL REFERENCES players ON DELETE CASCADE,
  service_id uuid NOT NULL REFERENCES services ON DELETE CASCADE,
  connect_time timestamptz NOT NULL,
  disconnect_time timestamptz
);
CREATE INDEX player_sessions_player_idx ON player_sessions (player_id, connect_time DESC);
CREATE INDEX player_sessions_service_idx ON player_sessions (service_id, connect_time DESC);
CREATE UNIQUE INDEX player_sessions_open_key ON player_sessions (player_id, service_id) WHERE disconnect_time IS NULL;

CREATE TABLE tribes (
  tribe_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  service_id uuid NOT NULL REFERENCES services ON DELETE CASCADE,
  tribe_number bigint NOT NULL,
  name text NOT NULL,
  deleted boolean NOT NULL DEFAULT false,
  UNIQUE (service_id, tribe_number)
);

CREATE TABLE characters (
  character_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  service_id uuid NOT NULL REFERENCES services ON DELETE CASCADE,
  player_id uuid NOT NULL REFERENCES players ON DELETE CASCADE,
  specimen_id bigint NOT NULL,
  name text NOT NULL,
  tribe_id uuid REFERENCES tribes ON DELETE SET NULL,
  deleted boolean NOT NULL DEFAULT false,
  UNIQUE (service_id, specimen_id)
);
CREATE INDEX characters_player_idx ON characters (player_id);
CREATE INDEX characters_tribe_idx ON characters (tribe_id);

CREATE TABLE tribe_characters (
  tribe_id uuid NOT NULL REFERENCES tribes ON DELETE CASCADE,
  character_id uuid NOT NULL REFERENCES characters ON DELETE CASCADE,
  joined timestamptz NOT NULL DEFAULT now(),
  left_time timestamptz,
  PRIMARY KEY (tribe_id, character_id, joined)
);
CREATE INDEX tribe_characters_character_idx ON tribe_characters (character_id);

CREATE TABLE dinos (
  dino_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  service_id uuid NOT NULL REFERENCES services ON DELETE CASCADE,
  tribe_id uuid REFERENCES tribes ON DELETE SET NULL,
  dino_number64 numeric(20) NOT NULL,
  name text NOT NULL DEFAULT '',
  name_tag text NOT NULL DEFAULT '',
  species text NOT NULL,
  species_path text NOT NULL,
  level integer NOT NULL DEFAULT 1,
  age double precision NOT NULL DEFAULT 1,
  status text NOT NULL DEFAULT 'Deployed' CHECK (status IN ('Deployed', 'Dead', 'Frozen', 'Uploaded')),
  gender text NOT NULL DEFAULT 'None' CHECK (gender IN ('None', 'Female', 'Male')),
  is_sterilized boolean NOT NULL DEFAULT false,
  has_cryo_sickness boolean NOT NULL DEFAULT false,
  restore_data jsonb,
  stats jsonb NOT NULL DEFAULT '{}',
  colors jsonb NOT NULL DEFAULT '[]',
  traits jsonb NOT NULL DEFAULT '[]',
  deleted boolean NOT NULL DEFAULT false,
  UNIQUE (service_id, dino_number64)
);
CREATE INDEX dinos_tribe_idx ON dinos (tribe_id);

CREATE TABLE group_bans (
  group_ban_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  group_id uuid NOT NULL REFERENCES groups ON DELETE CASCADE,
  player_id uuid NOT NULL REFERENCES players ON DELETE CASCADE,
  issuer_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  expiration timestamptz,
  comments text NOT NULL,
  UNIQUE (group_id, player_id)
);

CREATE TABLE service_bans (
  service_ban_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  service_id uuid NOT NULL REFERENCES services ON DELETE CASCADE,
  player_id uuid NOT NULL REFERENCES players ON DELETE CASCADE,
  issuer_id uuid REFERENCES users ON DELETE SET NULL,
  expiration timestamptz,
  comments text NOT NULL,
  UNIQUE (service_id, player_id)
);

-- Events, chat and admin commands. The heaviest table: indexes follow the log view's filters.
-- link_seq is the game server's event number (link protocol), unique per service, so a resent
-- event is stored once; rows the API writes itself have none.
CREATE TABLE log_messages (
  message_id uuid PRIMARY KEY,
  service_id uuid NOT NULL REFERENCES services ON DELETE CASCADE,
  link_seq bigint,
  event_name text NOT NULL,
  type text NOT NULL CHECK (type IN ('Service', 'Gameplay')),
  level text NOT NULL
    CHECK (level IN ('Debug','Informational','Notice','Warning','Error','Critical','Alert','Emergency')),
  time timestamptz NOT NULL,
  analyzer_status text NOT NULL DEFAULT 'Skipped' CHECK (analyzer_status IN ('Skipped', 'Pending', 'Analyzed')),
  metadata jsonb NOT NULL DEFAULT '{}',
  message text NOT NULL,
  -- Other languages of the message, keyed by ISO-639-1 code; `message` is English.
  translations jsonb NOT NULL DEFAULT '{}',
  grouping_key uuid,
  UNIQUE (service_id, link_seq)
);
CREATE INDEX log_messages_service_time_idx ON log_messages (service_id, time DESC);
CREATE INDEX log_messages_time_idx ON log_messages (time DESC);
CREATE INDEX log_messages_event_idx ON log_messages (event_name, time DESC);
CREATE INDEX log_messages_level_idx ON log_messages (level, time DESC);
CREATE INDEX log_messages_type_idx ON log_messages (type, time DESC);
CREATE INDEX log_messages_message_fts ON log_messages USING gin (to_tsvector('english', message));
CREATE INDEX log_messages_metadata_idx ON log_messages USING gin (metadata jsonb_path_ops);

CREATE TABLE service_event_queue (
  queue_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  service_id uuid NOT NULL REFERENCES services ON DELETE CASCADE,
  cluster_id uuid,
  queue_time timestamptz NOT NULL DEFAULT now(),
  version integer NOT NULL DEFAULT 1,
  event_data jsonb NOT NULL,
  status text NOT NULL DEFAULT 'Waiting' CHECK (status IN ('Waiting', 'Errored'))
);
CREATE INDEX service_event_queue_service_idx ON service_event_queue (service_id, queue_time);

CREATE TABLE chat_message_queue (
  message_id uuid PRIMARY KEY,
  origin_type text NOT NULL CHECK (origin_type IN ('Game', 'WebGroup', 'WebService', 'Discord', 'Script')),
  origin_id uuid NOT NULL,
  sender_name text NOT NULL,
  sender_info jsonb NOT NULL DEFAULT '{}',
  scope text NOT NULL DEFAULT 'Global' CHECK (scope IN ('Global', 'Alliance', 'Tribe', 'Local', 'Radio')),
  message_content text NOT NULL,
  message_time timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX chat_message_queue_time_idx ON chat_message_queue (message_time);
