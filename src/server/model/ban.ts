// Bans (SENTINEL-API §3.14): group bans and server bans share one shape, described once per class,
// and what a change of bans tells the game servers (`banplayer` / `unbanplayer`, §6).

import { performance } from 'node:perf_hooks';
import type { BanLine } from '../../domain/bans.ts';
import { gameIdProvider } from '../../domain/gameIds.ts';
import { Perm } from '../../domain/permissions.ts';
import type { ServerContext } from '../context.ts';
import type { Connection, Queryable } from '../db/db.ts';
import { gameProvidersSql } from './gameKind.ts';
import { identifiersOfGameIds, PLAYER_NAME, playerAccounts, playerFlags } from './player.ts';
import { epoch } from './service.ts';

export interface BanClass {
  /** Class path under /sentinel. */
  path: 'groupBans' | 'serviceBans';
  table: 'group_bans' | 'service_bans';
  idColumn: string;
  idProp: string;
  /** The group or server the ban applies to. */
  ownerColumn: 'group_id' | 'service_id';
  ownerProp: 'groupId' | 'serviceId';
  /** Permission view holding the caller's bits on the owner. */
  permissionView: 'group_permissions' | 'service_permissions';
  /** Bits needed to create, edit or remove (ours: see docs/api.md). */
  writeBits: number;
  ownerJoin: string;
  ownerName: string;
}

export const GROUP_BANS: BanClass = {
  path: 'groupBans',
  table: 'group_bans',
  idColumn: 'group_ban_id',
  idProp: 'groupBanId',
  ownerColumn: 'group_id',
  ownerProp: 'groupId',
  permissionView: 'group_permissions',
  writeBits: Perm.ManageBans,
  ownerJoin: 'JOIN groups o ON o.group_id = b.group_id',
  ownerName: 'o.name AS "groupName"',
};

export const SERVICE_BANS: BanClass = {
  path: 'serviceBans',
  table: 'service_bans',
  idColumn: 'service_ban_id',
  idProp: 'serviceBanId',
  ownerColumn: 'service_id',
  ownerProp: 'serviceId',
  permissionView: 'service_permissions',
  writeBits: Perm.ControlServices,
  ownerJoin: 'JOIN services o ON o.service_id = b.service_id AND NOT o.deleted',
  ownerName: 'coalesce(o.nickname, o.name) AS "serviceDisplayName"',
};

/** A ban's columns, with the flags the account `caller` (an SQL expression; none: no flags) put on its player. */
export const banColumns = (k: BanClass, caller = 'NULL') => `
  b.${k.idColumn} AS "${k.idProp}", b.${k.ownerColumn} AS "${k.ownerProp}", ${k.ownerName},
  b.player_id AS "playerId", ${PLAYER_NAME} AS "playerName", ${playerFlags(caller)} AS "playerFlags",
  ${playerAccounts('b.player_id')} AS "playerAccounts",
  b.issuer_id AS "issuerId", u.username AS "issuerUsername",
  u.username || '#' || left(u.user_id::text, 8) AS "issuerUsernameFull",
  floor(${epoch('b.expiration')})::bigint AS expiration, b.comments`;

export const banFrom = (k: BanClass) =>
  `${k.table} b ${k.ownerJoin} JOIN players p ON p.player_id = b.player_id LEFT JOIN users u ON u.user_id = b.issuer_id`;

export async function getBan<T>(db: Queryable, k: BanClass, id: string): Promise<T | null> {
  const { rows } = await db.query<T>(
    `SELECT ${banColumns(k)} FROM ${banFrom(k)} WHERE b.${k.idColumn} = $1`,
    [id],
  );
  return rows[0] ?? null;
}

/** Bans by id, in one query. */
export async function getBans<T = Record<string, unknown>>(
  db: Queryable,
  k: BanClass,
  ids: string[],
): Promise<Map<string, T>> {
  const { rows } = await db.query<Record<string, unknown>>(
    `SELECT ${banColumns(k)} FROM ${banFrom(k)} WHERE b.${k.idColumn} = ANY($1::uuid[])`,
    [ids],
  );
  return new Map(rows.map((r) => [r[k.idProp] as string, r as T]));
}

