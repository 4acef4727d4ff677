// The bridge between surfaces (palette, console pane, hotkeys, menus) and the command registry.
// The shell provides one runtime; each surface asks it for a context and runs commands through it.

import { createContext, useContext } from 'react';
import type { EntityLookup } from '../../../commands/args.ts';
import type { CommandContext, CommandResult, Surface } from '../../../commands/context.ts';
import type { Command, Registry } from '../../../commands/registry.ts';
import type { RemoteSearch } from '../palette/remoteSearch.ts';
import type { EntityIndex } from '../store/entityIndex.ts';

export interface CommandRuntime {
  registry: Registry;
  entities: EntityLookup;
  index: EntityIndex;
  /** Entities too many to hold (a fleet's dinos), found on the server as the palette's query changes. */
  remote?: RemoteSearch;
  /** A context as of now: the active pane's route, its selection, the user. */
  context(surface: Surface): CommandContext;
  /**
   * Parses nothing: values are already typed. Reports the outcome as a toast (a result with
   * sections in the info dialog), unless the surface shows it where the user asked (the console,
   * or a box on a page that says `shownHere`).
   */
  run(
    cmd: Command,
    values: Record<string, unknown>,
    surface: Surface,
    opts?: { shownHere?: boolean },
  ): Promise<CommandResult | undefined>;
  /** Ids of recently run commands, newest first (the palette lists them after the selection's). */
  recent(): string[];
}

export const CommandRuntimeContext = createContext<CommandRuntime | null>(null);

export function useCommandRuntime(): CommandRuntime {
  const rt = useContext(CommandRuntimeContext);
  if (!rt) throw new Error('useCommandRuntime outside CommandRuntimeContext');
  return rt;
}
