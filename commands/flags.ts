// Player flags (ACTIONS.md "Alerts, notifications and watchlists"): the account's own named,
// coloured marks on players, set and taken off by name (src/domain/flags.ts).

import { FLAG_COLOURS, flagName, flagReason } from '../src/domain/flags.ts';
import { oneOf, ref, text } from './args.ts';
import { onePlayer } from './players.ts';
import { CommandError, defineCommand } from './registry.ts';

const group = 'Players';

const playerArg = () =>
  ref('player').describe('Player', 'A player by name, id or EOS id; blank: the one in view').optional();
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
