-- Access for teams (docs/api.md "Access"): signed-in devices, two-factor sign-in, role templates,
-- a group's two-factor requirement, and scoped API tokens. The permission views of
-- 002_permissions.sql are rebuilt here to read roles, the requirement and tokens; they stay the one
-- place permissions are computed.

-- A sign-in and every session its refresh tokens rotate through (one family): the device list.
CREATE TABLE sign_ins (
  family_id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  application_id uuid NOT NULL REFERENCES applications ON DELETE CASCADE,
  created timestamptz NOT NULL DEFAULT now(),
  address text NOT NULL DEFAULT '',
  user_agent text NOT NULL DEFAULT '',
  -- 'password', 'password+totp', 'password+backup', 'passkey': how the sign-in was proven.
  method text NOT NULL DEFAULT 'password',
  last_used timestamptz NOT NULL DEFAULT now(),
  last_address text NOT NULL DEFAULT ''
);
CREATE INDEX sign_ins_user_idx ON sign_ins (user_id, last_used DESC);

-- Whether the account has a second factor: read by the permission views, kept by the routes that
-- enable and disable one (a column, so the hot views need no subquery).
ALTER TABLE users ADD COLUMN second_factor boolean NOT NULL DEFAULT false;
-- A token's own principal (below) is a users row that names its maker.
ALTER TABLE users ADD COLUMN token_of uuid REFERENCES users ON DELETE CASCADE;

