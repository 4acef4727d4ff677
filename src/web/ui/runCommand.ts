// How menus, toolbars and list keys run a command: with the values of where the user is (the
// rows handed over, else the route, through the resolver), or, when a required argument is still
// missing, by opening the palette at that command with what is known, prompting for the rest. A
// command that is a dialog of the spec always opens its form, filled in: chosen from a menu, an
// Edit is a request to see and change what is there, not to save it unchanged.

import type { Selection, Surface } from '../../../commands/context.ts';
import { type Command, valuesInView } from '../../../commands/registry.ts';
import type { CommandRuntime } from '../app/runtime.ts';
import { openPaletteAt, type PaletteStore } from '../palette/state.ts';

export function missingArgs(cmd: Command, values: Record<string, unknown>): string[] {
  return Object.entries(cmd.args ?? {})
    .filter(([name, arg]) => !arg.isOptional && values[name] === undefined)
    .map(([name]) => name);
}

/**
 * What a command has without asking: what the surface gives, else what is in view, else each
 * argument's declared default.
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

export interface RunWhere {
  /** The rows (or the entity) the command acts on, when not the pane's selection. */
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
  const values = knownValues(cmd, given, valuesInView(cmd, ctx));
  if (cmd.form) {
    ctx.app.dialogs.form(cmd.id, values);
    return;
  }
  if (missingArgs(cmd, values).length > 0) {
    if (where.store) openPaletteAt(where.store, cmd.id, values);
    else ctx.app.palette.open(cmd.title);
    return;
  }
  // The runtime reports failures as toasts; nothing is left to do with them here.
  runtime.run(cmd, values, surface).catch(() => {});
}
