-- RCON leases in a table of their own (issue 17). Renewed every 1.5 s, the lease columns rewrote
-- every RCON server's row of services, and, being indexed, every index of services with it: the
-- lists join services by its key for every row they show, and the embedded database, which never
-- vacuums by itself, only gathered the dead versions. A lease row holds nothing else indexed, so
-- its renewal rewrites that row alone.
CREATE TABLE rcon_leases (
  service_id uuid PRIMARY KEY REFERENCES services ON DELETE CASCADE,
  holder text NOT NULL,
  until timestamptz NOT NULL
);
INSERT INTO rcon_leases (service_id, holder, until)
  SELECT service_id, rcon_holder, rcon_lease_until FROM services
   WHERE rcon_holder IS NOT NULL AND rcon_lease_until IS NOT NULL;
DROP INDEX services_rcon_idx;
ALTER TABLE services DROP COLUMN rcon_holder, DROP COLUMN rcon_lease_until;
