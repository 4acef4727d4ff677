// What a command may use when it runs. The console implements it (src/web/app/commandContext.ts);
// tests implement it with fakes. Commands never import React or touch the DOM themselves.

import type { LocateResult, RequestCompleted, User } from '../src/domain/api.ts';
import type { PushState } from '../src/domain/push.ts';
import type { EntityKind, Selection } from '../src/domain/resolver.ts';
import type { SentinelApi } from '../src/web/api/sentinel.ts';
import type { BlueprintKind, EntityLookup, EntityRef } from './args.ts';
import type { Command } from './registry.ts';

export type Surface = 'palette' | 'console' | 'hotkey' | 'menu' | 'toolbar' | 'form';

export type { Selection } from '../src/domain/resolver.ts';

export interface ListController {
  readonly name: string;
  focusFilter(): void;
  openColumns(): void;
  refresh(): void;
  exportCsv(): void;
  openContextMenu(): void;
}

export interface TableResult {
  columns: string[];
  rows: (string | number | boolean | null)[][];
}

/**
 * Text to read in full under its heading, e.g. one server's answer to a game command: the console
 * prints every line of it as it came (sanitised), never cut to a cell.
 */
export interface ResultSection {
  heading: string;
  text: string;
  /** The text says why something failed. */
  failed?: boolean;
}

export interface CommandResult {
  /** One line for a toast and the console: other surfaces show only this summary. */
  message?: string;
  table?: TableResult;
  sections?: ResultSection[];
  /** Where the API allows it, a way back (kbar's perform → undo). */
  undo?: () => Promise<void>;
  /** The console is wiped before the rest is printed (`clear`). */
  clearScreen?: true;
}

/** Results of game actions as the game reports them, listened for before the requests go out. */
export interface AppServices {
  navigate(to: string): void;
  back(): void;
  forward(): void;
  api: SentinelApi;
  toast(kind: 'success' | 'error' | 'info', summary: string, reason?: string): void;
  palette: { open(query?: string): void };
  terminal: {
    toggle(): void;
    focus(): void;
    /** The lines run in the console, oldest first. */
    history(): readonly string[];
  };
  /** Every registered command, for `help`. */
  catalogue: { all(): Command[]; find(name: string): Command | undefined };
  panes: {
    split(direction: 'right' | 'down'): void;
    close(): void;
    focus(step: 1 | -1): void;
    /** Grow (positive) or shrink the active pane by a fraction of its split. */
    resize(delta: number): void;
  };
  /** The list that has focus in the active pane, if any. */
  list(): ListController | null;
  clipboard: { copy(text: string): Promise<void> };
  /** A file the browser saves (an exported script). */
  files: { save(filename: string, text: string, type: string): void };
  dialogs: {
    info(title: string, rows: [string, string][]): void;
    confirm(message: string): Promise<boolean>;
    shortcuts(): void;
    /** The command as a form, its fields filled with what is known (typed text or values). */
    form(commandId: string, known?: Record<string, unknown>): void;
    /** One row of a table chosen by the user (the Revive dialog's survivors); null when cancelled. */
    choose(choice: Choice): Promise<EntityRef | null>;
    /** The blueprint picker (Search, Pick Mods): the chosen class path, or null when cancelled. */
    pickBlueprint(
      kind: BlueprintKind,
      query?: { text?: string; packs?: readonly string[] },
    ): Promise<string | null>;
    /** The mod picker: the chosen mod (content pack) names, or null when cancelled. */
    pickMods(selected: readonly string[]): Promise<string[] | null>;
  };
  /**
   * What the game answered to an action sent over the link (locate, restore, …): the realtime
   * event carrying the request's id, or a rejection after a while without one.
   */
  /** The game's answer to a request sent over the link; rejects when none comes within the timeout. */
  game: {
    result(requestId: string, timeoutMs?: number): Promise<LocateResult | RequestCompleted>;
    /** A script test's output as it comes (lines already here first); call the result to stop. */
    output(requestId: string, onLines: (lines: string[]) => void): () => void;
  };
  /** The last undoable command run from any surface: whether there is one, and undoing it (its title). */
  undo: { available(): boolean; run(): Promise<string> };
  prefs: { get(key: string): unknown; set(key: string, value: unknown): void; keys(): string[] };
  /** Admin commands sent to each server, kept by the browser (newest first). */
  commandHistory: { list(serverId: string): string[]; remember(serverId: string, command: string): void };
  /** Push notifications per server: the browser's permission with our choice. */
  push: {
    state(serverId: string): PushState;
    set(serverId: string, on: boolean): Promise<PushState>;
    /** Asks the browser to allow notifications (a browser-notification destination). */
    allow(): Promise<PushState>;
  };
  auth: { signIn(returnTo?: string): Promise<void>; signOut(): Promise<void>; deviceId(): string };
  /** The browser makes a passkey from the server's WebAuthn options (the JSON of either side). */
  passkeys: { create(options: unknown): Promise<unknown> };
  openExternal(url: string): void;
  /** `console`: this console's own origin, the address other sites (checkout, billing portal) return to. */
  links: { controlPanel: string; planner: string; console: string };
}

/** A table to choose one row from: its columns and, per row, the entity and its cells. */
export interface Choice {
  title: string;
  columns: string[];
  rows: { ref: EntityRef; cells: string[] }[];
  emptyText: string;
  /** A line shown above the table however many rows it has (the script runner's notice). */
  notice?: string;
}

export interface CommandContext {
  /** The active pane's path, e.g. `/servers/3f…/chat`. */
  route: string;
  selection: Selection;
  user: User | null;
  surface: Surface;
  entities: EntityLookup;
  app: AppServices;
  /**
   * The caller's effective mask (SENTINEL-API §7) on `of`, or on what is in view when omitted:
   * a server's or group's own, a survivor's, tribe's, dino's or log line's server's; null when
   * unknown or when nothing in view holds one.
   */
  permissions(of?: { kind: EntityKind; id: string }): number | null;
}