/** The services a ban on this group or server reaches. */
export async function servicesReached(db: Queryable, k: BanClass, ownerId: string): Promise<string[]> {
  if (k.ownerColumn === 'service_id') return [ownerId];
  const { rows } = await db.query<{ service_id: string }>(
    'SELECT service_id FROM group_services WHERE group_id = $1',
    [ownerId],
  );
  return rows.map((r) => r.service_id);
}

/** Active bans reaching a service, as `EOSID` and expiration (null permanent), one row per id. */
const ACTIVE_ON_SERVICE = `
  WITH b AS (
    SELECT player_id, expiration FROM service_bans WHERE service_id = $1
    UNION ALL
    SELECT gb.player_id, gb.expiration FROM group_bans gb
      JOIN group_services gs ON gs.group_id = gb.group_id WHERE gs.service_id = $1)
  SELECT lower(i.identifier) AS "eosId",
         CASE WHEN bool_or(b.expiration IS NULL) THEN NULL ELSE floor(${epoch('max(b.expiration)')}) END AS expiration
    FROM b JOIN player_identifiers i ON i.player_id = b.player_id AND i.provider = 'EOS'
   WHERE b.expiration IS NULL OR b.expiration > now()
   GROUP BY lower(i.identifier) ORDER BY 1`;

const ACTIVE_ON_GROUP = `
  SELECT lower(i.identifier) AS "eosId",
         CASE WHEN bool_or(b.expiration IS NULL) THEN NULL ELSE floor(${epoch('max(b.expiration)')}) END AS expiration
    FROM group_bans b JOIN player_identifiers i ON i.player_id = b.player_id AND i.provider = 'EOS'
   WHERE b.group_id = $1 AND (b.expiration IS NULL OR b.expiration > now())
   GROUP BY lower(i.identifier) ORDER BY 1`;

export async function activeBanList(
  db: Queryable,
  owner: 'service' | 'group',
  id: string,
): Promise<{ eosId: string; expiration: number | null }[]> {
  const { rows } = await db.query<{ eosId: string; expiration: number | null }>(
    owner === 'service' ? ACTIVE_ON_SERVICE : ACTIVE_ON_GROUP,
    [id],
  );
  return rows.map((r) => ({
    eosId: r.eosId,
    expiration: r.expiration === null ? null : Number(r.expiration),
  }));
}

/**
 * Stores a batch of an imported list (game ids in their stored form, each once) as bans of `k` on
 * `ownerId` by `issuerId`: the known player of each game id, or an unseen player recorded under
 * it, named as the list names them. The bans already held are skipped; the answer is the players
 * newly banned. One statement, so one transaction and one round trip a batch: as a transaction
 * of six (its BEGIN and COMMIT among them), storing a 30,000-line import took its thread 1.3 s,
 * now 0.8 s (its database process's 2.5–3 s, about the same: the rows' own work).
 */
