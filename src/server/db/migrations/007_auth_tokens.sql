-- Token families (OAuth 2.1, RFC 9700 §4.14.2): every session descends from one sign-in, and a
-- replayed refresh token or authorization code revokes the sessions of its family.
ALTER TABLE sessions ADD COLUMN family_id uuid NOT NULL DEFAULT gen_random_uuid();
CREATE INDEX sessions_family_idx ON sessions (family_id);
CREATE INDEX sessions_refresh_expires_idx ON sessions (refresh_expires);

-- Refresh tokens already rotated, kept until they would have expired, so that a replay is seen.
CREATE TABLE rotated_refresh_tokens (
  refresh_token_hash text PRIMARY KEY,
  family_id uuid NOT NULL,
  expires timestamptz NOT NULL
);
CREATE INDEX rotated_refresh_tokens_expires_idx ON rotated_refresh_tokens (expires);

-- A redeemed code keeps its flow row (until the code would have expired) naming the family it began.
ALTER TABLE auth_flows ADD COLUMN family_id uuid;
CREATE INDEX auth_flows_expires_idx ON auth_flows (expires);
CREATE INDEX policy_signing_requests_created_idx ON policy_signing_requests (created);

-- Failed sign-ins per address typed (lower-cased; unknown addresses too, so the back-off tells
-- nothing about which accounts exist).
CREATE TABLE sign_in_failures (
  email text PRIMARY KEY,
  failures integer NOT NULL,
  locked_until timestamptz NOT NULL,
  last_failure timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sign_in_failures_last_idx ON sign_in_failures (last_failure);
