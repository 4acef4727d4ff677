import { describe, expect, it } from 'vitest';
import { HISTORY_LIMIT, History, type HistoryStorage, searchPrompt } from '../../src/web/terminal/history.ts';

const memory = (): HistoryStorage & { data: Map<string, string> } => {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v) };
};

describe('History', () => {
  it('persists per user, skipping blanks and consecutive duplicates', () => {
    const store = memory();
    const h = new History('u1', store);
    for (const l of ['a', 'a', ' ', 'b', 'a']) h.add(l);
    expect(h.entries()).toEqual(['a', 'b', 'a']);
    expect(JSON.parse(store.data.get('palisade.history.u1')!)).toEqual(['a', 'b', 'a']);
    expect(new History('u1', store).entries()).toEqual(['a', 'b', 'a']);
    expect(new History('u2', store).entries()).toEqual([]);
  });

  it(`keeps the newest ${HISTORY_LIMIT}`, () => {
    const store = memory();
    const h = new History('u', store);
    for (let i = 0; i < HISTORY_LIMIT + 20; i++) h.add(`cmd ${i}`);
    expect(h.entries()).toHaveLength(HISTORY_LIMIT);
    expect(h.entries()[0]).toBe('cmd 20');
    expect(new History('u', store).entries().at(-1)).toBe(`cmd ${HISTORY_LIMIT + 19}`);
  });

  it('survives corrupt or failing storage', () => {
    const store = memory();
    store.data.set('palisade.history.u', '{not json');
    const h = new History('u', {
      ...store,
      setItem: () => {
        throw new Error('quota');
      },
    });
    expect(h.entries()).toEqual([]);
    h.add('x');
    expect(h.entries()).toEqual(['x']);
  });

  it('walks back and forth, returning the draft past the newest', () => {
    const h = new History('u', memory());
    for (const l of ['one', 'two', 'three']) h.add(l);
    expect(h.previous('half typed')).toBe('three');
    expect(h.previous('three')).toBe('two');
    expect(h.previous('two')).toBe('one');
    expect(h.previous('one')).toBeNull();
    expect(h.next()).toBe('two');
    expect(h.next()).toBe('three');
    expect(h.next()).toBe('half typed');
    expect(h.next()).toBeNull();
  });

  it('searches backwards case-insensitively, older on each repeat', () => {
    const h = new History('u', memory());
    for (const l of ['ban Bob', 'servers', 'ban Alice', 'help']) h.add(l);
    const first = h.search('BAN');
    expect(first).toEqual({ index: 2, line: 'ban Alice' });
    expect(h.search('ban', first!.index)).toEqual({ index: 0, line: 'ban Bob' });
    expect(h.search('ban', 0)).toBeNull();
    expect(searchPrompt('ban', true)).toBe("(reverse-i-search)'ban': ");
    expect(searchPrompt('zz', false)).toBe("(failed reverse-i-search)'zz': ");
  });
});
