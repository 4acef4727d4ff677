-- SENTINEL-API §6: a disconnect is removed from the log when the server reconnects within a grace
-- period. The line written for the current outage is named here rather than held in the process
-- that wrote it, because the reconnect may land on another process. No foreign key: a line already
-- gone only leaves nothing to remove.
ALTER TABLE services ADD COLUMN outage_message_id uuid;
