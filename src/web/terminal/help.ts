// `help` and `help <command>`, built from the same declarations the palette and dialogs read.

import { type Command, permissionText, type Registry } from '../../../commands/registry.ts';
import { formatTable, paint } from './format.ts';
import { usage } from './parse.ts';
import { type Safe, sanitise } from './sanitise.ts';

/** Commands the console itself answers, listed with the registry's. */
export const BUILTINS: readonly (readonly [string, string])[] = [
  ['help [command]', 'List commands, or describe one'],
  ['history', 'Show the lines run before'],
  ['clear', 'Clear the screen (Ctrl+L)'],
  ['undo', 'Undo the last command that offers it'],
];

/** Every command by group: id, aliases, keys and title. */
export function helpIndex(registry: Registry, maxWidth: number): Safe[] {
  const groups = new Map<string, Command[]>();
  for (const c of registry.all()) groups.set(c.group, [...(groups.get(c.group) ?? []), c]);
  const out: Safe[] = [];
  for (const [group, cmds] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
    out.push(paint('accent', sanitise(group)));
    out.push(
      ...formatTable(
        {
          columns: ['Command', 'Aliases', 'Keys', 'Title'],
          rows: cmds.map((c) => [c.id, (c.aliases ?? []).join(', '), (c.keys ?? []).join(', '), c.title]),
        },
        maxWidth,
      ),
      sanitise(''),
    );
  }
  out.push(paint('accent', sanitise('Console')));
  out.push(...formatTable({ columns: ['Command', 'Does'], rows: BUILTINS.map((b) => [...b]) }, maxWidth));
  out.push(sanitise('Type help <command> for its arguments. Tab completes, ↑/↓ and Ctrl+R search history.'));
  return out;
}

/** One command: title, usage, each argument, aliases, keys, permission. */
export function helpFor(cmd: Command, maxWidth: number): Safe[] {
  const out: Safe[] = [paint('bold', sanitise(cmd.title))];
  if (cmd.description) out.push(sanitise(cmd.description));
  out.push(sanitise(`Usage: ${usage(cmd)}`));
  const args = Object.entries(cmd.args ?? {});
  if (args.length > 0) {
    out.push(
      ...formatTable(
        {
          columns: ['Flag', 'Expects', 'Help'],
          rows: args.map(([name, a]) => [`--${name}`, a.usage(name), a.help ?? a.label ?? '']),
        },
        maxWidth,
      ),
    );
  }
  const facts: [string, string][] = [
    ['Aliases', (cmd.aliases ?? []).join(', ')],
    ['Keys', (cmd.keys ?? []).join(', ')],
    ['Permission', permissionText(cmd.permission)],
  ];
  for (const [k, v] of facts) if (v) out.push(sanitise(`${k}: ${v}`));
  return out;
}
