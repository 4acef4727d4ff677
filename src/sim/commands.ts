// How the simulated mod obeys game commands (SENTINEL-API §2.3/§6): admin console commands, chat
// and broadcasts from the web, locate, teleport, rename, dino edits, give item / give dino,
// restore and wiping wild dinos, and what scripts do (kill a survivor, destroy an item everywhere,
// buffs, loot). Effects on the world come back as events, in the order they happen.
// Survivors are named by characterId or specimenId; dinos by dinoId or dinoId1/dinoId2 (the two
// halves of the dino number).

import { isKnownPath } from '../domain/blueprints/index.ts';
import type { CommandReply, GameCommand, LinkEvent } from '../domain/link.ts';
import { playerTypes } from './behaviours.ts';
import * as ev from './events.ts';
import { speciesOfPath } from './species.ts';
import { type Dino, latLon, type Position, type Survivor, type World } from './world.ts';

export interface CommandOutcome {
  reply: CommandReply;
  events: LinkEvent[];
}

const ok = (result: unknown, events: LinkEvent[] = []): CommandOutcome => ({
  reply: { ok: true, result },
  events,
});
const fail = (error: string): CommandOutcome => ({ reply: { ok: false, error }, events: [] });

type AdminHandler = (world: World, arg: string) => CommandOutcome;

/** What the game answers to a console command it runs without printing anything. */
const NO_RESPONSE = 'Server received, But no response!!';

function needsId(run: (world: World, eosId: string) => CommandOutcome): AdminHandler {
  return (world, arg) => (arg ? run(world, arg.split(/\s+/)[0]) : fail('Missing player id'));
}

const ADMIN: Record<string, AdminHandler> = {
  banplayer: needsId((world, id) => {
    const events = world.ban(id);
    return ok(events.length ? `${id} banned and kicked` : `${id} banned`, events);
  }),
  unbanplayer: needsId((world, id) => ok(world.unban(id) ? `${id} unbanned` : `${id} was not banned`)),
  kickplayer: needsId((world, id) => {
    const p = world.findByEosId(id);
    const events = p ? world.leave(p, 'kicked') : [];
    return ok(events.length ? `${id} kicked` : `No online player with id ${id}`, events);
  }),
  listplayers: (world) =>
    ok(
      world.online.size === 0
        ? 'No Players Connected'
        : [...world.online.values()].map((p, i) => `${i}. ${p.name}, ${p.eosId}`).join('\n'),
    ),
  serverchat: (_world, arg) =>
    arg ? ok(NO_RESPONSE, [ev.broadcasted(arg, 'WebService')]) : fail('Missing message'),
  broadcast: (_world, arg) =>
    arg ? ok(NO_RESPONSE, [ev.broadcasted(arg, 'WebService')]) : fail('Missing message'),
  destroywilddinos: (world) => ok(`Destroyed ${world.destroyWildDinos()} wild creatures`),
  // The simulator's own, not the game's: an online player types the rest of the line, so a demo
  // or a browser test can start a chat script or a command on cue.
  simtype: (world, arg) => {
    if (!arg) return fail('Missing text');
    const typed = playerTypes(world, arg);
    return ok(`${typed.playerId} typed ${arg}`, typed.events);
  },
};

function admin(world: World, command: unknown): CommandOutcome {
  if (typeof command !== 'string' || command.trim() === '') return fail('Missing command');
  const [verb, ...rest] = command.trim().split(/\s+/);
  const handler = ADMIN[verb.toLowerCase()];
  return handler ? handler(world, rest.join(' ')) : ok(NO_RESPONSE);
}

/**
 * Where a `chat` command can come from: the web (a server or its group), a relay, the community, a
 * script (chat a script sends says so, SPEC §3); anything else is the web's.
 */
const RELAYED_SOURCES = ['WebService', 'WebGroup', 'Game', 'Discord', 'Script'] as const;

function webChat(world: World, cmd: GameCommand): CommandOutcome {
  if (typeof cmd.message !== 'string' || cmd.message === '') return fail('Missing message');
  const language = typeof cmd.languageCode === 'string' ? cmd.languageCode : 'en';
  const senderName = typeof cmd.senderName === 'string' ? cmd.senderName : 'Admin';
  // Nothing here can translate: the message stands in for its own English translation.
  const translations = { en: cmd.message, [language]: cmd.message };
  const scores = ev.moderationScores(world.rng);
  const source = RELAYED_SOURCES.find((s) => s === cmd.source) ?? 'WebService';
  // A line relayed from another server of a group (or the chat community) keeps where it was said.
  const origin =
    typeof cmd.originName === 'string'
      ? {
          originName: cmd.originName,
          originServiceId: typeof cmd.originServiceId === 'string' ? cmd.originServiceId : null,
        }
      : undefined;
  const line = { source, senderName, language, translations, scores, origin };
  if (cmd.recipientType !== 'Survivor' && cmd.recipientType !== 'Tribe')
    return ok(null, [ev.chat({ ...line, scope: 'Global' })]);
  // Said to one survivor or one tribe: someone of them must be online to hear it. The game logs
  // it in the narrowest scope its chat has (Local for one survivor).
  const tribe = cmd.recipientType === 'Tribe';
  const hears = tribe
    ? world.onlineSurvivors().filter((s) => s.tribeId === cmd.tribeId)
    : world.onlineSurvivors().filter((s) => s.characterId === cmd.characterId);
  if (hears.length === 0)
    return fail(tribe ? 'No member of that tribe is online' : 'That survivor is not online');
  const recipientId = tribe ? String(cmd.tribeId) : hears[0].characterId;
  return ok(null, [
    ev.chat({
      ...line,
      scope: tribe ? 'Tribe' : 'Local',
      to: { recipientType: cmd.recipientType, recipientId },
    }),
  ]);
}

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const requestIdOf = (cmd: GameCommand) => (typeof cmd.requestId === 'string' ? cmd.requestId : null);

