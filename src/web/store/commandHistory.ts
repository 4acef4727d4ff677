// Lists of strings kept in local storage, newest first: console history per server (Pterodactyl
// keeps one per server too) and the commands run lately (the palette lists them after the
// selection's).

/** The part of Storage a list needs; tests pass a Map-backed one. */
export type ListStorage = Pick<Storage, 'getItem' | 'setItem'>;

const browserStorage = (): ListStorage | null => globalThis.localStorage ?? null;

/** The strings stored under `key`; anything else there, or nothing, reads as none. */
export function readStringList(storage: ListStorage | null, key: string): string[] {
  try {
    const v: unknown = JSON.parse(storage?.getItem(key) ?? '[]');
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

/** Puts `value` first, once, keeping at most `max`. */
function remember(key: string, value: string, max: number): void {
  const next = [value, ...readStringList(browserStorage(), key).filter((c) => c !== value)].slice(0, max);
  browserStorage()?.setItem(key, JSON.stringify(next));
}

const HISTORY_PREFIX = 'palisade.commandHistory.';
const HISTORY_MAX = 50;
const RECENT_KEY = 'palisade.recentCommands';
const RECENT_MAX = 10;

export const commandHistory = (serverId: string) =>
  readStringList(browserStorage(), HISTORY_PREFIX + serverId);
export const rememberCommand = (serverId: string, command: string) =>
  remember(HISTORY_PREFIX + serverId, command, HISTORY_MAX);
export const recentCommands = () => readStringList(browserStorage(), RECENT_KEY);
export const rememberRecent = (id: string) => remember(RECENT_KEY, id, RECENT_MAX);
