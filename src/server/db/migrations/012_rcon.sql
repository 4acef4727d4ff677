-- Servers connected over RCON (docs/servers-connecting.md): how each server connects, where its
-- RCON listens, its password sealed with the key from PALISADE_RCON_KEY (never stored in clear,
-- never returned), the last connection error, and the lease that lets exactly one server process
-- hold the connection while that process keeps renewing it.
ALTER TABLE services
  ADD COLUMN connection_kind text NOT NULL DEFAULT 'link' CHECK (connection_kind IN ('link', 'rcon')),
  ADD COLUMN rcon_host text,
  ADD COLUMN rcon_port integer CHECK (rcon_port BETWEEN 1 AND 65535),
  ADD COLUMN rcon_password_sealed text,
  ADD COLUMN rcon_error text,
  ADD COLUMN rcon_holder text,
  ADD COLUMN rcon_lease_until timestamptz;

CREATE INDEX services_rcon_idx ON services (rcon_lease_until) WHERE connection_kind = 'rcon' AND NOT deleted;

-- What RCON gives has no sequence number: each stored line carries the key it was read under
-- (docs/api.md "RCON"), so a line read twice is stored once.
ALTER TABLE log_messages ADD COLUMN rcon_key text;
CREATE UNIQUE INDEX log_messages_rcon_key_idx ON log_messages (service_id, rcon_key) WHERE rcon_key IS NOT NULL;
