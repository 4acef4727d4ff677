// How menus, toolbars and list keys run a command: with the values of where the user is (the
// command's `defaults`) and of the rows, or, when a required argument is still missing, by opening
// the palette at that command with what is known, prompting for the rest.

import type { EntityRef } from '../../../commands/args.ts';
import type { Selection, Surface } from '../../../commands/context.ts';
import type { Command } from '../../../commands/registry.ts';
import type { CommandRuntime } from '../app/runtime.ts';
import { openPaletteAt, type PaletteStore } from '../palette/state.ts';

export function missingArgs(cmd: Command, values: Record<string, unknown>): string[] {
  return Object.entries(cmd.args ?? {})
    .filter(([name, arg]) => !arg.isOptional && values[name] === undefined)
    .map(([name]) => name);
}

/**
 * What a command has without asking: the defaults of where the user is, overridden by what the
 * surface gives (rows, a toolbar's entity), then each argument's declared default.
 */
export function knownValues(
  cmd: Command,
  given: Record<string, unknown>,
  defaults: Partial<Record<string, unknown>>,
): Record<string, unknown> {
  const values = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined));
  for (const [name, arg] of Object.entries(cmd.args ?? {})) {
    const v = values[name] ?? defaults[name] ?? arg.defaultValue;
    if (v !== undefined) values[name] = v;
  }
  return values;
}

/** Rows as the value of a command's ref argument: all of them for a list, else the first. */
export function refsFor(cmd: Command, name: string, refs: EntityRef[]): EntityRef | EntityRef[] | undefined {
  return cmd.args?.[name]?.type === 'list' ? refs : refs[0];
}

export interface RunWhere {
  /** The rows the command acts on, when not the pane's selection. */
  selection?: Selection;
  /** The store the palette reads; without it a missing argument opens the palette at the title. */
  store?: PaletteStore;
}

export function runOrPrompt(
  runtime: CommandRuntime,
  cmd: Command,
  given: Record<string, unknown>,
  surface: Surface,
  where: RunWhere = {},
): void {
  const base = runtime.context(surface);
  const ctx = where.selection ? { ...base, selection: where.selection } : base;
  const values = knownValues(cmd, given, cmd.defaults?.(ctx) ?? {});
  if (missingArgs(cmd, values).length > 0) {
    if (where.store) openPaletteAt(where.store, cmd.id, values);
    else ctx.app.palette.open(cmd.title);
    return;
  }
  // The runtime reports failures as toasts; nothing is left to do with them here.
  runtime.run(cmd, values, surface).catch(() => {});
}
