-- What several server processes on one PostgreSQL must share (docs/api.md "Scale-out"):
-- request counters per rate-limit window, the processes alive and when they last said so,
-- secrets every process signs with, and bus messages too big for a NOTIFY payload.

CREATE TABLE rate_limits (
  key text NOT NULL,
  window_start timestamptz NOT NULL,
  count integer NOT NULL,
  PRIMARY KEY (key, window_start)
);

CREATE TABLE cluster_nodes (
  node_id text PRIMARY KEY,
  started timestamptz NOT NULL DEFAULT now(),
  last_seen timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE cluster_settings (
  name text PRIMARY KEY,
  value text NOT NULL
);

CREATE TABLE cluster_messages (
  message_id bigserial PRIMARY KEY,
  payload text NOT NULL,
  created timestamptz NOT NULL DEFAULT now()
);
