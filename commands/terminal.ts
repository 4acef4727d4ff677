// The console's own commands (`help`, `clear`, `history`): registered like any other, in the
// terminal scope, so they are completed, listed and checked for conflicts with the rest. `undo`
// is `ui.undo` (commands/shell.ts), which undoes from any surface.

import { text } from './args.ts';
import type { CommandContext, CommandResult } from './context.ts';
import {
  type Command,
  CommandError,
  defineCommand,
  permissionText,
  unknownCommandMessage,
  usage,
} from './registry.ts';

const group = 'Console';
const inConsole = (ctx: CommandContext) => ctx.surface === 'console';

const TIP = 'Type help <command> for its arguments. Tab completes, ↑/↓ and Ctrl+R search history.';

function helpIndex(all: readonly Command[]): CommandResult {
  const rows = [...all]
    .sort((a, b) => a.group.localeCompare(b.group) || a.id.localeCompare(b.id))
    .map((c) => [c.group, c.id, (c.aliases ?? []).join(', '), (c.keys ?? []).join(', '), c.title]);
  return { message: TIP, table: { columns: ['Group', 'Command', 'Aliases', 'Keys', 'Title'], rows } };
}

/** One command: title, usage, aliases, keys, permission, and a row per argument. */
function helpFor(cmd: Command): CommandResult {
  const facts: [string, string][] = [
    ['Aliases', (cmd.aliases ?? []).join(', ')],
    ['Keys', (cmd.keys ?? []).join(', ')],
    ['Permission', permissionText(cmd.permission)],
  ];
  const lines = [
    cmd.title,
    ...(cmd.description ? [cmd.description] : []),
    `Usage: ${usage(cmd)}`,
    ...facts.filter(([, v]) => v).map(([k, v]) => `${k}: ${v}`),
  ];
  const args = Object.entries(cmd.args ?? {});
  return {
    message: lines.join('\n'),
    table: args.length
      ? {
          columns: ['Flag', 'Expects', 'Help'],
          rows: args.map(([name, a]) => [`--${name}`, a.usage(name), a.help ?? a.label ?? '']),
        }
      : undefined,
  };
}

export const terminalCommands = [
  defineCommand({
    id: 'terminal.help',
    title: 'Help',
    description: 'List commands, or describe one',
    group,
    aliases: ['help'],
    scope: 'terminal',
    when: inConsole,
    args: { command: text().optional().describe('Command', 'A command id or alias') },
    run: ({ command }, ctx) => {
      if (!command) return helpIndex(ctx.app.catalogue.all());
      const cmd = ctx.app.catalogue.find(command);
      if (!cmd) throw new CommandError(unknownCommandMessage(command), 'command');
      return helpFor(cmd);
    },
  }),
  defineCommand({
    id: 'terminal.clear',
    title: 'Clear the console',
    description: 'Clear the screen (Ctrl+L)',
    group,
    aliases: ['clear'],
    scope: 'terminal',
    when: inConsole,
    run: () => ({ clearScreen: true }),
  }),
  defineCommand({
    id: 'terminal.history',
    title: 'Console history',
    description: 'Show the lines run before',
    group,
    aliases: ['history'],
    scope: 'terminal',
    when: inConsole,
    run: (_a, ctx) => ({
      table: { columns: ['#', 'Line'], rows: ctx.app.terminal.history().map((line, i) => [i + 1, line]) },
    }),
  }),
];
