-- The dino list names the caller's services as an array parameter (model/viewer.ts), read once
-- and kept in the read cache as the log list always did, instead of asking this function in
-- every walk of a search.
DROP FUNCTION visible_services(uuid);
