// Web Storage that always works: private browsing modes and sandboxed frames may refuse
// localStorage/sessionStorage, and the console must still sign in for that tab.

/** A Storage kept in memory for the life of the page (also what tests hand to the auth modules). */
export function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    key: (index) => [...items.keys()][index] ?? null,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => {
      items.set(key, String(value));
    },
    removeItem: (key) => {
      items.delete(key);
    },
    clear: () => items.clear(),
  };
}

const fallbacks: Partial<Record<'local' | 'session', Storage>> = {};

export function browserStorage(kind: 'local' | 'session'): Storage {
  try {
    const storage = kind === 'local' ? globalThis.localStorage : globalThis.sessionStorage;
    const probe = 'palisade.probe';
    storage.setItem(probe, probe);
    storage.removeItem(probe);
    return storage;
  } catch {
    fallbacks[kind] ??= memoryStorage();
    return fallbacks[kind];
  }
}

/** JSON read that treats a missing or damaged entry as absent. */
export function readJson(storage: Storage, key: string): unknown {
  try {
    return JSON.parse(storage.getItem(key) ?? 'null');
  } catch {
    return null;
  }
}