CREATE TABLE totp_secrets (
  user_id uuid PRIMARY KEY REFERENCES users ON DELETE CASCADE,
  secret text NOT NULL,
  -- NULL until a first code proves the authenticator holds the secret.
  enabled timestamptz,
  -- The last time step accepted: a code is good once (RFC 6238 §5.2).
  last_step bigint NOT NULL DEFAULT 0,
  created timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE backup_codes (
  user_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  code_hash text NOT NULL,
  used timestamptz,
  PRIMARY KEY (user_id, code_hash)
);

-- A sign-in waiting for its second factor: the password was right, no code issued yet.
ALTER TABLE auth_flows ADD COLUMN pending_user_id uuid REFERENCES users ON DELETE CASCADE;
ALTER TABLE auth_flows ADD COLUMN pending_method text;

-- Role templates: named sets of a group's permission bits. group_id NULL: built in, for every group.
CREATE TABLE group_roles (
  role_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  group_id uuid REFERENCES groups ON DELETE CASCADE,
  name text NOT NULL,
  permissions bigint NOT NULL CHECK (permissions & 1 = 1 AND permissions <= 16383),
  created timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX group_roles_name_key
  ON group_roles (coalesce(group_id, '00000000-0000-0000-0000-000000000000'::uuid), lower(name));
INSERT INTO group_roles (role_id, group_id, name, permissions) VALUES
  ('00000000-0000-4000-8000-000000000001', NULL, 'Moderator', 67),
  ('00000000-0000-4000-8000-000000000002', NULL, 'Admin', 1015),
  ('00000000-0000-4000-8000-000000000003', NULL, 'Owner', 16383);

-- A member holding a role has the role's bits in group_users.permissions, kept there by these
-- triggers (so the views read one column): assigning a role copies its bits, editing a role reaches
-- every holder in the same statement, setting a member's bits by hand drops the role, and deleting a
-- role leaves its holders the bits they had.
ALTER TABLE group_users ADD COLUMN role_id uuid REFERENCES group_roles ON DELETE SET NULL;
CREATE INDEX group_users_role_idx ON group_users (role_id) WHERE role_id IS NOT NULL;

CREATE FUNCTION group_users_role_bits() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Depth 1: the statement is the API's own, not a role's change reaching its holders.
  IF TG_OP = 'UPDATE' AND pg_trigger_depth() = 1 AND NEW.role_id IS NOT DISTINCT FROM OLD.role_id
     AND NEW.permissions IS DISTINCT FROM OLD.permissions THEN
    NEW.role_id := NULL;
  ELSIF NEW.role_id IS NOT NULL THEN
    SELECT permissions INTO NEW.permissions FROM group_roles
     WHERE role_id = NEW.role_id AND (group_id IS NULL OR group_id = NEW.group_id);
    IF NOT FOUND THEN
      RAISE EXCEPTION 'role % is not one of group %', NEW.role_id, NEW.group_id USING ERRCODE = '23503';
    END IF;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER group_users_role_bits BEFORE INSERT OR UPDATE ON group_users
  FOR EACH ROW EXECUTE FUNCTION group_users_role_bits();

CREATE FUNCTION group_roles_reach_holders() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE group_users SET permissions = NEW.permissions WHERE role_id = NEW.role_id;
  RETURN NULL;
END $$;
CREATE TRIGGER group_roles_reach_holders AFTER UPDATE OF permissions ON group_roles
  FOR EACH ROW EXECUTE FUNCTION group_roles_reach_holders();

ALTER TABLE groups ADD COLUMN require_two_factor boolean NOT NULL DEFAULT false;

-- Scoped API tokens. A token limited to a group or a server acts as its own principal (a users
-- row, token_of its maker), so every permission check reaches it through the views below and
-- nothing else need know tokens exist; an unlimited one acts as its maker.
CREATE TABLE api_tokens (
  token_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  principal_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  name text NOT NULL,
  token_hash text NOT NULL UNIQUE,
  scopes text[] NOT NULL,
  group_id uuid REFERENCES groups ON DELETE CASCADE,
  service_id uuid REFERENCES services ON DELETE CASCADE,
  -- Bits the token may use at most: 1 for read only, every bit otherwise.
  mask bigint NOT NULL,
  expires timestamptz NOT NULL,
  created timestamptz NOT NULL DEFAULT now(),
  revoked timestamptz,
  last_used timestamptz,
  last_address text,
  CHECK (group_id IS NULL OR service_id IS NULL)
);
CREATE INDEX api_tokens_user_idx ON api_tokens (user_id, created DESC);
CREATE INDEX api_tokens_principal_idx ON api_tokens (principal_id);

-- A member's bits in a group: read only (membership) while the group requires a second factor the
-- member has not set up.
CREATE VIEW group_member_bits AS
SELECT gu.group_id, gu.user_id,
       CASE WHEN g.require_two_factor AND NOT u.second_factor THEN 1 ELSE gu.permissions END AS bits
FROM group_users gu
JOIN groups g ON g.group_id = gu.group_id
JOIN users u ON u.user_id = gu.user_id;

-- The live tokens with their own principal. Each view below adds a token's rows as its maker's
-- grants (LATERAL, so only that maker's are computed) cut to the token's group or server and mask.
CREATE VIEW token_principals AS
SELECT token_id, user_id AS maker_id, principal_id, group_id, service_id, mask
FROM api_tokens WHERE revoked IS NULL AND expires > now() AND principal_id <> user_id;

CREATE VIEW service_grants AS
  SELECT service_id, user_id, bit_or(bits) AS permissions
  FROM (
    SELECT s.service_id, s.user_id, 9007199254740991::bigint AS bits
    FROM services s WHERE NOT s.deleted
    UNION ALL
    SELECT gs.service_id, g.user_id, gs.permissions_mask & 16383
    FROM group_services gs JOIN groups g ON g.group_id = gs.group_id
    JOIN services s ON s.service_id = gs.service_id AND NOT s.deleted
    UNION ALL
    SELECT gs.service_id, mb.user_id, gs.permissions_mask & mb.bits & 16383
    FROM group_services gs JOIN group_member_bits mb ON mb.group_id = gs.group_id
    JOIN services s ON s.service_id = gs.service_id AND NOT s.deleted
  ) granted
  GROUP BY service_id, user_id;

CREATE OR REPLACE VIEW service_permissions AS
SELECT service_id, user_id, permissions FROM service_grants WHERE permissions & 1 = 1
UNION ALL
SELECT gr.service_id, t.principal_id, gr.permissions & t.mask
FROM token_principals t
CROSS JOIN LATERAL (SELECT * FROM service_grants g WHERE g.user_id = t.maker_id) gr
WHERE gr.permissions & t.mask & 1 = 1
  AND (t.service_id IS NULL OR t.service_id = gr.service_id)
  AND (t.group_id IS NULL OR EXISTS (SELECT 1 FROM group_services x
                                      WHERE x.group_id = t.group_id AND x.service_id = gr.service_id));

CREATE VIEW group_grants AS
  SELECT group_id, user_id, bit_or(bits) AS permissions
  FROM (
    SELECT g.group_id, g.user_id, 9007199254740991::bigint AS bits FROM groups g
    UNION ALL
    SELECT mb.group_id, mb.user_id, mb.bits & 16383 FROM group_member_bits mb
  ) granted
  GROUP BY group_id, user_id;

CREATE OR REPLACE VIEW group_permissions AS
SELECT group_id, user_id, permissions FROM group_grants
UNION ALL
SELECT gr.group_id, t.principal_id, gr.permissions & t.mask
FROM token_principals t
CROSS JOIN LATERAL (SELECT * FROM group_grants g WHERE g.user_id = t.maker_id AND g.group_id = t.group_id) gr;

CREATE VIEW bucket_grants AS
  SELECT bucket_id, user_id, bit_or(bits) AS permissions
  FROM (
    SELECT b.bucket_id, b.user_id, 9007199254740991::bigint AS bits FROM buckets b
    UNION ALL
    SELECT gb.bucket_id, g.user_id, gb.permissions_mask & 16383
    FROM group_buckets gb JOIN groups g ON g.group_id = gb.group_id
    UNION ALL
    SELECT gb.bucket_id, mb.user_id, gb.permissions_mask & mb.bits & 16383
    FROM group_buckets gb JOIN group_member_bits mb ON mb.group_id = gb.group_id
  ) granted
  GROUP BY bucket_id, user_id;

CREATE OR REPLACE VIEW bucket_permissions AS
SELECT bucket_id, user_id, permissions FROM bucket_grants WHERE permissions & 1 = 1
UNION ALL
SELECT gr.bucket_id, t.principal_id, gr.permissions & t.mask
FROM token_principals t
CROSS JOIN LATERAL (SELECT * FROM bucket_grants g WHERE g.user_id = t.maker_id) gr
WHERE gr.permissions & t.mask & 1 = 1
  AND EXISTS (SELECT 1 FROM group_buckets x WHERE x.group_id = t.group_id AND x.bucket_id = gr.bucket_id);

CREATE VIEW script_grants AS
  SELECT script_id, user_id, bit_or(bits) AS permissions
  FROM (
    SELECT sc.script_id, sc.user_id, 9007199254740991::bigint AS bits FROM scripts sc WHERE NOT sc.deleted
    UNION ALL
    SELECT gs.script_id, g.user_id, gs.permissions_mask & 16383
    FROM group_scripts gs JOIN groups g ON g.group_id = gs.group_id
    JOIN scripts sc ON sc.script_id = gs.script_id AND NOT sc.deleted
    UNION ALL
    SELECT gs.script_id, mb.user_id, gs.permissions_mask & mb.bits & 16383
    FROM group_scripts gs JOIN group_member_bits mb ON mb.group_id = gs.group_id
    JOIN scripts sc ON sc.script_id = gs.script_id AND NOT sc.deleted
  ) granted
  GROUP BY script_id, user_id;

CREATE OR REPLACE VIEW script_permissions AS
SELECT script_id, user_id, permissions FROM script_grants WHERE permissions & 1 = 1
UNION ALL
SELECT gr.script_id, t.principal_id, gr.permissions & t.mask
FROM token_principals t
CROSS JOIN LATERAL (SELECT * FROM script_grants g WHERE g.user_id = t.maker_id) gr
WHERE gr.permissions & t.mask & 1 = 1
  AND EXISTS (SELECT 1 FROM group_scripts x WHERE x.group_id = t.group_id AND x.script_id = gr.script_id);


-- Passkeys (WebAuthn): a second factor, or a sign-in in place of the password.
CREATE TABLE passkeys (
  passkey_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  -- The credential id (base64url) the authenticator names it by.
  credential_id text NOT NULL UNIQUE,
  public_key bytea NOT NULL,
  counter bigint NOT NULL DEFAULT 0,
  transports text[] NOT NULL DEFAULT '{}',
  name text NOT NULL,
  created timestamptz NOT NULL DEFAULT now(),
  last_used timestamptz
);
CREATE INDEX passkeys_user_idx ON passkeys (user_id);

-- A WebAuthn challenge handed out and not yet answered: an account's (adding a passkey) or a
-- sign-in flow's. Each is answered once.
CREATE TABLE passkey_challenges (
  challenge text PRIMARY KEY,
  user_id uuid REFERENCES users ON DELETE CASCADE,
  flow_id uuid REFERENCES auth_flows ON DELETE CASCADE,
  expires timestamptz NOT NULL,
  CHECK ((user_id IS NULL) <> (flow_id IS NULL))
);
CREATE INDEX passkey_challenges_expires_idx ON passkey_challenges (expires);
