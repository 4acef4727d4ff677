// What game events change in the world tables (players, identifiers, sessions, names, survivors,
// tribes and their members, dinos), applied in the transaction that stores the event.
// Ids of survivors, tribes and dinos are the mod's (UUIDs it keeps in the save); a row the mod
// names is created the first time an event describes it fully, and only ever touched on the
// service that sent the event, so one game server cannot rewrite another's world.

import { randomUUID } from 'node:crypto';
import { isDinoColors, UUID } from '../../domain/constants.ts';
import { type GameIdProvider, gameIdProvider, normalGameId } from '../../domain/gameIds.ts';
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
const uuid = (v: unknown): string | null => (typeof v === 'string' && UUID.test(v) ? v.toLowerCase() : null);
const int = (v: unknown): number | null =>
  typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : null;
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const bool = (v: unknown): boolean | null => (typeof v === 'boolean' ? v : null);
const DINO_NUMBER = /^\d{1,20}$/;
const GENDERS = ['None', 'Female', 'Male'];

/** Creates the tribe when the event describes it (id, number, name); renames it when it exists. */
async function upsertTribe(
  tx: Queryable,
  serviceId: string,
  meta: Record<string, unknown>,
): Promise<string | null> {
  const tribeId = uuid(meta.tribeId);
  if (!tribeId) return null;
  const name = text(meta.tribeName);
  const number = int(meta.tribeNumber);
  if (name && number !== null)
    await tx.query(
      `INSERT INTO tribes (tribe_id, service_id, tribe_number, name) VALUES ($1, $2, $3, $4)
       ON CONFLICT DO NOTHING`,
      [tribeId, serviceId, number, name],
    );
  const { rows } = await tx.query('SELECT 1 FROM tribes WHERE tribe_id = $1 AND service_id = $2', [
    tribeId,
    serviceId,
  ]);
  return rows.length > 0 ? tribeId : null;
}

/** The survivor the event is about, created when it carries characterId, specimenId and a player. */
async function upsertCharacter(
  tx: Queryable,
  serviceId: string,
  playerId: string | null,
  meta: Record<string, unknown>,
): Promise<string | null> {
  const characterId = uuid(meta.characterId);
  if (!characterId) return null;
  const specimenId = int(meta.specimenId);
  const name = text(meta.characterName) ?? text(meta.playerName);
  if (playerId && specimenId !== null && name)
    await tx.query(
      `INSERT INTO characters (character_id, service_id, player_id, specimen_id, name) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT DO NOTHING`,
      [characterId, serviceId, playerId, specimenId, name],
    );
  const { rows } = await tx.query('SELECT 1 FROM characters WHERE character_id = $1 AND service_id = $2', [
    characterId,
    serviceId,
  ]);
  return rows.length > 0 ? characterId : null;
}

/** Moves a survivor to a tribe (or out of every tribe), keeping the membership history. */
async function setCharacterTribe(tx: Queryable, characterId: string, tribeId: string | null, at: number) {
  await tx.query(
    `UPDATE tribe_characters SET left_time = greatest(joined, to_timestamp($3))
      WHERE character_id = $1 AND left_time IS NULL AND tribe_id IS DISTINCT FROM $2`,
    [characterId, tribeId, at],
  );
  if (tribeId)
    await tx.query(
      `INSERT INTO tribe_characters (tribe_id, character_id, joined)
       SELECT $2, $1, to_timestamp($3)
        WHERE NOT EXISTS (SELECT 1 FROM tribe_characters WHERE character_id = $1 AND tribe_id = $2 AND left_time IS NULL)
       ON CONFLICT DO NOTHING`,
      [characterId, tribeId, at],
    );
  await tx.query('UPDATE characters SET tribe_id = $2 WHERE character_id = $1', [characterId, tribeId]);
}

/**
 * The dino the event is about. Dino events carry the dino's description (dinoNumber64,
 * dinoSpecies, dinoSpeciesPath, dinoLevel, dinoGender, dinoAge, dinoName, dinoColors), so a dino is created by
 * the first event that mentions it, even when the one that made it was never seen.
 */
