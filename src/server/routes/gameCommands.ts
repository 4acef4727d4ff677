// POST /sentinel/gameCommands (SENTINEL-API §2.3): one or more commands, each to a service or to
// every service of a group. Every target is checked before anything is sent. Unlike the original
// (204, results never seen), the answer lists what each service replied; when no target was
// connected at all it is 412 serviceNotConnected, with the same list in `details`.

import { randomUUID } from 'node:crypto';
import {
  GAME_COMMAND_BITS,
  type GameCommandResponse,
  type GameCommandResult,
  type GameCommandType,
} from '../../domain/gameCommands.ts';
import { Msg } from '../../domain/messages.ts';
import type { ServerContext } from '../context.ts';
import { readJson } from '../http/body.ts';
import { ApiException, badRequest } from '../http/errors.ts';
import { type ApiRouter, json } from '../http/router.ts';
import { checkBulkSize } from '../model/bulkBody.ts';
import { hasTarget, servicesForTarget, type TargetService } from '../model/commandTarget.ts';
import { type Delivery, deliver } from '../model/gameCommand.ts';
import { gameIdOn } from '../model/gameKind.ts';

const WRITE = ['sentinel:read', 'sentinel:write'];

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const nonEmpty = (v: unknown) => typeof v === 'string' && v.trim() !== '';
const isNumber = (v: unknown) => typeof v === 'number' && Number.isFinite(v);

/**
 * A teleport goes somewhere (SPEC §5): at least one of x, y, z as a number, or a survivor to stand
 * next to. `relative` makes the numbers offsets from where the survivor or dino stands.
 */
function teleportProblem(item: Record<string, unknown>): string | null {
  if (item.relative !== undefined && typeof item.relative !== 'boolean')
    return 'relative must be true or false.';
  const toSurvivor = item.toCharacterId !== undefined || item.toSpecimenId !== undefined;
  return toSurvivor || [item.x, item.y, item.z].some(isNumber) ? null : Msg.teleportNoValues;
}

/** Fields a type cannot do without; the rest pass through to the game untouched. */
const REQUIRED: Partial<Record<GameCommandType, string>> = {
  admin: 'command',
  chat: 'message',
  broadcast: 'message',
  kickPlayer: 'playerId',
};

/** The submitted objects, checked in the order of SPEC §8 "Run command". */
export function commandsOf(body: unknown): Record<string, unknown>[] {
  if (!Array.isArray(body) && !isObject(body))
    throw badRequest('notObjectOrArray', 'Send a command object or an array of them.');
  const list: unknown[] = Array.isArray(body) ? body : [body];
  if (list.length === 0) throw badRequest('noObjects', 'No commands were submitted.');
  checkBulkSize(list.length);
  for (const item of list) {
    if (!isObject(item)) throw badRequest('nonObjectMember', 'Every member of the array must be an object.');
    if (!hasTarget(item)) throw badRequest('missingTargetId', 'Each command needs a serviceId or a groupId.');
    if (!nonEmpty(item.type)) throw badRequest('missingType', 'Each command needs a type.');
    if (!Object.hasOwn(GAME_COMMAND_BITS, item.type as string))
      throw badRequest('badType', `Unknown command type ${String(item.type)}.`, { type: item.type });
    if (item.type === 'teleportDino' || item.type === 'teleportCharacter') {
      const problem = teleportProblem(item);
      if (problem) throw badRequest('noValues', problem);
    }
    const field = REQUIRED[item.type as GameCommandType];
    if (field && !nonEmpty(item[field]))
      throw badRequest('missingProperties', `Missing property ${field}.`, { missing: [field] });
  }
  return list as Record<string, unknown>[];
}

function payload(item: Record<string, unknown>): Record<string, unknown> {
  const { serviceId: _s, groupId: _g, ...command } = item;
  if (command.type === 'chat') return { senderName: 'Server', languageCode: 'en', ...command };
  return command;
}

/**
 * A kick names a player (by player id or game id); each server is sent `kickplayer` with the id
 * its game knows them by (Steam on Evolved over RCON, EOS on Ascended and the mod's link).
 */
async function kick(ctx: ServerContext, t: TargetService, d: Delivery): Promise<GameCommandResult> {
  const who = await gameIdOn(ctx.db, String(d.command.playerId), t.serviceId);
  if (!who)
    return {
      serviceId: t.serviceId,
      serviceDisplayName: t.displayName,
      type: 'kickPlayer',
      ok: false,
      code: 'playerNotFound',
      message: Msg.kickUnknownPlayer,
    };
  const r = await deliver(ctx, t, { ...d, command: { type: 'admin', command: `kickplayer ${who.gameId}` } });
  return { ...r, type: 'kickPlayer' };
}

export function registerGameCommandRoutes(router: ApiRouter, ctx: ServerContext): void {
  router.authed('POST', '/sentinel/gameCommands', WRITE, async (c, caller) => {
    const items = commandsOf(await readJson(c));
    const plans: { targets: TargetService[]; delivery: Delivery }[] = [];
    for (const item of items) {
      const bits = GAME_COMMAND_BITS[item.type as GameCommandType];
      plans.push({
        targets: await servicesForTarget(ctx.db, caller.userId, item, bits),
        delivery: {
          command: payload(item),
          userId: caller.userId,
          groupingKey: item.groupId !== undefined ? randomUUID() : null,
        },
      });
    }
    const results = await Promise.all(
      plans.flatMap((p) =>
        p.targets.map((t) =>
          p.delivery.command.type === 'kickPlayer' ? kick(ctx, t, p.delivery) : deliver(ctx, t, p.delivery),
        ),
      ),
    );
    const response: GameCommandResponse = { results };
    if (results.length > 0 && results.every((r) => r.code === 'serviceNotConnected'))
      throw new ApiException(412, Msg.serviceNotConnected, 'serviceNotConnected', response);
    return json(c, response);
  });
}
