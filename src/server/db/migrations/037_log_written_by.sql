-- Which transaction last wrote each log line (issue 32). A kept first page of the log
-- (http/keptPages.ts) is checked by re-reading its own lines and by looking, through this index,
-- for lines written since it was last checked that it would show, instead of walking its page
-- again: a word search walked past every newest line without the word (9,000 lines, 7 ms, for
-- each of a hundred consoles asking) to learn that nothing had changed.
-- Lines written before this migration have none: they are older than any page a server that ran
-- it can have kept. A column default fills it on insert; an update (rare: a translation) sets it
-- again by trigger, so a line changed to match a search is found as a new one would be.
ALTER TABLE log_messages ADD COLUMN written_by xid8;
ALTER TABLE log_messages ALTER COLUMN written_by SET DEFAULT pg_current_xact_id();
CREATE INDEX log_messages_written_by_idx ON log_messages (written_by) WHERE written_by IS NOT NULL;

CREATE FUNCTION log_message_rewritten() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.written_by := pg_current_xact_id();
  RETURN NEW;
END $$;
CREATE TRIGGER log_message_rewritten BEFORE UPDATE ON log_messages
  FOR EACH ROW EXECUTE FUNCTION log_message_rewritten();