export async function storeImportedBans(
  db: Queryable,
  k: BanClass,
  ownerId: string,
  issuerId: string,
  batch: readonly BanLine[],
): Promise<string[]> {
  const { rows } = await db.query<{ player_id: string }>(
    `WITH b AS (
       SELECT * FROM unnest($3::text[], $4::text[], $5::text[], $6::float8[], $7::text[])
         AS b(game_id, name, provider, expiration, comments)),
     known AS (
       SELECT DISTINCT ON (lower(identifier)) lower(identifier) AS game_id, player_id
         FROM ${identifiersOfGameIds('$3')}),
     unseen AS (
       SELECT b.*, gen_random_uuid() AS player_id FROM b WHERE b.game_id NOT IN (SELECT game_id FROM known)),
     new_players AS (
       INSERT INTO players (player_id, name)
       SELECT player_id, coalesce(name, game_id || ' (Unseen Player)') FROM unseen),
     new_identifiers AS (
       INSERT INTO player_identifiers (player_id, provider, identifier, name)
       SELECT player_id, provider, game_id, coalesce(name, '') FROM unseen)
     INSERT INTO ${k.table} (${k.ownerColumn}, player_id, issuer_id, expiration, comments)
     SELECT $1, t.player_id, $2, to_timestamp(b.expiration), b.comments
       FROM b JOIN (SELECT game_id, player_id FROM known UNION ALL SELECT game_id, player_id FROM unseen) t USING (game_id)
     ON CONFLICT DO NOTHING RETURNING player_id`,
    [
      ownerId,
      issuerId,
      batch.map((b) => b.gameId),
      batch.map((b) => b.name),
      batch.map((b) => gameIdProvider(b.gameId)),
      batch.map((b) => b.expiration),
      batch.map((b) => (b.name ? `Imported ban for ${b.name}` : 'Imported ban')),
    ],
  );
  return rows.map((r) => r.player_id);
}

/**
 * Bans are handled this many at a time: a 30,000-line import done in one go held the server's
 * thread for 100–350 ms at a time (building and escaping its arrays, reading 30,000 rows back,
 * collecting that garbage), and every console's request waited that long. The pause after each
 * batch keeps the import's share of the processor (BAN_PAUSE_FACTOR); the batch's size sets how
 * long each burst of it holds a core. An import into a server with no game connected (its
 * database work alone) raised the consoles' p99 as much as one into a linked server, so the
 * bursts, not the game's commands, were what the consoles felt: with batches of 1,000, 100
 * consoles' p99 was 1.6× their p99 between imports (four rounds each, 95 against 58 ms); with
 * 200, 1.2× (79 against 64 ms). On a quiet machine, whose consoles answer in 7 ms at p99, the
 * same bursts weigh more: with 200, 1.7× and 1.9× (12.1 and 13.6 ms, two runs of the bans
 * bench); with 50, 1.5× and 1.6× (11.3 and 11.1 ms), a 30,000-line import taking 50 s instead of
 * 32 on that machine.
 */
export const BAN_BATCH = 50;

/**
 * After each batch, a pause this many times as long as the machine was busy with it: a list of
 * bans is done in the background of the consoles' requests, with at most an eighth of the
 * processor time it needs, not as fast as two cores allow. Imports back to back, each batch
 * followed at once by the next, took the server's thread, a database process and the game's to
 * themselves: the consoles' median rose 6× and their p99 7.6×; with a pause three times the
 * batch, 1.5–2×; seven times, 1.0–1.3×. Processor time, not the batch's length, is what is paced:
 * the busy time of the thread doing it (the server's, telling the game servers, where the
 * consoles' own requests during a batch count, so on a busier server it slows down more; an
 * import's own process, storing) and, where the database runs on this machine, the time of its
 * database process (batchCost). That process runs at the least priority
 * (Db.background), but two cores at work share more than their turns (caches, the memory bus, a
 * host's hyperthreads), and it used more processor time than the thread gave the import (1.9 s
 * against 1.2 s for 30,000 bans); counted, an import under a hundred consoles' load takes 40-50 s
 * instead of about 22. A game server works on its own machine, so its time is not counted. A
 * list of one batch has none.
 */
export const BAN_PAUSE_FACTOR = 7;

/** Starts measuring a batch's busy time: the answer says how much so far, in ms. */
export type BusyMeter = () => () => number;

/**
 * The calling thread's busy time, and, when `db` is a connection of its own (Db.background), its
 * database process's where that is this machine's.
 */
export function batchCost(db?: Queryable | Connection): BusyMeter {
  const cpuMs = db && 'cpuMs' in db ? () => db.cpuMs() : () => 0;
  return () => {
    const start = performance.eventLoopUtilization();
    const cpu = cpuMs();
    return () => performance.eventLoopUtilization(start).active + Math.max(0, cpuMs() - cpu);
  };
}

