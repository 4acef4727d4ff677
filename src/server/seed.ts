// Demo data: an admin with a yearly Sentinel plan and servers, a group holding two of them, and a
// moderator who is a group member with limited bits. Idempotent: existing rows are kept.

import { REQUIRED_POLICIES } from '../domain/constants.ts';
import { Perm } from '../domain/permissions.ts';
import { productName, SENTINEL_PRODUCT_ID } from './billing/subscriptions.ts';
import { hashPassword, hashToken, randomToken } from './crypto.ts';
import type { Db, Queryable } from './db/db.ts';

export interface SeedOptions {
  email: string;
  password: string;
  servers: number;
}

export interface SeedResult {
  userId: string;
  servers: { serviceId: string; name: string; accessKey: string }[];
  moderator: { userId: string; email: string; password: string };
  groupId: string;
}

export const DEMO_SERVER_NAMES = [
  'Island PvE',
  'Scorched PvP',
  'Aberration Cluster',
  'Ragnarok PvE',
  'Extinction Hardcore',
  'Valguero PvP',
];
export const MODERATOR_EMAIL = 'moderator@palisade.local';
export const DEMO_GROUP_NAME = 'Demo Cluster';
/** What the moderator holds in the demo group, and what the group allows on its servers. */
export const MODERATOR_BITS = Perm.Membership | Perm.ControlServices;
export const GROUP_SERVICE_MASK = Perm.Membership | Perm.ControlServices | Perm.EditServices;

const serverName = (i: number) =>
  DEMO_SERVER_NAMES[i % DEMO_SERVER_NAMES.length] +
  (i >= DEMO_SERVER_NAMES.length ? ` ${Math.floor(i / DEMO_SERVER_NAMES.length) + 1}` : '');

async function ensureUser(tx: Queryable, email: string, username: string, password: string): Promise<string> {
  const found = await tx.query<{ user_id: string }>(
    'SELECT user_id FROM users WHERE lower(email) = lower($1)',
    [email],
  );
  if (found.rows[0]) return found.rows[0].user_id;
  const { rows } = await tx.query<{ user_id: string }>(
    'INSERT INTO users (username, email, password_hash) VALUES ($1, $2, $3) RETURNING user_id',
    [username, email, await hashPassword(password)],
  );
  await tx.query(
    'INSERT INTO user_policies (user_id, policy) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING',
    [rows[0].user_id, [...REQUIRED_POLICIES]],
  );
  return rows[0].user_id;
}

export async function seedDemo(db: Db, opts: SeedOptions): Promise<SeedResult> {
  return db.transaction(async (tx) => {
    const userId = await ensureUser(tx, opts.email, 'Demo Admin', opts.password);
    const modId = await ensureUser(tx, MODERATOR_EMAIL, 'Moderator', opts.password);

    await tx.query(
      `INSERT INTO subscriptions (user_id, product_id, product_name, product_game_id, expiration, units_allowed,
              customer_email, plan_period, period_start)
       SELECT $1, $3, $4, 'Sentinel', now() + interval '1 year', $2, $5, 'yearly', now()
        WHERE NOT EXISTS (SELECT 1 FROM subscriptions WHERE user_id = $1 AND product_game_id = 'Sentinel')`,
      [
        userId,
        Math.max(10, opts.servers),
        SENTINEL_PRODUCT_ID,
        productName(Math.max(10, opts.servers)),
        opts.email,
      ],
    );

    const existing = await tx.query<{ service_id: string; name: string; access_key: string }>(
      'SELECT service_id, name, access_key FROM services WHERE user_id = $1 AND NOT deleted ORDER BY created, name',
      [userId],
    );
    const servers = existing.rows.map((r) => ({
      serviceId: r.service_id,
      name: r.name,
      accessKey: r.access_key,
    }));
    for (let i = servers.length; i < opts.servers; i++) {
      const accessKey = randomToken();
      const name = serverName(i);
      const { rows } = await tx.query<{ service_id: string }>(
        `INSERT INTO services (user_id, game_id, name, platform, access_key, access_key_hash, created)
         VALUES ($1, 'ArkSA', $2, 'Universal', $3, $4, now() + make_interval(secs => $5)) RETURNING service_id`,
        [userId, name, accessKey, hashToken(accessKey), i / 1000],
      );
      servers.push({ serviceId: rows[0].service_id, name, accessKey });
    }

    const group = await tx.query<{ group_id: string }>(
      `INSERT INTO groups (user_id, name, color) VALUES ($1, $2, 'Purple')
       ON CONFLICT (user_id, name) DO UPDATE SET name = EXCLUDED.name RETURNING group_id`,
      [userId, DEMO_GROUP_NAME],
    );
    const groupId = group.rows[0].group_id;
    for (const s of servers.slice(0, 2)) {
      await tx.query(
        `INSERT INTO group_services (group_id, service_id, permissions_mask) VALUES ($1, $2, $3)
         ON CONFLICT (group_id, service_id) DO NOTHING`,
        [groupId, s.serviceId, GROUP_SERVICE_MASK],
      );
    }
    await tx.query(
      `INSERT INTO group_users (group_id, user_id, permissions) VALUES ($1, $2, $3)
       ON CONFLICT (group_id, user_id) DO NOTHING`,
      [groupId, modId, MODERATOR_BITS],
    );

    return {
      userId,
      servers: servers.slice(0, Math.max(opts.servers, 0)),
      moderator: { userId: modId, email: MODERATOR_EMAIL, password: opts.password },
      groupId,
    };
  });
}