async function upsertDino(
  tx: Queryable,
  serviceId: string,
  meta: Record<string, unknown>,
): Promise<string | null> {
  const dinoId = uuid(meta.dinoId);
  if (!dinoId) return null;
  const number =
    typeof meta.dinoNumber64 === 'string' && DINO_NUMBER.test(meta.dinoNumber64) ? meta.dinoNumber64 : null;
  const species = text(meta.dinoSpecies);
  const path = text(meta.dinoSpeciesPath) ?? text(meta.dinoPath);
  if (number && species && path)
    await tx.query(
      `INSERT INTO dinos (dino_id, service_id, dino_number64, species, species_path) VALUES ($1, $2, $3::numeric, $4, $5)
       ON CONFLICT DO NOTHING`,
      [dinoId, serviceId, number, species, path],
    );
  const gender =
    typeof meta.dinoGender === 'string' && GENDERS.includes(meta.dinoGender) ? meta.dinoGender : null;
  const colors = isDinoColors(meta.dinoColors) ? meta.dinoColors : null;
  const { rows } = await tx.query(
    `UPDATE dinos SET name = coalesce($3, name), level = coalesce($4, level), age = coalesce($5, age),
            gender = coalesce($6, gender), colors = coalesce($7::jsonb, colors)
      WHERE dino_id = $1 AND service_id = $2 RETURNING 1`,
    [
      dinoId,
      serviceId,
      typeof meta.dinoName === 'string' ? meta.dinoName : null,
      int(meta.dinoLevel),
      num(meta.dinoAge),
      gender,
      colors && JSON.stringify(colors),
    ],
  );
  return rows.length > 0 ? dinoId : null;
}

/** Column changes each dino event makes, beyond keeping the description current. */
/**
 * The table's entry for an event name the game chose: never one inherited from Object (an event
 * named "constructor" would otherwise find Object, and a dino change would write columns named by
 * the event's own metadata keys).
 */
const ownEntry = <T>(table: Record<string, T>, name: string): T | undefined =>
  Object.hasOwn(table, name) ? table[name] : undefined;

const DINO_CHANGES: Record<string, (meta: Record<string, unknown>) => Record<string, unknown>> = {
  dinoTamed: (m) => ({ tribe_id: uuid(m.tribeId) ?? undefined, status: 'Deployed' }),
  dinoCreated: (m) => ({
    tribe_id: uuid(m.tribeId) ?? undefined,
    status: 'Deployed',
    is_sterilized: bool(m.isSterilized) ?? false,
  }),
  dinoClaimed: (m) => ({ tribe_id: uuid(m.tribeId) ?? undefined }),
  dinoUnclaimed: () => ({ tribe_id: null }),
  dinoTribeChanged: (m) => ({ tribe_id: uuid(m.newTribeId) ?? undefined }),
  dinoRenamed: (m) => ({ name: typeof m.newDinoName === 'string' ? m.newDinoName : null }),
  // A cryopod backup, when the game kept one, is what a restore brings back.
  dinoDied: (m) => ({
    status: 'Dead',
    restore_data: typeof m.restoreData === 'object' ? m.restoreData : null,
  }),
  dinoFrozen: () => ({ status: 'Frozen' }),
  dinoUnfrozen: (m) => ({ status: 'Deployed', has_cryo_sickness: bool(m.hasCryoSickness) ?? false }),
  dinoUploaded: () => ({ status: 'Uploaded' }),
  dinoDownloaded: () => ({ status: 'Deployed' }),
  dinoMatured: () => ({ age: 1 }),
  dinoSterilized: () => ({ is_sterilized: true }),
  dinoUnsterilized: () => ({ is_sterilized: false }),
  dinoRestored: (m) => ({
    status: 'Deployed',
    restore_data: null,
    has_cryo_sickness: false,
    tribe_id: uuid(m.tribeId) ?? undefined,
  }),
};

