import { createStore } from 'jotai';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  getPref,
  LOG_COLUMN_IDS,
  listPrefs,
  PREF_DEFAULTS,
  prefKeys,
  resetPref,
  setPref,
  setStoredChatMessage,
} from '../../src/web/store/prefs.ts';

class MemoryStorage implements Storage {
  private items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(i: number) {
    return [...this.items.keys()][i] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    this.items.set(key, String(value));
  }
}

const storage = new MemoryStorage();
(globalThis as { localStorage?: Storage }).localStorage = storage;

beforeEach(() => storage.clear());

/** A page load: the module reads localStorage when its atoms are created. */
async function reload() {
  vi.resetModules();
  return import('../../src/web/store/prefs.ts');
}

describe('preference defaults (SPEC §9)', () => {
  it('has the spec defaults when nothing is stored', () => {
    const store = createStore();
    expect(getPref('locale', store)).toBe('en');
    expect(getPref('playChatSounds', store)).toBe(true);
    expect(getPref('showTranslatedChat', store)).toBe(true);
    expect(getPref('promptShortcutKey', store)).toBe('1');
    expect(getPref('locatorResultsFormat', store)).toBe('SetPlayerPos');
    expect(getPref('attachNoticeVisible', store)).toBe(true);
    expect(getPref('affiliateId', store)).toBeNull();
    expect(getPref('theme', store)).toBe('system');
    expect(getPref('density', store)).toBe('compact');
    expect(getPref('logColumns', store)).toEqual(expect.arrayContaining(['type', 'level']));
    expect(getPref('storedChatMessage', store)).toEqual({});
  });

  it('lists every preference key', () => {
    expect(prefKeys().sort()).toEqual(Object.keys(PREF_DEFAULTS).sort());
  });
});

describe('persistence', () => {
  it('writes one localStorage key per preference and the next page load reads it back', async () => {
    setPref('playChatSounds', false, createStore());
    setPref('theme', 'dark', createStore());
    expect(storage.getItem('palisade.pref.playChatSounds')).toBe('false');
    expect(storage.getItem('palisade.pref.theme')).toBe('"dark"');
    const next = await reload();
    expect(next.getPref('playChatSounds', createStore())).toBe(false);
    expect(next.getPref('theme', createStore())).toBe('dark');
  });

  it('reads a corrupt or out-of-range stored value as the default', async () => {
    storage.setItem('palisade.pref.theme', '"blue"');
    storage.setItem('palisade.pref.playChatSounds', '{not json');
    storage.setItem('palisade.pref.logColumns', '["message","bogus"]');
    storage.setItem('palisade.pref.chatName', '"Survivor"');
    const next = await reload();
    const store = createStore();
    expect(next.getPref('theme', store)).toBe('system');
    expect(next.getPref('playChatSounds', store)).toBe(true);
    expect(next.getPref('logColumns', store)).toEqual([...LOG_COLUMN_IDS]);
    expect(next.getPref('chatName', store)).toBe('Survivor');
  });

  it('reset removes the stored value', () => {
    const store = createStore();
    setPref('chatName', 'Admin', store);
    resetPref('chatName', store);
    expect(storage.getItem('palisade.pref.chatName')).toBeNull();
    expect(getPref('chatName', store)).toBe('');
  });

  it('keeps the unsent chat message per server and drops it when emptied', () => {
    const store = createStore();
    setStoredChatMessage('s1', 'hello', store);
    setStoredChatMessage('s2', 'there', store);
    setStoredChatMessage('s1', '', store);
    expect(getPref('storedChatMessage', store)).toEqual({ s2: 'there' });
    expect(JSON.parse(storage.getItem('palisade.pref.storedChatMessage')!)).toEqual({ s2: 'there' });
  });

  it('stores list filter, sort and columns per list name', async () => {
    const store = createStore();
    listPrefs.set('servers', { filter: 'ark' }, store);
    listPrefs.set('servers', { sort: { column: 'name', direction: 'desc' } }, store);
    const next = await reload();
    expect(next.listPrefs.get('servers', createStore())).toEqual({
      filter: 'ark',
      sort: { column: 'name', direction: 'desc' },
      columns: null,
    });
    expect(next.listPrefs.get('dinos', createStore())).toEqual({ filter: '', sort: null, columns: null });
  });
});

describe('setPref from console strings', () => {
  it('parses booleans, enums (any case) and column lists', () => {
    const store = createStore();
    setPref('showTranslatedChat', 'no', store);
    setPref('locatorResultsFormat', 'gps', store);
    setPref('logColumns', 'message, Time,level', store);
    setPref('affiliateId', '', store);
    expect(getPref('showTranslatedChat', store)).toBe(false);
    expect(getPref('locatorResultsFormat', store)).toBe('GPS');
    expect(getPref('logColumns', store)).toEqual(['message', 'time', 'level']);
    expect(getPref('affiliateId', store)).toBeNull();
  });

  it('names the known preferences for an unknown key', () => {
    expect(() => setPref('colour', 'red')).toThrow(
      /^Unknown preference "colour"\. Preferences: locale, chatName, playChatSounds, .*density\.$/,
    );
  });

  it('lists the allowed values for a bad value and leaves the old one', () => {
    const store = createStore();
    expect(() => setPref('theme', 'blue', store)).toThrow(
      'Invalid value for theme: expected one of light, dark, system.',
    );
    expect(() => setPref('playChatSounds', 'maybe', store)).toThrow(
      'Invalid value for playChatSounds: expected yes or no.',
    );
    expect(() => setPref('promptShortcutKey', 'ab', store)).toThrow(
      'Invalid value for promptShortcutKey: expected a single character.',
    );
    expect(() => setPref('logColumns', 'message,colour', store)).toThrow(
      'Invalid value for logColumns: expected a comma-separated list of message, time, event, type, level, server.',
    );
    expect(getPref('theme', store)).toBe('system');
  });
});
