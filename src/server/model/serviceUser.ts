// Who has access to a service (SENTINEL-API §3.15, `/sentinel/serviceUsers`): one row per user
// holding any bit on it, with the resolved bits. The id is derived from serviceId and userId so
// it can be filtered in SQL: UUID-shaped md5 (version 3 layout) rather than the original's v5,
// which Postgres cannot compute without an extension.

const HASH = `md5(su.service_id::text || ':' || su.user_id::text)`;
export const SERVICE_USER_ID = `(substr(${HASH}, 1, 12) || '3' || substr(${HASH}, 14, 3) || '8' || substr(${HASH}, 18, 15))::uuid`;

export const SERVICE_USER_COLUMNS = `
  ${SERVICE_USER_ID} AS "serviceUserId", su.service_id AS "serviceId",
  coalesce(s.nickname, s.name) AS "serviceDisplayName", su.user_id AS "userId", u.username,
  u.username || '#' || left(u.user_id::text, 8) AS "usernameFull", su.permissions`;

export const SERVICE_USER_FROM = `service_permissions su
  JOIN services s ON s.service_id = su.service_id AND NOT s.deleted
  JOIN users u ON u.user_id = su.user_id`;
