// What a command may use when it runs. The console implements it (src/web/app/commandContext.ts);
// tests implement it with fakes. Commands never import React or touch the DOM themselves.

import type { User } from '../src/domain/api.ts';
import type { SentinelApi } from '../src/web/api/sentinel.ts';
import type { EntityKind, EntityLookup } from './args.ts';

export type Surface = 'palette' | 'console' | 'hotkey' | 'menu' | 'toolbar';

export interface Selection {
  kind: EntityKind | null;
  ids: string[];
}

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
}

export interface AppServices {
  navigate(to: string): void;
  back(): void;
  forward(): void;
  api: SentinelApi;
  toast(kind: 'success' | 'error' | 'info', summary: string, reason?: string): void;
  palette: { open(query?: string): void };
  terminal: { toggle(): void; focus(): void };
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
  dialogs: {
    info(title: string, rows: [string, string][]): void;
    confirm(message: string): Promise<boolean>;
    shortcuts(): void;
  };
  prefs: { set(key: string, value: unknown): void; keys(): string[] };
  auth: { signIn(returnTo?: string): Promise<void>; signOut(): Promise<void>; deviceId(): string };
  openExternal(url: string): void;
  links: { controlPanel: string; billingPortal: string };
}

export interface CommandContext {
  /** The active pane's path, e.g. `/servers/3f…/chat`. */
  route: string;
  selection: Selection;
  user: User | null;
  surface: Surface;
  entities: EntityLookup;
  app: AppServices;
  /** The caller's resolved permission bits on the entity in view (server or group), if any. */
  permissions(): number | null;
}
