// Player flags and group watchlists (ACTIONS.md "Alerts, notifications and watchlists",
// src/domain/flags.ts): the account's own named, coloured marks on players, set and taken off by
// name, and the players a group watches, with why.

import { FLAG_COLOURS, flagName, flagReason, watchReason } from '../src/domain/flags.ts';
import { pathOf } from '../src/domain/resolver.ts';
import { type EntityRef, oneOf, ref, text } from './args.ts';
import { onePlayer, playerArg } from './players.ts';
import { CommandError, defineCommand } from './registry.ts';

const group = 'Players';

const nameArg = () =>
  text()
    .describe('Flag', 'A short name, e.g. Griefer; flagging again by a name changes that flag')
    .check(flagName);

export const flagCommands = [
  defineCommand({
    id: 'player.flag',
    title: 'Flag player',
    description: 'Marks the player with a named, coloured flag and a reason, shown beside their name to you',
    group,
    aliases: ['flag'],
    args: {
      player: playerArg(),
      name: nameArg(),
      colour: oneOf(FLAG_COLOURS).describe('Colour').default('red'),
      reason: text().describe('Reason', 'Why the player is flagged').check(flagReason).rest(),
    },
    run: async ({ player, name, colour, reason }, ctx) => {
      const p = onePlayer(player);
      const { created } = await ctx.app.api.playerFlags.create({ playerId: p.id, name, colour, reason });
      return {
        message: created.length
          ? `${p.label} flagged ${name.trim()}.`
          : `${p.label}'s flag ${name.trim()} changed.`,
      };
    },
  }),
  defineCommand({
    id: 'player.unflag',
    title: 'Remove player flag',
    description: 'Takes one of your flags off the player, by its name',
    group,
    aliases: ['unflag'],
    args: { player: playerArg(), name: nameArg() },
    run: async ({ player, name }, ctx) => {
      const p = onePlayer(player);
      const { results } = await ctx.app.api.playerFlags.list({ playerId: p.id, name: name.trim() });
      const flag = results[0];
      if (!flag) throw new CommandError(`${p.label} has no flag named ${name.trim()}.`, 'name');
      await ctx.app.api.playerFlags.remove(flag.flagId);
      return { message: `Flag ${flag.name} taken off ${p.label}.` };
    },
  }),
];

/** The group given or in view, for a watchlist command. */
function oneGroup(given: EntityRef | undefined): EntityRef {
  if (!given) throw new CommandError('Choose a group.', 'group');
  return given;
}
const groupArg = () => ref('group').describe('Group', 'Blank: the one in view').optional();

export const watchlistCommands = [
  defineCommand({
    id: 'watchlist.list',
    title: 'Group watchlist',
    description: 'The players a group keeps an eye on, with why',
    group: 'Groups',
    aliases: ['watchlist'],
    args: { group: groupArg() },
    run: ({ group: g }, ctx) => {
      ctx.app.navigate(pathOf('group', oneGroup(g).id, 'watchlist'));
      return undefined;
    },
  }),
  defineCommand({
    id: 'watchlist.add',
    title: 'Watch player',
    description: "Puts the player on the group's watchlist with why; adding them again changes why",
    group: 'Groups',
    aliases: ['watch'],
    // The group last: it is usually the one in view, and the rest of the line is the reason.
    args: {
      player: playerArg(),
      reason: text().describe('Why', 'What the group should watch for').check(watchReason).rest(),
      group: groupArg(),
    },
    run: async ({ player, group: g, reason }, ctx) => {
      const p = onePlayer(player);
      const to = oneGroup(g);
      await ctx.app.api.groupWatchlist.add({ groupId: to.id, playerId: p.id, reason });
      return { message: `${p.label} is on ${to.label}'s watchlist.` };
    },
  }),
  defineCommand({
    id: 'watchlist.remove',
    title: 'Stop watching player',
    description: "Takes the player off the group's watchlist",
    group: 'Groups',
    aliases: ['unwatch'],
    args: { player: playerArg(), group: groupArg() },
    run: async ({ player, group: g }, ctx) => {
      const p = onePlayer(player);
      const from = oneGroup(g);
      const { results } = await ctx.app.api.groupWatchlist.list({ groupId: from.id, playerId: p.id });
      if (!results[0]) throw new CommandError(`${p.label} is not on ${from.label}'s watchlist.`, 'player');
      await ctx.app.api.groupWatchlist.remove(results[0].watchId);
      return { message: `${p.label} is off ${from.label}'s watchlist.` };
    },
  }),
];
