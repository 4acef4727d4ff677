-- The activity trail is kept as long as the owner's plan keeps history (issue 32), then removed by
-- the retention job (db/retention.ts). Entries stay unchangeable, and deletable only by that job,
-- which says so for its own transaction, and only once older than the shortest retention of any
-- plan: no code path can remove a fresh entry.
CREATE OR REPLACE FUNCTION activity_is_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('palisade.retention', true) = 'on'
     AND OLD.time < now() - interval '7 days' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'activity entries cannot be changed or deleted' USING ERRCODE = '42501';
END $$;
