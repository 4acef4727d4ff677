-- A text search of the log list in time order (issue 11). The GIN index over message_tsv finds
-- the lines holding a word but in no order, so a search walked the time index from the newest
-- line and tested each one: on embedded PGlite that cost grew with every line written since the
-- last match (8.9 ms with 10,000 newest lines holding none of the words). log_terms keeps one row
-- per word of each line, ordered by time within the word, so a search reads the ids of its page
-- from this index and fetches those lines by id (3 ms however many lines lack the word).
--
-- No parallel scan: on PostgreSQL a word common enough looked worth three workers, whose start-up
-- made the 1 ms walk 14 ms.
--
-- Kept by statement triggers, so a bulk insert adds its words in one statement. Lines are never
-- edited; a deleted line takes its words with it.
CREATE TABLE log_terms (
  lexeme text NOT NULL,
  time timestamptz NOT NULL,
  message_id uuid NOT NULL
) WITH (parallel_workers = 0);
INSERT INTO log_terms (lexeme, time, message_id)
  SELECT l, m.time, m.message_id FROM log_messages m, unnest(tsvector_to_array(m.message_tsv)) l;
CREATE INDEX log_terms_idx ON log_terms (lexeme, time DESC, message_id DESC);

CREATE FUNCTION log_terms_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO log_terms (lexeme, time, message_id)
    SELECT l, n.time, n.message_id FROM added n, unnest(tsvector_to_array(n.message_tsv)) l;
  RETURN NULL;
END $$;
CREATE TRIGGER log_terms_added AFTER INSERT ON log_messages
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION log_terms_added();

CREATE FUNCTION log_terms_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM log_terms t USING removed o, unnest(tsvector_to_array(o.message_tsv)) l
   WHERE t.lexeme = l AND t.time = o.time AND t.message_id = o.message_id;
  RETURN NULL;
END $$;
CREATE TRIGGER log_terms_removed AFTER DELETE ON log_messages
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION log_terms_removed();
