// What each action type does (src/domain/scripts/actions.ts): most become a game command over the
// link, as the console's own commands do; buckets are written here, a subroutine is a new trigger,
// the chat-community notice is an https post. Options arrive checked by actionProblem.

import { channelFor } from '../../domain/api.ts';
import { UUID } from '../../domain/constants.ts';
import { hasAll, Perm } from '../../domain/permissions.ts';
import type { Action, ActionType } from '../../domain/scripts/index.ts';
import type { ServerContext } from '../context.ts';
import { gameIdOn } from '../model/gameKind.ts';
import { holdsAll } from '../model/permissions.ts';
import { guardedRequest, type HttpOptions } from '../net/guardedHttp.ts';

export interface RunEnv {
  ctx: ServerContext;
  serviceId: string;
  /**
   * Whose rights the run acts with: whoever attached the script to this server or its group (the
   * tester's user in a test). Game actions need their control of the server, buckets their access,
   * bans are issued in their name; the script's author has no part in it.
   */
  actorId: string;
  scriptName: string;
  http: HttpOptions;
  /** Starts the subroutine now, or resolves once it is queued to start after its delay. */
  subroutine(name: string, delayMs: number): Promise<void>;
  /** Whether the actor controls the server, once asked (mayControl). */
  control?: Promise<boolean>;
}

type Options = Record<string, unknown>;
const str = (v: unknown) =>
  typeof v === 'string' ? v : v === undefined || v === null ? undefined : String(v);
const defined = (o: Options) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null));

async function playerCommand(env: RunEnv, o: Options, verb: 'kickplayer' | 'banplayer') {
  const player = await gameIdOn(env.ctx.db, String(o.playerId), env.serviceId);
  if (!player) throw new Error(`No player ${String(o.playerId)} is known.`);
  if (verb === 'banplayer' && player.playerId) await recordBan(env, player.playerId, o);
  return { type: 'admin', command: `${verb} ${player.gameId}` };
}

/** A ban on this server, or on one of its groups when the script names the group. */
async function recordBan(env: RunEnv, playerId: string, o: Options): Promise<void> {
  const target = str(o.groupOrServerId)?.toLowerCase() ?? env.serviceId;
  const expiration = typeof o.lengthDays === 'number' && o.lengthDays > 0 ? o.lengthDays : null;
  const comments = str(o.reason) || `Banned by the script ${env.scriptName}.`;
  if (target === env.serviceId) {
    await env.ctx.db.query(
      `INSERT INTO service_bans (service_id, player_id, issuer_id, expiration, comments)
       VALUES ($1, $2, $3, now() + $4::float8 * interval '1 day', $5)
       ON CONFLICT (service_id, player_id) DO UPDATE SET expiration = EXCLUDED.expiration, comments = EXCLUDED.comments`,
      [env.serviceId, playerId, env.actorId, expiration, comments],
    );
    return;
  }
  // A group's ban reaches every server of the group: the actor must control the group too.
  if (!(await holdsAll(env.ctx.db, 'group', target, env.actorId, Perm.ControlServices)))
    throw new Error(`Whoever attached the script cannot ban players from group ${target}.`);
  const { rows } = await env.ctx.db.query(
    `INSERT INTO group_bans (group_id, player_id, issuer_id, expiration, comments)
     SELECT gs.group_id, $2, $3, now() + $4::float8 * interval '1 day', $5 FROM group_services gs
      WHERE gs.group_id = $6::uuid AND gs.service_id = $1
     ON CONFLICT (group_id, player_id) DO UPDATE SET expiration = EXCLUDED.expiration, comments = EXCLUDED.comments
     RETURNING 1`,
    [env.serviceId, playerId, env.actorId, expiration, comments, UUID.test(target) ? target : null],
  );
  if (rows.length === 0) throw new Error(`${target} is neither this server nor one of its groups.`);
}

async function bucketAccess(env: RunEnv, bucketId: unknown, bits: number): Promise<string> {
  const id = str(bucketId) ?? '';
  const { rows } = UUID.test(id)
    ? await env.ctx.db.query<{ permissions: string }>(
        'SELECT permissions FROM bucket_permissions WHERE bucket_id = $1 AND user_id = $2',
        [id, env.actorId],
      )
    : { rows: [] };
  if (!rows[0] || !hasAll(Number(rows[0].permissions), bits))
    throw new Error(
      `Whoever attached the script cannot ${bits === Perm.Membership ? 'read' : 'change'} bucket ${id}.`,
    );
  return id;
}