function withSurvivor(world: World, cmd: GameCommand, run: (s: Survivor) => CommandOutcome): CommandOutcome {
  const s = world.findSurvivor(cmd);
  return s ? run(s) : fail('No such survivor on this server');
}

function withDino(world: World, cmd: GameCommand, run: (d: Dino) => CommandOutcome): CommandOutcome {
  const d = world.findDino(cmd);
  return d ? run(d) : fail('No such dino on this server');
}

const where = (p: Position) => ({ found: true, x: p.x, y: p.y, z: p.z, ...latLon(p) });

function locate(world: World, cmd: GameCommand): CommandOutcome {
  const requestId = requestIdOf(cmd);
  if (cmd.specimenId !== undefined || cmd.characterId !== undefined)
    return withSurvivor(world, cmd, (s) => ok({ requestId, ...where(s.pos) }));
  // Only a dino in the world has a place: dead, frozen or uploaded ones are not found.
  return withDino(world, cmd, (d) =>
    ok(
      d.status === 'Deployed'
        ? { requestId, ...where(d.pos) }
        : { requestId, found: false, status: d.status },
    ),
  );
}

/**
 * Where a teleport ends: next to another survivor, or at the given coordinates. A value left out
 * keeps the current one; with `relative`, the values are offsets from where it stands.
 */
function destination(world: World, cmd: GameCommand, from: Position): Position | null {
  if (cmd.toCharacterId !== undefined || cmd.toSpecimenId !== undefined) {
    const target = world.findSurvivor({ characterId: cmd.toCharacterId, specimenId: cmd.toSpecimenId });
    return target ? { ...target.pos } : null;
  }
  if (![cmd.x, cmd.y, cmd.z].some(finite)) return null;
  const axis = (v: unknown, current: number) =>
    finite(v) ? (cmd.relative === true ? current + v : v) : current;
  return { x: axis(cmd.x, from.x), y: axis(cmd.y, from.y), z: axis(cmd.z, from.z) };
}

function teleport(world: World, cmd: GameCommand, dino: boolean): CommandOutcome {
  const move = (thing: { pos: Position }) => {
    const to = destination(world, cmd, thing.pos);
    if (!to) return fail('Give x, y or z, or a survivor to teleport to');
    thing.pos = to;
    return ok({ requestId: requestIdOf(cmd), ...where(to) });
  };
  return dino
    ? withDino(world, cmd, (d) => (d.status === 'Deployed' ? move(d) : fail('The dino is not in the world')))
    : withSurvivor(world, cmd, move);
}

function renamePlayer(world: World, cmd: GameCommand): CommandOutcome {
  const name = typeof cmd.newName === 'string' ? cmd.newName : cmd.name;
  if (typeof name !== 'string' || name.trim() === '') return fail('Missing new name');
  return withSurvivor(world, cmd, (s) => ok(null, world.rename(s.player, name.trim())));
}

function editDino(world: World, cmd: GameCommand): CommandOutcome {
  return withDino(world, cmd, (d) => {
    const events = typeof cmd.isSterilized === 'boolean' ? world.setSterilized(d, cmd.isSterilized) : [];
    if (typeof cmd.isFemale === 'boolean' && d.gender !== 'None') d.gender = cmd.isFemale ? 'Female' : 'Male';
    return ok({ requestId: requestIdOf(cmd), isSterilized: d.sterilized, gender: d.gender }, events);
  });
}

function giveItem(world: World, cmd: GameCommand): CommandOutcome {
  if (typeof cmd.itemPath !== 'string' || cmd.itemPath === '') return fail('Missing itemPath');
  if (!isKnownPath('item', cmd.itemPath)) return fail(`The game has no item ${cmd.itemPath}`);
  const quantity = finite(cmd.quantity) ? cmd.quantity : 1;
  return withSurvivor(world, cmd, (s) => {
    const { type: _t, requestId: _r, characterId: _c, specimenId: _s, ...item } = cmd;
    return ok(
      { requestId: requestIdOf(cmd) },
      world.giveItem(s, { ...item, itemPath: cmd.itemPath as string, quantity }),
    );
  });
}

