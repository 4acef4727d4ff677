-- The log view pages in (time, message_id) order and refetches from exact (time, message_id)
-- cursors, so the per-service and global time indexes carry message_id: ties on time need no
-- sort step. Group-wide commands share a grouping_key; the list shows each group's first row,
-- which looked every grouped row up without an index.
DROP INDEX IF EXISTS log_messages_service_time_idx;
CREATE INDEX log_messages_service_time_idx ON log_messages (service_id, time DESC, message_id DESC);
DROP INDEX IF EXISTS log_messages_time_idx;
CREATE INDEX log_messages_time_idx ON log_messages (time DESC, message_id DESC);
CREATE INDEX log_messages_grouping_idx ON log_messages (grouping_key, message_id) WHERE grouping_key IS NOT NULL;
