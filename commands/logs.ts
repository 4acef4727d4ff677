// Log messages (ACTIONS.md "Servers"): open one, show its raw data.

import type { LogMessage } from '../src/domain/api.ts';
import { pathOf } from '../src/domain/resolver.ts';
import { ref } from './args.ts';
import { defineCommand } from './registry.ts';

const group = 'Logs';

/**
 * The message as the API returned it, as JSON laid out to read, once: a row per property beside
 * the whole object said every value twice. A line's text or metadata may hold controls or bidi
 * overrides: the surfaces that show rows (the console's sections, the info dialog) pass every
 * cell through the sanitiser.
 */
export const rawRows = (m: LogMessage): [string, string][] => [['JSON', JSON.stringify(m, null, 2)]];

export const logCommands = [
  defineCommand({
    id: 'log.open',
    title: 'Open log message',
    group,
    args: { message: ref('log').describe('Log message', 'Its id') },
    run: ({ message }, ctx) => {
      ctx.app.navigate(pathOf('log', message.id));
      return undefined;
    },
  }),
  defineCommand({
    id: 'log.showRaw',
    title: 'Show Raw Log Data',
    group,
    aliases: ['raw'],
    args: { message: ref('log').describe('Log message', 'Its id') },
    run: async ({ message }, ctx) => {
      const rows = rawRows(await ctx.app.api.logMessages.get(message.id));
      // A section each, not a table: a value (the JSON, a player's EOS id) is never cut to a cell.
      if (ctx.surface === 'console') return { sections: rows.map(([heading, text]) => ({ heading, text })) };
      ctx.app.dialogs.info('Raw Log Data', rows);
      return undefined;
    },
  }),
];