const bucketPlayer = (v: unknown) => {
  const id = str(v);
  if (!id) return null;
  if (!UUID.test(id)) throw new Error(`${id} is not a player id.`);
  return id;
};

export async function getBucketValue(env: RunEnv, bucketId: unknown, key: unknown, playerId: unknown) {
  const id = await bucketAccess(env, bucketId, Perm.Membership);
  const { rows } = await env.ctx.db.query<{ value: string }>(
    `SELECT value FROM bucket_values WHERE bucket_id = $1 AND lower(key) = lower($2)
        AND player_id IS NOT DISTINCT FROM $3::uuid`,
    [id, String(key), bucketPlayer(playerId)],
  );
  return rows[0]?.value ?? null;
}

/** The bucket's Data tab follows a script's writes as it follows the console's (SENTINEL-API §4). */
const valueUpdated = (env: RunEnv, bucketId: string) =>
  env.ctx.publisher.publish([channelFor('buckets', bucketId)], 'valueUpdated', '');

async function setBucketValue(env: RunEnv, o: Options): Promise<void> {
  const id = await bucketAccess(env, o.bucketId, Perm.EditBuckets);
  await env.ctx.db.query(
    `INSERT INTO bucket_values (bucket_id, player_id, key, value) VALUES ($1, $2::uuid, $3, $4)
     ON CONFLICT (bucket_id, coalesce(player_id, '00000000-0000-0000-0000-000000000000'), lower(key))
     DO UPDATE SET value = EXCLUDED.value`,
    [id, bucketPlayer(o.playerId), String(o.key), String(o.value)],
  );
  await valueUpdated(env, id);
}

async function clearBucketValue(env: RunEnv, o: Options): Promise<void> {
  const id = await bucketAccess(env, o.bucketId, Perm.EditBuckets);
  await env.ctx.db.query(
    `DELETE FROM bucket_values WHERE bucket_id = $1 AND lower(key) = lower($2) AND player_id IS NOT DISTINCT FROM $3::uuid`,
    [id, String(o.key), bucketPlayer(o.playerId)],
  );
  await valueUpdated(env, id);
}

interface LootLine {
  itemPath: string;
  quantity?: number;
  quality?: number;
  chance?: number;
}

/** Rolls each line of a loot list by its chance. */
function rollLoot(spec: string, random: () => number): LootLine[] {
  const lines = JSON.parse(spec) as unknown;
  if (!Array.isArray(lines)) throw new Error('lootSpec must be a list.');
  return lines.flatMap((l) => {
    if (typeof l !== 'object' || l === null || typeof (l as LootLine).itemPath !== 'string')
      throw new Error('Each loot line needs an itemPath.');
    const line = l as LootLine;
    return random() < (line.chance ?? 1)
      ? [{ itemPath: line.itemPath, quantity: line.quantity ?? 1, quality: line.quality }]
      : [];
  });
}

const GIVE_STATS = ['armor', 'durability', 'damage', 'hypothermal', 'hyperthermal'] as const;
/** Stat indices of SENTINEL-API §2.3 giveItem. */
const STAT_INDEX: Record<(typeof GIVE_STATS)[number], number> = {
  armor: 1,
  durability: 2,
  damage: 3,
  hypothermal: 5,
  hyperthermal: 7,
};

