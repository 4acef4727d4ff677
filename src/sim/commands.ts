// How the simulated mod obeys game commands (SENTINEL-API §6): admin console commands, chat and
// broadcasts from the web. Effects on the world come back as events, in the order they happen.

import type { CommandReply, GameCommand, LinkEvent } from '../domain/link.ts';
import * as ev from './events.ts';
import type { World } from './world.ts';

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
};

function admin(world: World, command: unknown): CommandOutcome {
  if (typeof command !== 'string' || command.trim() === '') return fail('Missing command');
  const [verb, ...rest] = command.trim().split(/\s+/);
  const handler = ADMIN[verb.toLowerCase()];
  return handler ? handler(world, rest.join(' ')) : ok(NO_RESPONSE);
}

function webChat(world: World, cmd: GameCommand): CommandOutcome {
  if (typeof cmd.message !== 'string' || cmd.message === '') return fail('Missing message');
  const language = typeof cmd.languageCode === 'string' ? cmd.languageCode : 'en';
  const senderName = typeof cmd.senderName === 'string' ? cmd.senderName : 'Admin';
  // Nothing here can translate: the message stands in for its own English translation.
  const translations = { en: cmd.message, [language]: cmd.message };
  const scores = ev.moderationScores(world.rng);
  return ok(null, [
    ev.chat({ source: 'WebService', senderName, language, translations, scores, scope: 'Global' }),
  ]);
}

export function runCommand(world: World, cmd: GameCommand): CommandOutcome {
  switch (cmd.type) {
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
