-- Permission resolution of SENTINEL-API §7, the only place the server computes it; it mirrors
-- resolvePermissions() of src/domain/permissions.ts (a test holds the two equal).
-- Owner → every bit (2^53−1). Per group holding the resource: the group owner gets the link mask,
-- a member gets link mask AND the member's group bits. The results are OR-ed.

CREATE VIEW service_permissions AS
SELECT service_id, user_id, bit_or(bits) AS permissions
FROM (
  SELECT s.service_id, s.user_id, 9007199254740991::bigint AS bits
  FROM services s WHERE NOT s.deleted
  UNION ALL
  SELECT gs.service_id, g.user_id, gs.permissions_mask & 16383
  FROM group_services gs JOIN groups g ON g.group_id = gs.group_id
  JOIN services s ON s.service_id = gs.service_id AND NOT s.deleted
  UNION ALL
  SELECT gs.service_id, gu.user_id, gs.permissions_mask & gu.permissions & 16383
  FROM group_services gs JOIN group_users gu ON gu.group_id = gs.group_id
  JOIN services s ON s.service_id = gs.service_id AND NOT s.deleted
) grants
GROUP BY service_id, user_id
HAVING bit_or(bits) & 1 = 1;

CREATE VIEW group_permissions AS
SELECT group_id, user_id, bit_or(bits) AS permissions
FROM (
  SELECT g.group_id, g.user_id, 9007199254740991::bigint AS bits FROM groups g
  UNION ALL
  SELECT gu.group_id, gu.user_id, gu.permissions & 16383 FROM group_users gu
) grants
GROUP BY group_id, user_id;

CREATE VIEW bucket_permissions AS
SELECT bucket_id, user_id, bit_or(bits) AS permissions
FROM (
  SELECT b.bucket_id, b.user_id, 9007199254740991::bigint AS bits FROM buckets b
  UNION ALL
  SELECT gb.bucket_id, g.user_id, gb.permissions_mask & 16383
  FROM group_buckets gb JOIN groups g ON g.group_id = gb.group_id
  UNION ALL
  SELECT gb.bucket_id, gu.user_id, gb.permissions_mask & gu.permissions & 16383
  FROM group_buckets gb JOIN group_users gu ON gu.group_id = gb.group_id
) grants
GROUP BY bucket_id, user_id
HAVING bit_or(bits) & 1 = 1;

CREATE VIEW script_permissions AS
SELECT script_id, user_id, bit_or(bits) AS permissions
FROM (
  SELECT sc.script_id, sc.user_id, 9007199254740991::bigint AS bits FROM scripts sc WHERE NOT sc.deleted
  UNION ALL
  SELECT gs.script_id, g.user_id, gs.permissions_mask & 16383
  FROM group_scripts gs JOIN groups g ON g.group_id = gs.group_id
  JOIN scripts sc ON sc.script_id = gs.script_id AND NOT sc.deleted
  UNION ALL
  SELECT gs.script_id, gu.user_id, gs.permissions_mask & gu.permissions & 16383
  FROM group_scripts gs JOIN group_users gu ON gu.group_id = gs.group_id
  JOIN scripts sc ON sc.script_id = gs.script_id AND NOT sc.deleted
) grants
GROUP BY script_id, user_id
HAVING bit_or(bits) & 1 = 1;