/**
 * `each` on `items` BAN_BATCH at a time, in order, pausing after each (BAN_PAUSE_FACTOR); `first`
 * is the index of the batch's first item. A batch that answers a BatchEnd has the next wait
 * for it too: commands sent to game servers are answered before more are sent, their answers'
 * handling counted in the batch's busy time.
 */
export async function inBanBatches<T>(
  items: readonly T[],
  each: (batch: T[], first: number) => unknown,
  meter: BusyMeter = batchCost(),
): Promise<void> {
  for (let i = 0; i < items.length; i += BAN_BATCH) {
    const busy = meter();
    const end = (await each(items.slice(i, i + BAN_BATCH), i)) as BatchEnd | undefined;
    if (i + BAN_BATCH >= items.length) break;
    await end?.settled;
    await new Promise((r) => setTimeout(r, busy() * BAN_PAUSE_FACTOR));
  }
}

/** What a batch may answer it leaves running: the next batch starts once it has settled. */
export interface BatchEnd {
  settled: Promise<unknown>;
}

/**
 * Tells each connected service of `serviceIds` whether each player is banned there now:
 * `banplayer <id>` (the game kicks them and refuses rejoins) or `unbanplayer <id>`, with the id
 * the server's game prints (model/gameKind.ts).
 * Every command is handed to the links before this returns. Between batches the game servers'
 * answers are waited for, so a long list reaches them at the pace they answer and the pace of
 * inBanBatches; the last batch's are not, and a server that is offline reads its list from
 * bans.txt when it next starts. Commands that fail are said once a batch.
 */
export async function tellServices(
  ctx: { db: Queryable; links: ServerContext['links'] },
  playerIds: string[],
  serviceIds: string[],
): Promise<void> {
  if (serviceIds.length === 0 || playerIds.length === 0) return;
  const services = [...new Set(serviceIds)];
  await inBanBatches(
    [...new Set(playerIds)],
    async (players) => {
      const { rows } = await ctx.db.query<{ service_id: string; game_id: string; banned: boolean }>(
        `SELECT s.id AS service_id, lower(i.identifier) AS game_id,
              EXISTS (SELECT 1 FROM service_bans sb WHERE sb.service_id = s.id AND sb.player_id = i.player_id
                        AND (sb.expiration IS NULL OR sb.expiration > now()))
           OR EXISTS (SELECT 1 FROM group_bans gb JOIN group_services gs ON gs.group_id = gb.group_id
                       WHERE gs.service_id = s.id AND gb.player_id = i.player_id
                         AND (gb.expiration IS NULL OR gb.expiration > now())) AS banned
         FROM unnest($1::uuid[]) AS s(id)
         -- The database knows which servers are linked to any process of a scaled-out API.
         JOIN services sv ON sv.service_id = s.id AND sv.is_connected
         CROSS JOIN player_identifiers i
        -- The id each server's game understands: SteamID64 on Evolved, EOS on Ascended and the link.
        WHERE i.player_id = ANY($2::uuid[]) AND i.provider = ANY(${gameProvidersSql('s.id')})`,
        [services, players],
      );
      const commands = rows.map((r) => `${r.banned ? 'banplayer' : 'unbanplayer'} ${r.game_id}`);
      const sent = rows.map((r, i) =>
        ctx.links.sendCommand(r.service_id, { type: 'admin', command: commands[i] }),
      );
      const settled = Promise.allSettled(sent).then((answers) => {
        const failed = answers.flatMap((a, i) => (a.status === 'rejected' ? [i] : []));
        if (failed.length === 0) return;
        const [i] = failed;
        console.error(
          `bans: ${failed.length} of ${sent.length} commands failed, ${commands[i]} on ${rows[i].service_id}:`,
          ((answers[i] as PromiseRejectedResult).reason as Error).message,
        );
      });
      return { settled };
    },
    batchCost(ctx.db),
  );
}
