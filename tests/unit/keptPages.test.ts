// The kept pages' bound (server/http/keptPages.ts): the least recently asked go first.

import { describe, expect, it } from 'vitest';
import { KeptPages } from '../../src/server/http/keptPages.ts';

const page = (bytes: number, version = 'v') => ({ version, results: Buffer.alloc(bytes), n: 1 });

describe('KeptPages', () => {
  it('drops the least recently asked pages past its bytes', () => {
    const kept = new KeptPages(300);
    kept.set('a', page(100));
    kept.set('b', page(100));
    kept.set('c', page(100));
    expect(kept.get('a')).toBeDefined();
    kept.set('d', page(100));
    expect(kept.get('b')).toBeUndefined();
    for (const key of ['a', 'c', 'd']) expect(kept.get(key)).toBeDefined();
  });

  it('replaces a page kept under the same key, counting its bytes once', () => {
    const kept = new KeptPages(250);
    kept.set('a', page(100, 'old'));
    kept.set('a', page(100, 'new'));
    kept.set('b', page(100));
    expect(kept.get('a')?.version).toBe('new');
    expect(kept.get('b')).toBeDefined();
  });

  it('keeps no page bigger than all its room', () => {
    const kept = new KeptPages(100);
    kept.set('a', page(50));
    kept.set('huge', page(101));
    expect(kept.get('huge')).toBeUndefined();
    expect(kept.get('a')).toBeDefined();
  });
});