/** The game command an action becomes, or null when it is done without the game. */
async function commandFor(env: RunEnv, type: ActionType, o: Options): Promise<Options | null> {
  switch (type) {
    case 'stopProcessing':
      return null;
    case 'banPlayer':
      return playerCommand(env, o, 'banplayer');
    case 'kickPlayer':
      return playerCommand(env, o, 'kickplayer');
    case 'sendChat': {
      const to = str(o.recipientType) ?? 'Everyone';
      return {
        type: 'chat',
        message: o.message,
        senderName: str(o.senderName) || 'Server',
        source: 'Script',
        ...(to === 'Everyone'
          ? {}
          : { recipientType: to, [to === 'Tribe' ? 'tribeId' : 'characterId']: o.recipient }),
      };
    }
    case 'giveItem':
    case 'giveCustomItem':
      return defined({
        type: 'giveItem',
        characterId: o.characterId,
        itemPath: o.itemPath,
        quantity: o.quantity ?? 1,
        quality: o.quality,
        asBlueprint: o.asBlueprint,
        minRandomQuality: o.minRandomQuality,
        respectStatClamps: o.respectStatClamps,
        itemRating: o.itemRating,
        stats:
          type === 'giveCustomItem'
            ? GIVE_STATS.filter((s) => typeof o[s] === 'number').map((s) => ({
                index: STAT_INDEX[s],
                value: o[s],
              }))
            : undefined,
      });
    case 'setBucketValue':
      await setBucketValue(env, o);
      return null;
    case 'clearBucketValue':
      await clearBucketValue(env, o);
      return null;
    case 'renameSurvivor':
      return { type: 'renamePlayer', characterId: o.characterId, newName: o.newName };
    case 'runAdminCommand':
      return { type: 'admin', command: o.adminCommand };
    case 'notifyChatCommunity': {
      const r = await guardedRequest(
        'POST',
        o.webhookUrl,
        { content: o.discordMessage },
        { 'Content-Type': 'application/json' },
        env.http,
      );
      if (r.status >= 300) throw new Error(`The chat community answered ${r.status}.`);
      return null;
    }
    case 'createDino':
      return defined({
        type: 'giveDino',
        characterId: o.characterId,
        dinoPath: o.dinoPath,
        name: o.name,
        level: o.level,
        age: o.age,
        isFemale: o.isFemale,
        isSterilized: o.isSterilized,
      });
    case 'teleportSurvivor':
      return {
        type: 'teleportCharacter',
        characterId: o.characterId,
        x: o.x,
        y: o.y,
        z: o.z,
        relative: o.relative === true,
      };
    case 'teleportDino':
      return {
        type: 'teleportDino',
        dinoId: o.dinoId,
        x: o.x,
        y: o.y,
        z: o.z,
        relative: o.relative === true,
      };
    case 'killSurvivor':
      return { type: 'killCharacter', characterId: o.characterId };
    case 'runSubroutine':
      await env.subroutine(String(o.subroutineName), typeof o.delay === 'number' ? o.delay : 0);
      return null;
    case 'destroyInventoryItem':
      return { type: 'destroyItem', itemPath: o.itemPath };
    case 'toggleBuff':
      return { type: 'toggleBuff', characterId: o.targetId, mode: o.mode, buffPath: o.buffPath };
    case 'giveLoot':
      return {
        type: 'giveLoot',
        recipientType: o.recipientType,
        [o.recipientType === 'Tribe' ? 'tribeId' : 'characterId']: o.recipient,
        items: rollLoot(String(o.lootSpec), Math.random),
      };
  }
}

/**
 * Takes one action. The work that is not the game's is done before this resolves; the game
 * command is sent at once, in call order, and `sent` settles when the game answers.
 */
/** Actions done without the game, each checked on its own (buckets) or reaching nothing of the owner's. */
const WITHOUT_THE_GAME = new Set<ActionType>([
  'stopProcessing',
  'setBucketValue',
  'clearBucketValue',
  'notifyChatCommunity',
  'runSubroutine',
]);

/**
 * The game actions of a run need its actor's control of the server, asked once a run, and the
 * answer kept as the run's handlers are (ctx.reads, until the next write request): a query per run
 * was half the database's statements at a thousand runs a second. Taking a right away is a write
 * request, so no run started after it ends acts on the old answer.
 */
async function mayControl(env: RunEnv): Promise<void> {
  env.control ??= env.ctx.reads.setting(`control:${env.serviceId}\u0000${env.actorId}`, () =>
    holdsAll(env.ctx.db, 'service', env.serviceId, env.actorId, Perm.ControlServices),
  );
  if (!(await env.control))
    throw new Error('Whoever attached the script cannot control this server, so it takes no game action.');
}

export async function perform(env: RunEnv, action: Action): Promise<{ sent: Promise<unknown> | null }> {
  if (!WITHOUT_THE_GAME.has(action.type)) await mayControl(env);
  const command = await commandFor(env, action.type, action.options);
  if (!command) return { sent: null };
  const sent = env.ctx.links.sendCommand(env.serviceId, command);
  sent.catch(() => {});
  return { sent };
}