async function applyDinoEvent(tx: Queryable, serviceId: string, e: GameEvent): Promise<void> {
  const dinoId = await upsertDino(tx, serviceId, e.metadata);
  const change = ownEntry(DINO_CHANGES, e.eventName);
  if (!dinoId || !change) return;
  // undefined means "unchanged"; so does a tribe this service does not know.
  const values = Object.fromEntries(Object.entries(change(e.metadata)).filter(([, v]) => v !== undefined));
  if (values.tribe_id && !(await upsertTribe(tx, serviceId, { ...e.metadata, tribeId: values.tribe_id })))
    delete values.tribe_id;
  if (values.name === null) delete values.name;
  const columns = Object.keys(values);
  if (columns.length === 0) return;
  const sets = columns.map((c, i) => `${c} = $${i + 2}${c === 'restore_data' ? '::jsonb' : ''}`).join(', ');
  await tx.query(`UPDATE dinos SET ${sets} WHERE dino_id = $1`, [
    dinoId,
    ...columns.map((c) =>
      c === 'restore_data' && values[c] !== null ? JSON.stringify(values[c]) : values[c],
    ),
  ]);
}

/**
 * The game id an event names its player by: `eosId` (the mod, an Ascended server) or `steamId`
 * (an Evolved server over RCON), in its stored form.
 */
function eventGameId(meta: Record<string, unknown>): { provider: GameIdProvider; id: string } | null {
  for (const given of [text(meta.eosId), text(meta.steamId)]) {
    const provider = given ? gameIdProvider(given) : null;
    if (given && provider) return { provider, id: normalGameId(given) };
  }
  return null;
}

/** The player an event is about: by game id first (it is what the game knows), else by Sentinel id. */
async function resolvePlayer(
  tx: Queryable,
  meta: Record<string, unknown>,
  create: boolean,
): Promise<string | null> {
  const gameId = eventGameId(meta);
  const given = text(meta.playerId);
  const id = given && UUID.test(given) ? given.toLowerCase() : null;
  // What RCON reports: a game id and no player id. Found or made in one round trip, not three.
  if (gameId && !id && create) return foundOrMade(tx, gameId, text(meta.playerName));
  if (gameId) {
    const { rows } = await tx.query<{ player_id: string }>(
      'SELECT player_id FROM player_identifiers WHERE provider = $1 AND identifier = $2',
      [gameId.provider, gameId.id],
    );
    if (rows[0]) return rows[0].player_id;
  }
  if (id) {
    const { rows } = await tx.query('SELECT 1 FROM players WHERE player_id = $1', [id]);
    if (rows.length > 0 || !create) {
      if (rows.length > 0 && gameId) await addIdentifier(tx, id, gameId, text(meta.playerName) ?? '');
      return rows.length > 0 ? id : null;
    }
  }
  if (!create) return null;
  const { rows } = await tx.query<{ player_id: string }>(
    // Two game servers may see one new player at once; the second insert finds the first's row.
    `INSERT INTO players (player_id, name) VALUES (coalesce($1::uuid, gen_random_uuid()), $2)
     ON CONFLICT (player_id) DO NOTHING RETURNING player_id`,
    [id, text(meta.playerName) ?? 'Unknown Player'],
  );
  const playerId = rows[0]?.player_id ?? (id as string);
  if (gameId) await addIdentifier(tx, playerId, gameId, text(meta.playerName) ?? '');
  return playerId;
}

/**
 * The player of a game id, made (with the id) when none has it. Two servers seeing one new player
 * at once both try: the second's identifier waits for the first's and, taken, answers with the
 * first's player, and the second's player row, written only for an identifier it made, is never
 * written. (Both rows in one statement: its foreign key is checked at the statement's end.)
 */
async function foundOrMade(
  tx: Queryable,
  gameId: { provider: GameIdProvider; id: string },
  name: string | null,
): Promise<string> {
  const { rows } = await tx.query<{ player_id: string }>(
    `WITH found AS (SELECT player_id FROM player_identifiers WHERE provider = $1 AND identifier = $2),
          named AS (INSERT INTO player_identifiers (player_id, provider, identifier, name)
                    SELECT $4::uuid, $1, $2, coalesce($3, '') WHERE NOT EXISTS (SELECT FROM found)
                    ON CONFLICT (provider, identifier) DO UPDATE SET name = EXCLUDED.name
                    RETURNING player_id),
          made AS (INSERT INTO players (player_id, name)
                   SELECT player_id, coalesce($3, 'Unknown Player') FROM named WHERE player_id = $4::uuid)
     SELECT player_id FROM found UNION ALL SELECT player_id FROM named`,
    [gameId.provider, gameId.id, name, randomUUID()],
    'player-found-or-made',
  );
  return rows[0]!.player_id;
}

