// Survivors (characters): ACTIONS.md "Survivors, tribes, dinos". The shared actions come from
// world.ts; refreshing a survivor's record is their own.

import { list, ref } from './args.ts';
import { eachOf, summary } from './outcome.ts';
import { defineCommand } from './registry.ts';
import { recordOf, refsOf, worldCommands as w } from './world.ts';

export const survivorCommands = [
  w.list('survivor'),
  w.open('survivor'),
  w.goTo('survivor', ['self', 'player', 'server', 'tribe']),
  defineCommand({
    id: 'survivor.refresh',
    title: 'Refresh survivor info',
    description: 'Fetch the survivor again: name, tribe and server as the game last reported them',
    group: 'Survivors',
    args: {
      survivors: list(ref('survivor'))
        .describe('Survivors', 'Blank: the marked survivors or the one in view')
        .optional(),
    },
    run: async ({ survivors }, ctx) => {
      const o = await eachOf(
        refsOf('survivor', survivors),
        (s) => s.label,
        async (s) => {
          const c = await recordOf(ctx, 'survivor', s.id);
          return `${c.characterName} (${c.tribeName ?? 'no tribe'}, ${c.serviceDisplayName})`;
        },
      );
      if (o.done.length === 1 && o.failed.length === 0) return { message: `Refreshed ${o.done[0]}.` };
      return summary('Refreshed', ['survivor', 'survivors'], o);
    },
  }),
  w.delete('survivor'),
  w.teleport('survivor'),
  w.locate('survivor'),
  w.runScript('survivor'),
];
