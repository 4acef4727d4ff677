// Log messages (ACTIONS.md "Servers"): open one, show its raw data.

import type { LogMessage } from '../src/domain/api.ts';
import { pathOf } from '../src/domain/resolver.ts';
import { ref } from './args.ts';
import { defineCommand } from './registry.ts';

const group = 'Logs';

/**
 * The message as the API returned it, one row per property plus the whole object, each as JSON.
 * A line's text or metadata may hold controls or bidi overrides: the surfaces that show rows (the
 * console's tables, the info dialog) pass every cell through the sanitiser.
 */
export function rawRows(m: LogMessage): [string, string][] {
  return [
    ['JSON', JSON.stringify(m)],
    ...Object.entries(m).map(([k, v]): [string, string] => [
      k,
      typeof v === 'string' ? v : JSON.stringify(v),
    ]),
  ];
}

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