async function addIdentifier(
  tx: Queryable,
  playerId: string,
  gameId: { provider: GameIdProvider; id: string },
  name: string,
): Promise<void> {
  await tx.query(
    `INSERT INTO player_identifiers (player_id, provider, identifier, name) VALUES ($1, $2, $3, $4)
     ON CONFLICT (provider, identifier) DO UPDATE SET name = EXCLUDED.name`,
    [playerId, gameId.provider, gameId.id, name],
  );
}

/**
 * WITH parts that keep a player's previous name in the history when the statement's UPDATE of
 * players sets `$2` (player `$1`, at `$3`). The old name comes from the statement's snapshot, not
 * a FOR UPDATE read: a locking read skips a row the same statement updates, which silently
 * dropped every history entry.
 */
const KEEP_OLD_NAME = `old AS (SELECT name FROM players WHERE player_id = $1 AND name <> $2),
  kept AS (INSERT INTO player_name_changes (player_id, name, change_time) SELECT $1, name, to_timestamp($3) FROM old)`;

async function renamePlayer(tx: Queryable, playerId: string, name: string | null, at: number): Promise<void> {
  if (!name) return;
  await tx.query(`WITH ${KEEP_OLD_NAME} UPDATE players SET name = $2 WHERE player_id = $1 AND name <> $2`, [
    playerId,
    name,
    at,
  ]);
}

/**
 * Each row an event may name, by the metadata property that names it, and what else coming back
 * sets: a dino deleted when its tribe was destroyed kept the tribe (tribeDestroyed).
 */
const REPORTED = [
  { table: 'tribes', id: 'tribe_id', props: ['tribeId', 'newTribeId'], also: '' },
  { table: 'characters', id: 'character_id', props: ['characterId'], also: '' },
  {
    table: 'dinos',
    id: 'dino_id',
    props: ['dinoId'],
    also: ', tribe_id = (SELECT t.tribe_id FROM tribes t WHERE t.tribe_id = dinos.tribe_id AND NOT t.deleted)',
  },
] as const;

/**
 * SPEC §4: a deleted tribe, survivor or dino reappears when its server reports it again, that is
 * when one of its events names it. Only deleted rows of this service are written.
 */
async function undeleteReported(tx: Queryable, serviceId: string, meta: Record<string, unknown>) {
  for (const r of REPORTED) {
    const ids = reportedIds(meta, r);
    if (ids.length === 0) continue;
    await tx.query(
      `UPDATE ${r.table} SET deleted = false${r.also} WHERE ${r.id} = ANY($1::uuid[]) AND service_id = $2 AND deleted`,
      [ids, serviceId],
    );
  }
}

type WorldEffect = (tx: Queryable, serviceId: string, e: GameEvent) => Promise<Record<string, unknown>>;

/**
 * What each kind of event does to the world beside its line, returning its metadata with
 * `playerId` replaced by the Sentinel player id, so log filters by player find it. Dino events
 * are DINO_CHANGES.
 */
