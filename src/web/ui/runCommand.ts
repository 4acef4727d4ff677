// How menus and toolbars run a command: with the values their rows supply, or, when an argument
// is still missing, by handing the command to the palette, which prompts for it.

import type { Surface } from '../../../commands/context.ts';
import type { Command } from '../../../commands/registry.ts';
import type { CommandRuntime } from '../app/runtime.ts';

export function missingArgs(cmd: Command, values: Record<string, unknown>): string[] {
  return Object.entries(cmd.args ?? {})
    .filter(([name, arg]) => !arg.isOptional && values[name] === undefined)
    .map(([name]) => name);
}

export function runOrPrompt(
  runtime: CommandRuntime,
  cmd: Command,
  values: Record<string, unknown>,
  surface: Surface,
): void {
  if (missingArgs(cmd, values).length > 0) {
    runtime.context(surface).app.palette.open(cmd.title);
    return;
  }
  // The runtime reports failures as toasts; nothing is left to do with them here.
  runtime.run(cmd, values, surface).catch(() => {});
}
