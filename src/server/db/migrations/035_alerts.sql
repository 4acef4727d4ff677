-- Alerts (src/domain/alerts.ts): an account's rules on a server or group, the places their
-- notifications go, incidents (one per thing that happened, however many events it took) and
-- deliveries, stored before they are sent so that a restart loses none.

-- Where an account's notifications go besides its console. `address` is a webhook URL (a secret:
-- lists show it masked) or an email address; `blocked_until` holds every delivery to it back
-- while the destination asked to wait (a 429's retry-after).
CREATE TABLE alert_destinations (
  destination_id uuid PRIMARY KEY,
  owner_id uuid NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  name text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('discord', 'slack', 'email', 'push')),
  address text NOT NULL,
  -- Email: the recipient's one-click way out (RFC 8058), which turns the destination off.
  unsubscribe_token text UNIQUE,
  unsubscribed boolean NOT NULL DEFAULT false,
  blocked_until timestamptz,
  date_created timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX alert_destinations_owner_idx ON alert_destinations (owner_id, lower(name));

-- One of `service_id`, `group_id`: a group's rule covers each of its servers, each on its own.
CREATE TABLE alert_rules (
  rule_id uuid PRIMARY KEY,
  owner_id uuid NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  name text NOT NULL,
  service_id uuid REFERENCES services (service_id) ON DELETE CASCADE,
  group_id uuid REFERENCES groups (group_id) ON DELETE CASCADE,
  condition jsonb NOT NULL,
  muted boolean NOT NULL DEFAULT false,
  snoozed_until timestamptz,
  date_created timestamptz NOT NULL DEFAULT now(),
  date_modified timestamptz NOT NULL DEFAULT now(),
  CHECK ((service_id IS NULL) <> (group_id IS NULL))
);
CREATE INDEX alert_rules_owner_idx ON alert_rules (owner_id, lower(name));
CREATE INDEX alert_rules_service_idx ON alert_rules (service_id) WHERE service_id IS NOT NULL;
CREATE INDEX alert_rules_group_idx ON alert_rules (group_id) WHERE group_id IS NOT NULL;

CREATE TABLE alert_rule_destinations (
  rule_id uuid NOT NULL REFERENCES alert_rules (rule_id) ON DELETE CASCADE,
  destination_id uuid NOT NULL REFERENCES alert_destinations (destination_id) ON DELETE CASCADE,
  PRIMARY KEY (rule_id, destination_id)
);

-- A condition that must hold for minutes before it raises (status, population): since when it
-- has held on a server, kept across a restart.
CREATE TABLE alert_pending (
  rule_id uuid NOT NULL REFERENCES alert_rules (rule_id) ON DELETE CASCADE,
  service_id uuid NOT NULL REFERENCES services (service_id) ON DELETE CASCADE,
  since timestamptz NOT NULL,
  PRIMARY KEY (rule_id, service_id)
);

-- `subject` tells incidents of one rule on one server apart: a player's id, a script's, or ''.
CREATE TABLE alert_incidents (
  incident_id uuid PRIMARY KEY,
  rule_id uuid NOT NULL REFERENCES alert_rules (rule_id) ON DELETE CASCADE,
  service_id uuid NOT NULL REFERENCES services (service_id) ON DELETE CASCADE,
  subject text NOT NULL,
  summary text NOT NULL,
  events integer NOT NULL DEFAULT 1,
  opened timestamptz NOT NULL DEFAULT now(),
  last_event timestamptz NOT NULL DEFAULT now(),
  cleared timestamptz
);
CREATE UNIQUE INDEX alert_incidents_open_idx ON alert_incidents (rule_id, service_id, subject)
  WHERE cleared IS NULL;
CREATE INDEX alert_incidents_quiet_idx ON alert_incidents (last_event) WHERE cleared IS NULL;

-- What was sent, or is to be, for one notification to one place; `destination_id` null is the
-- console's own list. Names are copied so that history outlives a deleted destination.
CREATE TABLE alert_deliveries (
  delivery_id uuid PRIMARY KEY,
  owner_id uuid NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  rule_id uuid REFERENCES alert_rules (rule_id) ON DELETE CASCADE,
  incident_id uuid REFERENCES alert_incidents (incident_id) ON DELETE SET NULL,
  destination_id uuid REFERENCES alert_destinations (destination_id) ON DELETE SET NULL,
  destination_name text NOT NULL,
  destination_kind text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('raised', 'cleared', 'test')),
  notice jsonb NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt timestamptz NOT NULL DEFAULT now(),
  answer text,
  date_created timestamptz NOT NULL DEFAULT now(),
  date_sent timestamptz
);
CREATE INDEX alert_deliveries_due_idx ON alert_deliveries (next_attempt) WHERE status = 'pending';
CREATE INDEX alert_deliveries_rule_idx ON alert_deliveries (rule_id, date_created DESC);
CREATE INDEX alert_deliveries_destination_idx ON alert_deliveries (destination_id, date_created DESC);

-- The console's notification list: one per raised or cleared incident of the account's rules.
CREATE TABLE notifications (
  notification_id uuid PRIMARY KEY,
  owner_id uuid NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  rule_id uuid REFERENCES alert_rules (rule_id) ON DELETE SET NULL,
  service_id uuid REFERENCES services (service_id) ON DELETE SET NULL,
  kind text NOT NULL CHECK (kind IN ('raised', 'cleared', 'test')),
  title text NOT NULL,
  body text NOT NULL,
  is_read boolean NOT NULL DEFAULT false,
  date_created timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX notifications_owner_idx ON notifications (owner_id, date_created DESC);
CREATE INDEX notifications_unread_idx ON notifications (owner_id) WHERE NOT is_read;

-- A joining player's fingerprint is looked up among banned players' (ban evasion).
CREATE INDEX players_ip_fingerprint_idx ON players (ip_fingerprint) WHERE ip_fingerprint IS NOT NULL;
