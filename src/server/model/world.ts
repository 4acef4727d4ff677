// What game events change in the world tables (players, identifiers, sessions, names), applied in
// the transaction that stores the event.

import { EOS_ID, UUID } from '../../domain/constants.ts';
import type { Queryable } from '../db/db.ts';

export interface GameEvent {
  eventName: string;
  time: number;
  type: string;
  level: string;
  message: string;
  metadata: Record<string, unknown>;
}

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);

/** The player an event is about: by EOS id first (it is what the game knows), else by Sentinel id. */
async function resolvePlayer(
  tx: Queryable,
  meta: Record<string, unknown>,
  create: boolean,
): Promise<string | null> {
  const eos = text(meta.eosId);
  const eosId = eos && EOS_ID.test(eos) ? eos.toLowerCase() : null;
  if (eosId) {
    const { rows } = await tx.query<{ player_id: string }>(
      `SELECT player_id FROM player_identifiers WHERE provider = 'EOS' AND identifier = $1`,
      [eosId],
    );
    if (rows[0]) return rows[0].player_id;
  }
  const given = text(meta.playerId);
  const id = given && UUID.test(given) ? given.toLowerCase() : null;
  if (id) {
    const { rows } = await tx.query('SELECT 1 FROM players WHERE player_id = $1', [id]);
    if (rows.length > 0 || !create) {
      if (rows.length > 0 && eosId) await addIdentifier(tx, id, eosId, text(meta.playerName) ?? '');
      return rows.length > 0 ? id : null;
    }
  }
  if (!create) return null;
  const { rows } = await tx.query<{ player_id: string }>(
    'INSERT INTO players (player_id, name) VALUES (coalesce($1::uuid, gen_random_uuid()), $2) RETURNING player_id',
    [id, text(meta.playerName) ?? 'Unknown Player'],
  );
  const playerId = rows[0].player_id;
  if (eosId) await addIdentifier(tx, playerId, eosId, text(meta.playerName) ?? '');
  return playerId;
}

async function addIdentifier(tx: Queryable, playerId: string, eosId: string, name: string): Promise<void> {
  await tx.query(
    `INSERT INTO player_identifiers (player_id, provider, identifier, name) VALUES ($1, 'EOS', $2, $3)
     ON CONFLICT (provider, identifier) DO UPDATE SET name = EXCLUDED.name`,
    [playerId, eosId, name],
  );
}

/** Keeps the previous name in the history when it changes. */
async function renamePlayer(tx: Queryable, playerId: string, name: string | null, at: number): Promise<void> {
  if (!name) return;
  await tx.query(
    `WITH old AS (SELECT name FROM players WHERE player_id = $1 AND name <> $2 FOR UPDATE),
          hist AS (INSERT INTO player_name_changes (player_id, name, change_time)
                   SELECT $1, name, to_timestamp($3) FROM old)
     UPDATE players SET name = $2 WHERE player_id = $1 AND name <> $2`,
    [playerId, name, at],
  );
}

/**
 * Applies the event's side effects and returns its metadata with `playerId` replaced by the
 * Sentinel player id, so log filters by player find it.
 */
export async function applyGameEvent(
  tx: Queryable,
  serviceId: string,
  e: GameEvent,
): Promise<Record<string, unknown>> {
  const meta = e.metadata;
  switch (e.eventName) {
    case 'playerJoined': {
      const playerId = (await resolvePlayer(tx, meta, true))!;
      await renamePlayer(tx, playerId, text(meta.playerName), e.time);
      const cd = (typeof meta.connectionDetails === 'object' && meta.connectionDetails) || {};
      const d = cd as Record<string, unknown>;
      await tx.query(
        `UPDATE players SET ip_fingerprint = coalesce($2, ip_fingerprint), ip_lookup_success = $3,
                country_code = $4, continent_code = $5, timezone = $6, is_using_vpn = $7
          WHERE player_id = $1`,
        [
          playerId,
          text(meta.ipFingerprint),
          typeof d.success === 'boolean' ? d.success : null,
          text(d.countryCode),
          text(d.continentCode),
          text(d.timezone),
          typeof d.vpn === 'boolean' ? d.vpn : null,
        ],
      );
      await tx.query(
        `UPDATE player_sessions SET disconnect_time = to_timestamp($3)
          WHERE player_id = $1 AND service_id = $2 AND disconnect_time IS NULL`,
        [playerId, serviceId, e.time],
      );
      await tx.query(
        'INSERT INTO player_sessions (player_id, service_id, connect_time) VALUES ($1, $2, to_timestamp($3))',
        [playerId, serviceId, e.time],
      );
      return { ...meta, playerId };
    }
    case 'playerLeft': {
      const playerId = await resolvePlayer(tx, meta, false);
      if (!playerId) return meta;
      await tx.query(
        `UPDATE player_sessions SET disconnect_time = greatest(connect_time, to_timestamp($3))
          WHERE player_id = $1 AND service_id = $2 AND disconnect_time IS NULL`,
        [playerId, serviceId, e.time],
      );
      return { ...meta, playerId };
    }
    case 'playerRenamed': {
      const playerId = await resolvePlayer(tx, meta, false);
      const characterId = text(meta.characterId);
      if (characterId && UUID.test(characterId) && text(meta.newName))
        await tx.query('UPDATE characters SET name = $2 WHERE character_id = $1 AND service_id = $3', [
          characterId,
          meta.newName,
          serviceId,
        ]);
      if (!playerId) return meta;
      await renamePlayer(tx, playerId, text(meta.newName), e.time);
      return { ...meta, playerId };
    }
    case 'clusterIdChanged':
      // SPEC §4: the permission to change cluster id is used up by the change it allowed.
      await tx.query('UPDATE services SET allow_cluster_id_change = false WHERE service_id = $1', [serviceId]);
      return meta;
    default:
      return meta;
  }
}

/** Closes every open player session of a service (it disconnected, so nobody is playing). */
export async function closeServiceSessions(tx: Queryable, serviceId: string): Promise<void> {
  await tx.query(
    'UPDATE player_sessions SET disconnect_time = now() WHERE service_id = $1 AND disconnect_time IS NULL',
    [serviceId],
  );
}
