// Console history per server (Pterodactyl keeps one per server too): newest first, in local storage.

const HISTORY_PREFIX = 'palisade.commandHistory.';
const HISTORY_MAX = 50;

export function commandHistory(serverId: string): string[] {
  try {
    const v = JSON.parse(globalThis.localStorage?.getItem(HISTORY_PREFIX + serverId) ?? '[]');
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

export function rememberCommand(serverId: string, command: string): void {
  const next = [command, ...commandHistory(serverId).filter((c) => c !== command)].slice(0, HISTORY_MAX);
  globalThis.localStorage?.setItem(HISTORY_PREFIX + serverId, JSON.stringify(next));
}

// The commands run lately, newest first: the palette lists them after the selection's.
const RECENT_KEY = 'palisade.recentCommands';
const RECENT_MAX = 10;

export function recentCommands(): string[] {
  try {
    const v = JSON.parse(globalThis.localStorage?.getItem(RECENT_KEY) ?? '[]');
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

export function rememberRecent(id: string): void {
  const next = [id, ...recentCommands().filter((c) => c !== id)].slice(0, RECENT_MAX);
  globalThis.localStorage?.setItem(RECENT_KEY, JSON.stringify(next));
}
