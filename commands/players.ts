// Players and sessions (ACTIONS.md "Players, sessions, bans"): open, notes, copy id, sessions, kick.

import { PLAYER_TABS } from '../src/domain/enums.ts';
import { formatTime } from '../src/domain/format.ts';
import { Perm } from '../src/domain/permissions.ts';
import { pathOf } from '../src/domain/resolver.ts';
import { noteContent } from '../src/domain/validate.ts';
import { asList, bool, type EntityRef, oneOf, ownerOf, ref, text } from './args.ts';
import type { CommandContext } from './context.ts';
import { CommandError, defineCommand } from './registry.ts';

const group = 'Players';

/** The players given or taken from the view (the registry fills them); a command needs one at least. */
export function playersOf(given: EntityRef | EntityRef[] | undefined): EntityRef[] {
  const p = asList(given);
  if (p.length === 0) throw new CommandError('Choose a player.', 'player');
  return p;
}

/** The player given or taken from the view, for a command about one. */
export const onePlayer = (given: EntityRef | EntityRef[] | undefined): EntityRef => playersOf(given)[0];

export const playerArg = () =>
  ref('player').describe('Player', 'A player by name, id or EOS id; blank: the one in view').optional();
const noteText = () =>
  text()
    .describe('Note', 'What moderators should know about this player')
    .check((v) => noteContent(v))
    .rest();

/**
 * The servers a kick is for: the one asked for (or the group's servers), else every server the
 * player is on now.
 */
async function kickTargets(ctx: CommandContext, player: EntityRef, target: EntityRef | undefined) {
  if (target) return [target];
  const on = await ctx.app.api.playerSessions.list({
    playerId: player.id,
    isConnected: 'true',
    pageSize: 250,
  });
  const servers = new Map(on.results.map((s) => [s.serviceId, s.serviceDisplayName]));
  if (servers.size === 0) throw new CommandError(`${player.label} is not on any server now.`, 'target');
  return [...servers].map(([id, label]): EntityRef => ({ kind: 'server', id, label }));
}

export const playerCommands = [
  defineCommand({
    id: 'player.kick',
    title: 'Kick player',
    description: 'Removes the player from the server now; they may join again (ban them to keep them out)',
    group,
    aliases: ['kick'],
    permission: Perm.ControlServices,
    args: {
      player: playerArg(),
      target: ref('server', 'group')
        .describe('Server or group', 'Blank: the one in view, else every server the player is on')
        .optional(),
    },
    run: async (a, ctx) => {
      const player = onePlayer(a.player);
      const targets = await kickTargets(ctx, player, a.target);
      const { results } = await ctx.app.api.gameCommands(
        targets.map((t) => ({ type: 'kickPlayer' as const, playerId: player.id, ...ownerOf(t) })),
      );
      const kicked = results.filter((r) => r.ok).map((r) => r.serviceDisplayName);
      const failed = results
        .filter((r) => !r.ok)
        .map((r) => `${r.serviceDisplayName}: ${r.message ?? 'failed'}`);
      if (kicked.length === 0) throw new CommandError(`${player.label} was not kicked. ${failed.join('; ')}`);
      const done = `Kicked ${player.label} from ${kicked.join(', ')}.`;
      return { message: failed.length ? `${done} Not from ${failed.join('; ')}.` : done };
    },
  }),
  defineCommand({
    id: 'player.list',
    title: 'Player list',
    group,
    aliases: ['players'],
    args: {
      search: text().optional().describe('Search', 'Any name the player went by, or an identifier').rest(),
    },
    run: async ({ search }, ctx) => {
      if (ctx.surface !== 'console') {
        ctx.app.navigate('/players');
        return undefined;
      }
      const page = await ctx.app.api.players.list({ pageSize: 100, ...(search ? { name: search } : {}) });
      return {
        table: {
          columns: ['Name', 'Other names', 'Country', 'Id'],
          rows: page.results.map((p) => [p.playerName, p.otherNames.join(', '), p.countryCode, p.playerId]),
        },
        message: `${page.totalResults} players`,
      };
    },
  }),
  defineCommand({
    id: 'player.open',
    title: 'Open player',
    group,
    aliases: ['player'],
    args: {
      player: ref('player').selectedOnly().describe('Player', 'By name, id or EOS id'),
      tab: oneOf(PLAYER_TABS).describe('Tab').default('logs'),
    },
    run: ({ player, tab }, ctx) => {
      ctx.app.navigate(pathOf('player', player.id, tab));
      return undefined;
    },
  }),
  defineCommand({
    id: 'player.addNote',
    title: 'Add player note',
    group,
    aliases: ['note'],
    args: { player: playerArg(), content: noteText() },
    run: async ({ player, content }, ctx) => {
      const p = onePlayer(player);
      await ctx.app.api.playerNotes.create({ playerId: p.id, content });
      return { message: 'Note added.' };
    },
  }),
  defineCommand({
    id: 'player.editNote',
    title: 'Edit player note',
    group,
    args: {
      note: text().describe('Note id', 'The note to change (its id; the notes tab fills it in)'),
      content: noteText(),
    },
    run: async ({ note, content }, ctx) => {
      await ctx.app.api.playerNotes.patch(note, { content });
      return { message: 'Note saved; the previous text is kept in its history.' };
    },
  }),
  defineCommand({
    id: 'player.copyId',
    title: 'Copy player id',
    group,
    args: { player: playerArg() },
    run: async ({ player }, ctx) => {
      const p = onePlayer(player);
      await ctx.app.clipboard.copy(p.id);
      return { message: 'Player id copied.' };
    },
  }),
  defineCommand({
    id: 'player.sessions',
    title: 'Player sessions',
    group,
    aliases: ['sessions'],
    args: {
      of: ref('player', 'server', 'group')
        .describe('Of', 'A player, server or group; blank: the one in view')
        .optional(),
      all: bool().describe('Include disconnected').default(false),
    },
    run: async ({ of, all }, ctx) => {
      if (!of) throw new CommandError('Choose a player, server or group.', 'of');
      if (ctx.surface !== 'console') {
        ctx.app.navigate(pathOf(of.kind, of.id, 'sessions'));
        return undefined;
      }
      const filter =
        { player: 'playerId', server: 'serviceId', group: 'groupId' }[of.kind as string] ?? 'playerId';
      // One player's history is shown whole; many players' lists default to who is online now.
      const onlineOnly = of.kind !== 'player' && !all;
      const page = await ctx.app.api.playerSessions.list({
        [filter]: of.id,
        sortedColumn: 'connectTime',
        sortDirection: 'descending',
        pageSize: 250,
        ...(onlineOnly ? { isConnected: 'true' } : {}),
      });
      return {
        table: {
          columns: ['Player Name', 'Server Name', 'Join Time', 'Leave Time', 'Is Connected'],
          rows: page.results.map((s) => [
            s.playerName,
            s.serviceDisplayName,
            formatTime(s.connectTime),
            formatTime(s.disconnectTime),
            s.isConnected,
          ]),
        },
      };
    },
  }),
];
