// The kept pages' bound (server/http/keptPages.ts): the least recently asked go first.

import { describe, expect, it } from 'vitest';
import { KeptPages } from '../../src/server/http/keptPages.ts';

const page = (bytes: number, version = 'v') => ({ version, results: Buffer.alloc(bytes), n: 1 });
/** What a page of `bytes` of results is counted as: its results and what it holds beside them. */
const counted = (bytes: number) => bytes + 512;

describe('KeptPages', () => {
  it('drops the least recently asked pages past its bytes', () => {
    const kept = new KeptPages(3 * counted(100));
    kept.set('a', page(100));
    kept.set('b', page(100));
    kept.set('c', page(100));
    expect(kept.get('a')).toBeDefined();
    kept.set('d', page(100));
    expect(kept.get('b')).toBeUndefined();
    for (const key of ['a', 'c', 'd']) expect(kept.get(key)).toBeDefined();
  });

  it('replaces a page kept under the same key, counting its bytes once', () => {
    const kept = new KeptPages(2 * counted(100) + 50);
    kept.set('a', page(100, 'old'));
    kept.set('a', page(100, 'new'));
    kept.set('b', page(100));
    expect(kept.get('a')?.version).toBe('new');
    expect(kept.get('b')).toBeDefined();
  });

  it('keeps no page bigger than all its room', () => {
    const kept = new KeptPages(counted(100));
    kept.set('a', page(50));
    kept.set('huge', page(101));
    expect(kept.get('huge')).toBeUndefined();
    expect(kept.get('a')).toBeDefined();
  });

  it('counts what a page holds beside its results, so pages of nothing are bounded too', () => {
    // A flood of searches matching nothing: 2 bytes of results each.
    const kept = new KeptPages(100 * counted(2));
    for (let i = 0; i < 1_000; i++) kept.set(`nothing ${i}`, page(2));
    const left = Array.from({ length: 1_000 }, (_, i) => kept.get(`nothing ${i}`)).filter(Boolean);
    expect(left).toHaveLength(100);
    // A search page's ids count too.
    const ids = Array.from({ length: 100 }, (_, i) => String(i));
    kept.set('search', { ...page(2), since: { snapshot: '1:1:', ids, low: null, high: null } });
    expect(
      Array.from({ length: 1_000 }, (_, i) => kept.get(`nothing ${i}`)).filter(Boolean).length,
    ).toBeLessThan(100 - 10);
  });
});