/** Loot a script rolled: to one survivor, or to every online member of a tribe. */
function giveLoot(world: World, cmd: GameCommand): CommandOutcome {
  if (!Array.isArray(cmd.items)) return fail('Missing items');
  const items = (cmd.items as { itemPath?: unknown; quantity?: unknown; quality?: unknown }[]).filter(
    (i) => typeof i.itemPath === 'string',
  );
  const to =
    cmd.recipientType === 'Tribe'
      ? world.onlineSurvivors().filter((s) => s.tribeId === cmd.tribeId)
      : [world.findSurvivor(cmd)].filter((s) => s !== undefined);
  if (to.length === 0)
    return fail(
      cmd.recipientType === 'Tribe' ? 'No member of that tribe is online' : 'No such survivor on this server',
    );
  const events = to.flatMap((s) =>
    items.flatMap((i) =>
      world.giveItem(s, {
        itemPath: i.itemPath as string,
        quantity: finite(i.quantity) ? i.quantity : 1,
        ...(finite(i.quality) ? { quality: i.quality } : {}),
      }),
    ),
  );
  return ok({ given: events.length }, events);
}

const BUFF_MODES = ['add', 'remove', 'toggle'] as const;

function toggleBuff(world: World, cmd: GameCommand): CommandOutcome {
  const mode = BUFF_MODES.find((m) => m === cmd.mode);
  if (!mode) return fail('mode must be add, remove or toggle');
  if (typeof cmd.buffPath !== 'string' || cmd.buffPath === '') return fail('Missing buffPath');
  const buff = cmd.buffPath;
  return withSurvivor(world, cmd, (s) => ok({ buffs: s.buffs }, world.setBuff(s, buff, mode)));
}

function giveDino(world: World, cmd: GameCommand): CommandOutcome {
  if (typeof cmd.dinoPath !== 'string' || cmd.dinoPath === '') return fail('Missing dinoPath');
  const species = speciesOfPath(cmd.dinoPath);
  if (!species) return fail(`The game has no creature ${cmd.dinoPath}`);
  return withSurvivor(world, cmd, (s) => {
    const given = world.giveDino(s, species, {
      name: typeof cmd.name === 'string' ? cmd.name : undefined,
      level: finite(cmd.level) ? Math.max(1, Math.round(cmd.level)) : undefined,
      age: finite(cmd.age) ? Math.min(1, Math.max(0, cmd.age)) : undefined,
      isFemale: typeof cmd.isFemale === 'boolean' ? cmd.isFemale : undefined,
      isSterilized: typeof cmd.isSterilized === 'boolean' ? cmd.isSterilized : undefined,
      imprint: finite(cmd.imprint) ? cmd.imprint : undefined,
      colors: Array.isArray(cmd.colors) ? (cmd.colors as number[]) : undefined,
      stats:
        typeof cmd.stats === 'object' && cmd.stats !== null
          ? (cmd.stats as Record<string, number>)
          : undefined,
      traits: Array.isArray(cmd.traits) ? (cmd.traits as string[]) : undefined,
    });
    return ok({ requestId: requestIdOf(cmd), dinoId: given.dino.dinoId }, given.events);
  });
}

function restore(world: World, cmd: GameCommand): CommandOutcome {
  return withDino(world, cmd, (d) => {
    const to = world.findSurvivor(cmd);
    if (!to) return fail('No such survivor on this server');
    const events = world.restore(d, to);
    return events.length > 0
      ? ok({ requestId: requestIdOf(cmd) }, events)
      : fail('Restore is not available for this dino');
  });
}

export function runCommand(world: World, cmd: GameCommand): CommandOutcome {
  switch (cmd.type) {
    case 'locate':
      return locate(world, cmd);
    case 'teleportCharacter':
      return teleport(world, cmd, false);
    case 'teleportDino':
      return teleport(world, cmd, true);
    case 'renamePlayer':
      return renamePlayer(world, cmd);
    case 'editDino':
      return editDino(world, cmd);
    case 'giveItem':
      return giveItem(world, cmd);
    case 'giveDino':
      return giveDino(world, cmd);
    // The API's restore route sends restoreDino (docs/api.md "Game commands of the actions").
    case 'restore':
    case 'restoreDino':
      return restore(world, cmd);
    case 'destroyWildDinos':
      return ok(`Destroyed ${world.destroyWildDinos()} wild creatures`);
    case 'killCharacter':
      return withSurvivor(world, cmd, (s) => ok(null, world.killSurvivor(s, 'an admin')));
    case 'destroyItem':
      return typeof cmd.itemPath === 'string' && cmd.itemPath !== ''
        ? ok({ destroyed: world.destroyItem(cmd.itemPath) })
        : fail('Missing itemPath');
    case 'toggleBuff':
      return toggleBuff(world, cmd);
    case 'giveLoot':
      return giveLoot(world, cmd);
    case 'admin':
      return admin(world, cmd.command);
    case 'chat':
      return webChat(world, cmd);
    case 'broadcast':
      return typeof cmd.message === 'string' && cmd.message !== ''
        ? ok(null, [ev.broadcasted(cmd.message, 'WebService')])
        : fail('Missing message');
    default:
      return fail('Unsupported command');
  }
}