const WORLD_EFFECTS: Record<string, WorldEffect> = {
  playerJoined: async (tx, serviceId, e) => {
    const meta = e.metadata;
    const playerId = (await resolvePlayer(tx, meta, true))!;
    const cd = (typeof meta.connectionDetails === 'object' && meta.connectionDetails) || {};
    const d = cd as Record<string, unknown>;
    // The name (its history kept), the connection details and the end of any
    // session still open here, in one statement: a join was five round trips, and a server
    // coming back over RCON reports every player at once. The new session follows: the open
    // one's unique key would refuse it in the same statement.
    await tx.query(
      `WITH ${KEEP_OLD_NAME},
            closed AS (UPDATE player_sessions SET disconnect_time = to_timestamp($3)
                        WHERE player_id = $1 AND service_id = $4 AND disconnect_time IS NULL)
       UPDATE players SET name = coalesce($2, name), ip_fingerprint = coalesce($5, ip_fingerprint),
              ip_lookup_success = $6, country_code = $7, continent_code = $8, timezone = $9, is_using_vpn = $10
        WHERE player_id = $1`,
      [
        playerId,
        text(meta.playerName),
        e.time,
        serviceId,
        text(meta.ipFingerprint),
        typeof d.success === 'boolean' ? d.success : null,
        text(d.countryCode),
        text(d.continentCode),
        text(d.timezone),
        typeof d.vpn === 'boolean' ? d.vpn : null,
      ],
      'player-joined',
    );
    await tx.query(
      'INSERT INTO player_sessions (player_id, service_id, connect_time) VALUES ($1, $2, to_timestamp($3))',
      [playerId, serviceId, e.time],
      'session-opened',
    );
    return { ...meta, playerId };
  },
  playerLeft: async (tx, serviceId, e) => {
    const meta = e.metadata;
    const playerId = await resolvePlayer(tx, meta, false);
    if (!playerId) return meta;
    await tx.query(
      `UPDATE player_sessions SET disconnect_time = greatest(connect_time, to_timestamp($3))
        WHERE player_id = $1 AND service_id = $2 AND disconnect_time IS NULL`,
      [playerId, serviceId, e.time],
    );
    return { ...meta, playerId };
  },
  playerRenamed: async (tx, serviceId, e) => {
    const meta = e.metadata;
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
  },
  playerSpawned: async (tx, serviceId, e) => {
    const meta = e.metadata;
    const playerId = await resolvePlayer(tx, meta, true);
    const tribeId = await upsertTribe(tx, serviceId, meta);
    const characterId = await upsertCharacter(tx, serviceId, playerId, meta);
    if (characterId && tribeId) await setCharacterTribe(tx, characterId, tribeId, e.time);
    return playerId ? { ...meta, playerId } : meta;
  },
  tribeCreated: async (tx, serviceId, e) => {
    const meta = e.metadata;
    const tribeId = await upsertTribe(tx, serviceId, meta);
    const characterId = await upsertCharacter(tx, serviceId, null, meta);
    if (tribeId && characterId) await setCharacterTribe(tx, characterId, tribeId, e.time);
    return meta;
  },
  // Over RCON, the admin is named by the id the game printed; the mod names them by player id.
  adminCommand: async (tx, _serviceId, e) => {
    const playerId = await resolvePlayer(tx, e.metadata, false);
    return playerId ? { ...e.metadata, playerId } : e.metadata;
  },
  // The tribe log names a tribe by its number and name (RCON); the line goes on that tribe.
  tribeLog: async (tx, serviceId, e) => {
    const number = int(e.metadata.tribeNumber);
    const name = text(e.metadata.tribeName);
    if (number === null || !name) return e.metadata;
    const { rows } = await tx.query<{ tribe_id: string }>(
      `INSERT INTO tribes (service_id, tribe_number, name) VALUES ($1, $2, $3)
       ON CONFLICT (service_id, tribe_number) DO UPDATE SET name = EXCLUDED.name RETURNING tribe_id`,
      [serviceId, number, name],
    );
    return { ...e.metadata, tribeId: rows[0]!.tribe_id };
  },
  tribeRenamed: async (tx, serviceId, e) => {
    const meta = e.metadata;
    const tribeId = uuid(meta.tribeId);
    const name = text(meta.newTribeName);
    if (tribeId && name)
      await tx.query('UPDATE tribes SET name = $3 WHERE tribe_id = $1 AND service_id = $2', [
        tribeId,
        serviceId,
        name,
      ]);
    return meta;
  },
  tribeDestroyed: async (tx, serviceId, e) => {
    const meta = e.metadata;
    const tribeId = uuid(meta.tribeId);
    if (!tribeId) return meta;
    const { rows } = await tx.query(
      'UPDATE tribes SET deleted = true WHERE tribe_id = $1 AND service_id = $2 RETURNING 1',
      [tribeId, serviceId],
    );
    if (rows.length === 0) return meta;
    const members = await tx.query<{ character_id: string }>(
      'SELECT character_id FROM characters WHERE tribe_id = $1',
      [tribeId],
    );
    for (const m of members.rows) await setCharacterTribe(tx, m.character_id, null, e.time);
    // Live dinos only, which dinos_tribe_display_idx holds: every dino was a 95 ms scan of a
    // million. A deleted one lets go of the tribe when it comes back (undeleteReported).
    await tx.query('UPDATE dinos SET tribe_id = NULL WHERE tribe_id = $1 AND NOT deleted', [tribeId]);
    return meta;
  },
  playerTribeChanged: async (tx, serviceId, e) => {
    const meta = e.metadata;
    const characterId = await upsertCharacter(tx, serviceId, null, meta);
    if (!characterId) return meta;
    const tribeId =
      meta.newTribeId === null
        ? null
        : await upsertTribe(tx, serviceId, { ...meta, tribeId: meta.newTribeId });
    await setCharacterTribe(tx, characterId, tribeId, e.time);
    return meta;
  },
  clusterIdChanged: async (tx, serviceId, e) => {
    // SPEC §4: the permission to change cluster id is used up by the change it allowed.
    await tx.query('UPDATE services SET allow_cluster_id_change = false WHERE service_id = $1', [serviceId]);
    return e.metadata;
  },
};

