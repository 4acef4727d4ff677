-- The activity trail (docs/api.md "Activity trail"): one row per write through the API, written by
-- the request's own transaction (src/server/activity/). The API only reads it, and a trigger refuses
-- every UPDATE and DELETE, so no code path can rewrite history either. Rows outlive the servers and groups they name (no foreign keys): a trail is
-- evidence.
CREATE TABLE activity (
  activity_id uuid PRIMARY KEY,
  time timestamptz NOT NULL DEFAULT clock_timestamp(),
  user_id uuid NOT NULL,
  application_id text NOT NULL,
  method text NOT NULL,
  -- The route as declared (/sentinel/groupUsers/:id), its first segment as the kind (groupUsers).
  route text NOT NULL,
  kind text NOT NULL,
  action text NOT NULL,
  target text,
  summary text NOT NULL DEFAULT '',
  -- The servers and groups whose trail shows the entry; both empty: only the writer's own trail.
  service_ids uuid[] NOT NULL DEFAULT '{}',
  group_ids uuid[] NOT NULL DEFAULT '{}',
  -- 'ok', or the error code the request was refused with.
  outcome text NOT NULL
);
CREATE INDEX activity_time_idx ON activity (time DESC, activity_id DESC);
CREATE INDEX activity_services_idx ON activity USING gin (service_ids);
CREATE INDEX activity_groups_idx ON activity USING gin (group_ids);
CREATE INDEX activity_user_idx ON activity (user_id, time DESC);

CREATE FUNCTION activity_is_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'activity entries cannot be changed or deleted' USING ERRCODE = '42501';
END $$;
CREATE TRIGGER activity_append_only BEFORE UPDATE OR DELETE ON activity
  FOR EACH ROW EXECUTE FUNCTION activity_is_append_only();
