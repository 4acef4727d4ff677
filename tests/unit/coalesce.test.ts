import { describe, expect, it } from 'vitest';
import { coalesce } from '../../src/server/model/coalesce.ts';

describe('coalesce', () => {
  it('writes the first item at once and everything added meanwhile in the next round', async () => {
    const rounds: number[][] = [];
    let release: () => void = () => {};
    const add = coalesce<number>(async (items) => {
      rounds.push(items);
      if (rounds.length === 1) await new Promise<void>((r) => (release = r));
    });
    const first = add(1);
    const later = [add(2), add(3), add(4)];
    expect(rounds).toEqual([[1]]);
    release();
    await Promise.all([first, ...later]);
    expect(rounds).toEqual([[1], [2, 3, 4]]);
  });

  it('caps a round and rejects only the items of a round that failed', async () => {
    const rounds: number[][] = [];
    const add = coalesce<number>(async (items) => {
      rounds.push(items);
      if (items.includes(3)) throw new Error('disk full');
    }, 2);
    const results = await Promise.allSettled([1, 2, 3, 4, 5].map(add));
    expect(rounds).toEqual([[1], [2, 3], [4, 5]]);
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'rejected',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
  });
});