/** The ids of rows this event names that a deletion may have hidden (see undeleteReported). */
const reportedIds = (meta: Record<string, unknown>, r: (typeof REPORTED)[number]) =>
  r.props.map((p) => uuid(meta[p])).filter((id): id is string => id !== null);

/**
 * Whether applyGameEvent writes anything for this event. Most lines (chat, the game's own log)
 * write nothing but themselves, and are stored without a transaction of their own.
 */
export const touchesWorld = (e: GameEvent): boolean =>
  ownEntry(WORLD_EFFECTS, e.eventName) !== undefined ||
  ownEntry(DINO_CHANGES, e.eventName) !== undefined ||
  REPORTED.some((r) => reportedIds(e.metadata, r).length > 0);

/**
 * Locks, in one order, every player a batch of events names, before any of its writes. Two servers
 * storing joins of the same players in other orders deadlocked on their rows: PostgreSQL takes a
 * second to see it and undoes one store, so a busy cluster crawled. Keys are hashed and taken in
 * hash order, so a collision only serialises two stores, never reverses their order.
 */
export async function lockPlayersOf(tx: Queryable, events: GameEvent[]): Promise<void> {
  const keys = new Set<string>();
  for (const e of events) {
    if (!touchesWorld(e)) continue;
    const gameId = eventGameId(e.metadata);
    if (gameId) keys.add(`${gameId.provider}:${gameId.id}`);
    const playerId = uuid(e.metadata.playerId);
    if (playerId) keys.add(playerId);
  }
  // One key cannot close a cycle among players.
  if (keys.size < 2) return;
  await tx.query(
    `SELECT pg_advisory_xact_lock(${PLAYER_LOCKS}, h)
       FROM (SELECT DISTINCT hashtext(k) AS h FROM unnest($1::text[]) AS k ORDER BY h) AS ordered`,
    [[...keys]],
  );
}

/** The first key of the players' advisory locks, apart from other uses of them. */
const PLAYER_LOCKS = 4701;

/** Applies the event's side effects and returns its metadata as the line stores it (WORLD_EFFECTS). */
export async function applyGameEvent(
  tx: Queryable,
  serviceId: string,
  e: GameEvent,
): Promise<Record<string, unknown>> {
  // A tribe the game disbands stays gone, whatever else its last event says.
  if (e.eventName !== 'tribeDestroyed') await undeleteReported(tx, serviceId, e.metadata);
  const effect = ownEntry(WORLD_EFFECTS, e.eventName);
  if (effect) return effect(tx, serviceId, e);
  if (ownEntry(DINO_CHANGES, e.eventName)) await applyDinoEvent(tx, serviceId, e);
  return e.metadata;
}

/**
 * Closes every open player session of a service (it disconnected, so nobody is playing), at `at`
 * (epoch seconds: when they were last seen) or now.
 */
export async function closeServiceSessions(tx: Queryable, serviceId: string, at?: number): Promise<void> {
  await tx.query(
    `UPDATE player_sessions SET disconnect_time = greatest(connect_time, coalesce(to_timestamp($2), now()))
      WHERE service_id = $1 AND disconnect_time IS NULL`,
    [serviceId, at ?? null],
  );
}
