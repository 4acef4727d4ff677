// Log messages (ACTIONS.md "Servers"): open one, show its raw data.

import type { LogMessage } from '../src/domain/api.ts';
import { sanitise } from '../src/web/terminal/sanitise.ts';
import { type EntityRef, ref } from './args.ts';
import type { CommandContext } from './context.ts';
import { defineCommand } from './registry.ts';
import { entityPath } from './shell.ts';

const group = 'Logs';

/** The log line in view (its page) or selected (a log list's active or marked row). */
export function logInView(ctx: CommandContext): { message?: EntityRef } {
  const fromRoute = /^\/logs\/([^/]+)/.exec(ctx.route)?.[1];
  const id = ctx.selection.kind === 'log' ? ctx.selection.ids[0] : fromRoute;
  return id ? { message: { kind: 'log', id: decodeURIComponent(id), label: id } } : {};
}

/** No cap on length: this is the full record. */
const RAW_LIMIT = Number.POSITIVE_INFINITY;

/**
 * The message as the API returned it, one row per property plus the whole object, each as JSON
 * passed through the sanitiser: a line's text or metadata may hold controls or bidi overrides.
 */
export function rawRows(m: LogMessage): [string, string][] {
  return [
    ['JSON', sanitise(JSON.stringify(m), RAW_LIMIT)],
    ...Object.entries(m).map(([k, v]): [string, string] => [
      k,
      sanitise(typeof v === 'string' ? v : JSON.stringify(v), RAW_LIMIT),
    ]),
  ];
}

export const logCommands = [
  defineCommand({
    id: 'log.open',
    title: 'Open log message',
    group,
    args: { message: ref('log').describe('Log message', 'Its id') },
    defaults: logInView,
    run: ({ message }, ctx) => {
      ctx.app.navigate(entityPath('log', message.id));
      return undefined;
    },
  }),
  defineCommand({
    id: 'log.showRaw',
    title: 'Show Raw Log Data',
    group,
    aliases: ['raw'],
    args: { message: ref('log').describe('Log message', 'Its id') },
    defaults: logInView,
    run: async ({ message }, ctx) => {
      const rows = rawRows(await ctx.app.api.logMessages.get(message.id));
      if (ctx.surface === 'console') return { table: { columns: ['Property', 'Value'], rows } };
      ctx.app.dialogs.info('Raw Log Data', rows);
      return undefined;
    },
  }),
];
