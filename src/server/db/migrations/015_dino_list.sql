-- The dino list at fleet scale (issue 13: a million dinos over 50 servers). Every page is sorted by
-- display name, lower(coalesce(nullif(name, ''), species)), then dino_id, and only live rows are
-- listed, so each index below is partial on NOT deleted and ends in that order: a page is a walk
-- of the index that stops after the page, not a sort of every match.
--
-- Migration 010 made the first four without service_id: they are made again with it.
DROP INDEX IF EXISTS dinos_display_idx;
DROP INDEX IF EXISTS dinos_service_display_idx;
DROP INDEX IF EXISTS dinos_tribe_display_idx;
DROP INDEX IF EXISTS dinos_status_display_idx;
-- Without a filter, and with filters that keep most rows (the default Deployed/Frozen/Uploaded).
CREATE INDEX dinos_display_idx ON dinos (lower(coalesce(nullif(name, ''), species)), dino_id)
  INCLUDE (service_id) WHERE NOT deleted;
-- One server, one tribe, one status: the walk starts at the value and reads that value's rows only.
CREATE INDEX dinos_service_display_idx ON dinos (service_id, lower(coalesce(nullif(name, ''), species)), dino_id)
  WHERE NOT deleted;
CREATE INDEX dinos_tribe_display_idx ON dinos (tribe_id, lower(coalesce(nullif(name, ''), species)), dino_id)
  INCLUDE (service_id) WHERE NOT deleted;
CREATE INDEX dinos_status_display_idx ON dinos (status, lower(coalesce(nullif(name, ''), species)), dino_id)
  INCLUDE (service_id) WHERE NOT deleted;
-- The species search compares the few distinct species, found by skipping through this index, and
-- then reads the rows of the species that matched, or walks the display-name index keeping them,
-- whichever the planner expects to read less (see model/dino.ts).
CREATE INDEX dinos_species_display_idx ON dinos (species, lower(coalesce(nullif(name, ''), species)), dino_id)
  INCLUDE (service_id) WHERE NOT deleted;
-- The tribe index above replaces the plain one.
DROP INDEX IF EXISTS dinos_tribe_idx;

-- Name search (dinoName/dinoDisplayName: English words or a case-insensitive substring). Words:
-- a GIN index on the same expression the filter parses. Substrings: trigrams (pg_trgm, shipped with
-- PostgreSQL and PGlite), which serve ILIKE '%…%' from three characters on. The extension lives
-- in public, whichever schema the tables are in, so dropping one schema never takes it from others;
-- the lock keeps servers migrating side by side from creating it twice.
SELECT pg_advisory_xact_lock(1015);
CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public;
CREATE INDEX dinos_display_words_idx ON dinos
  USING gin (to_tsvector('english', coalesce(coalesce(nullif(name, ''), species), '')))
  WHERE NOT deleted;
CREATE INDEX dinos_display_trgm_idx ON dinos
  USING gin (coalesce(nullif(name, ''), species) gin_trgm_ops)
  WHERE NOT deleted;
