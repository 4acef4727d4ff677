import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FuzzyIndex, fuzzyFor, RANK_LIMIT } from '../../src/web/palette/fuzzy.ts';
import { keyLabels } from '../../src/web/palette/keyLabels.ts';

const words = [
  'rex',
  'raptor',
  'giga',
  'bob',
  'alice',
  'island',
  'tribe',
  'of',
  '150',
  '15',
  'lvl',
  'x',
  '"b',
  '-',
];
const line = fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 6 }).map((w) => w.join(' '));

describe('FuzzyIndex', () => {
  const sameAsFresh = (hay: string[], query: string) => {
    const incremental = new FuzzyIndex(hay);
    for (let k = 1; k <= query.length; k++) {
      const q = query.slice(0, k);
      expect(incremental.search(q)).toEqual(new FuzzyIndex(hay).search(q));
    }
  };

  it('gives the same matches when narrowing a growing query as when searching afresh', () => {
    fc.assert(fc.property(fc.array(line, { minLength: 1, maxLength: 60 }), line, sameAsFresh), {
      numRuns: 150,
    });
  });

  it('gives the same matches when narrowing resumes a scan that stopped early', () => {
    // Over RANK_LIMIT hits, so that scans stop part-way and the next key resumes them.
    fc.assert(
      fc.property(
        fc.array(line, { minLength: RANK_LIMIT * 2, maxLength: RANK_LIMIT * 4 }),
        line,
        sameAsFresh,
      ),
      { numRuns: 15 },
    );
  });

  it('answers a first key made ahead as a fresh search does, and narrows from it', () => {
    const prepared = (hay: string[]) => {
      const index = new FuzzyIndex(hay);
      for (const _ of index.prepareFirstKeys());
      return index;
    };
    // Both sizes: hits ranked (few) and hits cut off unranked (a scan that stopped part-way).
    for (const size of [60, RANK_LIMIT * 3]) {
      fc.assert(
        fc.property(fc.array(line, { minLength: size, maxLength: size }), line, (hay, query) => {
          const index = prepared(hay);
          for (let k = 1; k <= query.length; k++) {
            const q = query.slice(0, k);
            expect(index.search(q)).toEqual(new FuzzyIndex(hay).search(q));
          }
          // A first key again after others, and a small cap, still read what was made ahead.
          expect(index.search(query[0], 5)).toEqual(new FuzzyIndex(hay).search(query[0], 5));
        }),
        { numRuns: size > 100 ? 5 : 60 },
      );
    }
  });

  it('finds what uFuzzy finds over every string, letter and digit masks notwithstanding', () => {
    // Mixed case, digits, separators, quotes and characters outside ASCII, some of which a
    // case-insensitive regexp matches to ASCII letters (ſ to s, K to k).
    const chars = fc.constantFrom(...`rRsSkKexX15 0-9bBoO'"ſKİé—`.split(''));
    const str = fc.array(chars, { maxLength: 12 }).map((cs) => cs.join(''));
    fc.assert(
      fc.property(fc.array(str, { minLength: 1, maxLength: 40 }), str, (hay, query) => {
        fc.pre(/[a-z\d]/i.test(query));
        // uFuzzy reads `"'…` as a quoted term that matches every string, "x" and "" included; the
        // palette does not follow it there.
        fc.pre(!query.includes(`"'`));
        const ours = new FuzzyIndex(hay).search(query, hay.length).sort((a, b) => a - b);
        expect(ours).toEqual(fuzzyFor(query.trim()).filter(hay, query.trim()) ?? []);
      }),
      { numRuns: 400 },
    );
  });

  it('stops a broad query early with `cap` unranked hits, and ranks a narrow one', () => {
    const hay = Array.from({ length: 50_000 }, (_, i) => `Rex ${i} Tribe of Bob`);
    const broad = new FuzzyIndex(hay).search('rex', RANK_LIMIT);
    expect(broad).toEqual(Array.from({ length: RANK_LIMIT }, (_, i) => i));
    const narrow = new FuzzyIndex(['Tribe of Rex', 'Rex', 'Rexy the second']).search('rex');
    expect(narrow[0]).toBe(1);
    expect(new FuzzyIndex(hay).search('', 3)).toEqual([0, 1, 2]);
  });

  it('makes lazy strings only as far as a scan reaches, with the same results as eager ones', () => {
    const text = (i: number) => `Rex ${i} Tribe of ${i % 7 === 0 ? 'Bob' : 'Eve'}`;
    const made: number[] = [];
    const lazy = new FuzzyIndex({
      size: 20_000,
      textOf: (i) => {
        made.push(i);
        return text(i);
      },
    });
    const eager = new FuzzyIndex(Array.from({ length: 20_000 }, (_, i) => text(i)));
    expect(lazy.search('rex')).toEqual(eager.search('rex'));
    expect(made.length).toBeLessThan(5000);
    expect(lazy.search('rex 1999')).toEqual(eager.search('rex 1999'));
    expect(lazy.search('bob 7')).toEqual(eager.search('bob 7'));
    expect(new Set(made).size).toBe(made.length); // each string made once
  });

  it('matches names that are not Latin, case-insensitively', () => {
    expect(new FuzzyIndex(['Rex of Bob', 'Вася Пупкин', 'Ørn']).search('вас')).toEqual([1]);
    expect(new FuzzyIndex(['Rex of Bob', 'Ørn']).search('ØRN')).toEqual([1]);
    // Unicode case folding matches long s to s and the Kelvin sign to k.
    expect(new FuzzyIndex(['star', 'ſtär']).search('stä')).toEqual([1]);
    expect(new FuzzyIndex(['klte', '\u212Alté']).search('klté')).toEqual([1]);
  });
});

describe('keyLabels', () => {
  it('shows mod as Ctrl or ⌘ and sequences as separate chords', () => {
    expect(keyLabels('mod+shift+k', false)).toEqual(['Ctrl+Shift+K']);
    expect(keyLabels('mod+k', true)).toEqual(['⌘+K']);
    expect(keyLabels('g>s', false)).toEqual(['G', 'S']);
  });
});
