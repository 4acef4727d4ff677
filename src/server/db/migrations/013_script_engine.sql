-- The script engine (issue 14).

-- One row per cron handler, attachment and minute that ran: the first API process to insert it
-- runs the handler, so two processes on one PostgreSQL run each schedule once per tick.
CREATE TABLE script_cron_runs (
  attachment_id uuid NOT NULL,
  script_event_id uuid NOT NULL,
  service_id uuid NOT NULL REFERENCES services ON DELETE CASCADE,
  tick timestamptz NOT NULL,
  PRIMARY KEY (attachment_id, script_event_id, service_id, tick)
);
CREATE INDEX script_cron_runs_tick_idx ON script_cron_runs (tick);

-- A script's own webhooks (SPEC §3): a purpose, and a secret that signs calls to its trigger URL;
-- rotating the secret replaces it.
CREATE TABLE script_webhooks (
  webhook_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  script_id uuid NOT NULL REFERENCES scripts ON DELETE CASCADE,
  purpose text NOT NULL CHECK (btrim(purpose) <> ''),
  secret text NOT NULL,
  created timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX script_webhooks_script_idx ON script_webhooks (script_id);

-- Who reviewed a revision, and when (SENTINEL-API §3.13 review).
ALTER TABLE script_revisions ADD COLUMN reviewed_by uuid REFERENCES users ON DELETE SET NULL;
ALTER TABLE script_revisions ADD COLUMN review_time timestamptz;
