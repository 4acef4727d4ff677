// Fuzzy filtering for the palette with uFuzzy (TOOLCHAIN §5): terms in order, each a
// case-insensitive substring. Two things keep a keystroke cheap over 100k strings:
// - a query that extends the previous one is filtered within the previous complete match set;
// - a query with many hits stops scanning once it has more than `cap` of them, because that many
//   are shown unranked anyway (uFuzzy ranks only small result sets).

import uFuzzy from '@leeoniya/ufuzzy';

/** uFuzzy's advice: rank (info + sort) only when there are this many hits or fewer. */
export const RANK_LIMIT = 1000;

/** First scan window; it doubles each round so a broad query stops after a few thousand strings. */
const FIRST_CHUNK = 2048;

// A quoted phrase is matched differently once its quote closes, so it does not narrow monotonically.
// (filter() has no `-term` negation: that is search()'s, which we do not use.)
const NON_MONOTONE = /"/;
// A query of separators only (`-`, `(`) has no terms and matches nothing, so it cannot be narrowed.
const HAS_TERM = /[\p{L}\d]/u;

// Unicode letters count as letters: player and tribe names are often not Latin (uFuzzy README's
// unicode settings; about 25 % slower than ASCII-only on a full scan).
const fuzzy = new uFuzzy({
  unicode: true,
  interSplit: "[^\\p{L}\\d']+",
  intraSplit: '\\p{Ll}\\p{Lu}',
  intraBound: '\\p{L}\\d|\\d\\p{L}|\\p{Ll}\\p{Lu}',
  intraChars: "[\\p{L}\\d']",
  intraContr: "'\\p{L}{1,2}\\b",
});

export class FuzzyIndex {
  /** The complete match set of the last query, when one was computed (narrowing source). */
  private last: { query: string; idxs: number[] } | null = null;

  constructor(readonly haystack: readonly string[]) {}

  get size(): number {
    return this.haystack.length;
  }

  /**
   * Indices of matching strings, best first when ranked, at most `cap` of them.
   * An empty query returns the first `cap` strings in their own order.
   */
  search(query: string, cap = RANK_LIMIT): number[] {
    const q = query.trim();
    const hay = this.haystack as string[];
    if (q === '') {
      this.last = null;
      return range(0, Math.min(cap, hay.length));
    }
    const from = this.narrowingSource(q);
    const limit = Math.max(cap, RANK_LIMIT);
    const { idxs, complete } = from
      ? { idxs: fuzzy.filter(hay, q, from) ?? [], complete: true }
      : this.scan(q, limit);
    this.last = complete ? { query: q, idxs } : null;
    if (complete && idxs.length > 0 && idxs.length <= RANK_LIMIT) {
      const info = fuzzy.info(idxs, hay, q);
      const order = fuzzy.sort(info, hay, q);
      const ranked = order.map((i) => info.idx[i]);
      return ranked.length > cap ? ranked.slice(0, cap) : ranked;
    }
    return idxs.length > cap ? idxs.slice(0, cap) : idxs;
  }

  private narrowingSource(q: string): number[] | null {
    const last = this.last;
    if (!last || NON_MONOTONE.test(q) || !HAS_TERM.test(last.query) || !q.startsWith(last.query)) return null;
    return last.idxs;
  }

  /** Filters window by window until more than `limit` hits are found or the haystack ends. */
  private scan(q: string, limit: number): { idxs: number[]; complete: boolean } {
    const hay = this.haystack as string[];
    const out: number[] = [];
    let start = 0;
    let chunk = FIRST_CHUNK;
    while (start < hay.length) {
      const end = Math.min(hay.length, start + chunk);
      const hits = fuzzy.filter(hay, q, start === 0 && end === hay.length ? undefined : range(start, end));
      if (hits) for (const i of hits) out.push(i);
      start = end;
      if (out.length > limit) return { idxs: out, complete: start >= hay.length };
      chunk *= 2;
    }
    return { idxs: out, complete: true };
  }
}

function range(from: number, to: number): number[] {
  const out = new Array<number>(Math.max(0, to - from));
  for (let i = from; i < to; i++) out[i - from] = i;
  return out;
}
