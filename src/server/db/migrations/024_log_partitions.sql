-- The log in weekly partitions (issue 32), so that history past a plan's retention goes by
-- dropping whole weeks (db/retention.ts) instead of a DELETE that holds everyone up, and a line
-- costs less disk:
--   - log_terms (one row per word of each line, ~900 bytes a line with its index) is gone: each
--     week's GIN index over the stored words (message_tsv) serves a search, and the ordered walk
--     over weeks stops at the page. The words stay stored: a search that walks the time index
--     tests each line it passes, and making its words again cost 4 µs a line (4 ms a page).
--   - rcon_key is a uuid (16 bytes) rather than its text (37); translations, nearly always
--     empty, are null rather than '{}'.
-- Weeks, not days: every partition adds to the planning of a list that may read any of them
-- (2.4 ms for 36 days, against 0.1 ms for one), and a yearly plan keeps 13 weeks.
-- No foreign key to services: re-bounding the end ranges validates one against services, which
-- deadlocked with the game's writes, and every line paid its check. Services are never deleted
-- but marked so; a line whose service is gone anyway (its owner deleted) goes with its day.
-- A partitioned table's unique keys must hold the partition key: a line's id with its time, and a
-- resent event is the same (service, key) at the same time, which it always is (the game's event
-- time, or the time the RCON connector read the line, both kept with the key).
-- Lines before the first week (older than the weeks made here) are kept in log_messages_before,
-- lines past the last (a game clock far ahead) in log_messages_later: ranges to either end, not a
-- default partition, so the weeks stay in order and a list in time order reads them one after
-- another and stops at its page (with a default partition PostgreSQL merges every week instead).
-- The retention job moves the bounds as it makes and drops weeks (db/retention.ts).

DROP TRIGGER log_terms_added ON log_messages;
DROP TRIGGER log_terms_removed ON log_messages;
DROP FUNCTION log_terms_added();
DROP FUNCTION log_terms_removed();
DROP TABLE log_terms;

ALTER TABLE log_messages RENAME TO log_messages_unpartitioned;

CREATE TABLE log_messages (
  message_id uuid NOT NULL,
  service_id uuid NOT NULL,
  link_seq bigint,
  event_name text NOT NULL,
  type text NOT NULL CHECK (type IN ('Service', 'Gameplay')),
  level text NOT NULL
    CHECK (level IN ('Debug','Informational','Notice','Warning','Error','Critical','Alert','Emergency')),
  time timestamptz NOT NULL,
  analyzer_status text NOT NULL DEFAULT 'Skipped' CHECK (analyzer_status IN ('Skipped', 'Pending', 'Analyzed')),
  metadata jsonb NOT NULL DEFAULT '{}',
  message text NOT NULL,
  translations jsonb,
  grouping_key uuid,
  group_repeat boolean NOT NULL DEFAULT false,
  rcon_key uuid,
  message_tsv tsvector GENERATED ALWAYS AS (to_tsvector('english', message)) STORED,
  PRIMARY KEY (message_id, time)
) PARTITION BY RANGE (time);

-- One partition per UTC week (from Monday) from the oldest line (at most 400 days back) to the week
-- two days ahead falls in.
DO $$
DECLARE
  first timestamp := date_trunc('week', greatest(
    coalesce((SELECT min(time) FROM log_messages_unpartitioned), now()), now() - interval '400 days') AT TIME ZONE 'UTC');
  last timestamp := date_trunc('week', (now() + interval '2 days') AT TIME ZONE 'UTC');
  w timestamp;
BEGIN
  EXECUTE format('CREATE TABLE log_messages_before PARTITION OF log_messages FOR VALUES FROM (MINVALUE) TO (%L)',
    first AT TIME ZONE 'UTC');
  FOR w IN SELECT generate_series(first, last, interval '7 days') LOOP
    EXECUTE format(
      'CREATE TABLE %I PARTITION OF log_messages FOR VALUES FROM (%L) TO (%L)',
      'log_messages_w' || to_char(w, 'YYYYMMDD'), w AT TIME ZONE 'UTC', (w + interval '7 days') AT TIME ZONE 'UTC');
  END LOOP;
  EXECUTE format('CREATE TABLE log_messages_later PARTITION OF log_messages FOR VALUES FROM (%L) TO (MAXVALUE)',
    (last + interval '7 days') AT TIME ZONE 'UTC');
END $$;

INSERT INTO log_messages (message_id, service_id, link_seq, event_name, type, level, time, analyzer_status,
                          metadata, message, translations, grouping_key, group_repeat, rcon_key)
SELECT message_id, service_id, link_seq, event_name, type, level, time, analyzer_status,
       metadata, message, nullif(translations, '{}'), grouping_key, group_repeat,
       CASE WHEN rcon_key ~ '^[0-9a-fA-F-]{36}$' THEN rcon_key::uuid END
  FROM log_messages_unpartitioned;

DROP TABLE log_messages_unpartitioned;

CREATE UNIQUE INDEX log_messages_link_seq_key ON log_messages (service_id, link_seq, time) WHERE link_seq IS NOT NULL;
CREATE UNIQUE INDEX log_messages_rcon_key_idx ON log_messages (service_id, rcon_key, time) WHERE rcon_key IS NOT NULL;
-- In time order, not its reverse: lines arrive newest last, and an index whose new keys are its
-- last fills its pages (the newest first, as lists read, is a backward scan of the same index).
-- Without the message id: the few lines of one moment are put in id order by an incremental sort
-- above the walk, and the id cost 16 bytes a line in each (~45 with the service index's half-full
-- pages, whose keys arrive at the end of each server's range).
CREATE INDEX log_messages_service_time_idx ON log_messages (service_id, time) INCLUDE (group_repeat);
CREATE INDEX log_messages_time_idx ON log_messages (time) INCLUDE (service_id, group_repeat);
-- The event, level and type filters: one GIN index over the three (btree_gin, shipped with
-- PostgreSQL), a few bytes a line where a B-tree per column took ~170 (a B-tree whose keys arrive
-- at the end of each of a few values' ranges splits its pages in half and keeps them half full).
-- A rare value is found through it and sorted; a common one walks the time index, whichever the
-- planner finds cheaper in each day.
CREATE EXTENSION IF NOT EXISTS btree_gin SCHEMA public;
CREATE INDEX log_messages_kind_idx ON log_messages USING gin (event_name, level, type) WITH (fastupdate = off);
CREATE INDEX log_messages_grouping_idx ON log_messages (grouping_key, message_id) WHERE grouping_key IS NOT NULL;
CREATE INDEX log_messages_message_fts ON log_messages USING gin (message_tsv) WITH (fastupdate = off);
CREATE INDEX log_messages_metadata_idx ON log_messages USING gin (metadata jsonb_path_ops) WITH (fastupdate = off);
