// Fuzzy filtering for the palette with uFuzzy (TOOLCHAIN §5): terms in order, each a
// case-insensitive substring. Two things keep a keystroke cheap over 100k strings:
// - a query that extends the previous one is filtered within the previous complete match set;
// - a query with many hits stops scanning once it has more than `cap` of them, because that many
//   are shown unranked anyway (uFuzzy ranks only small result sets).

import uFuzzy from '@leeoniya/ufuzzy';

/** uFuzzy's advice: rank (info + sort) only when there are this many hits or fewer. */
export const RANK_LIMIT = 1000;

const FIRST_WINDOW = 2048;

// A quoted phrase is matched differently once its quote closes, so it does not narrow monotonically.
// (filter() has no `-term` negation: that is search()'s, which we do not use.)
const NON_MONOTONE = /"/;
// A query of separators only (`-`, `(`) has no terms and matches nothing, so it cannot be narrowed.
const HAS_TERM = /[\p{L}\d]/u;

// Unicode letters count as letters, since player and tribe names are often not Latin (the uFuzzy
// README's unicode settings). Those regexps are up to 3× slower on multi-term queries, and for
// an ASCII-only query they match the same strings, so ASCII queries use the default settings.
const unicodeFuzzy = new uFuzzy({
  unicode: true,
  interSplit: "[^\\p{L}\\d']+",
  intraSplit: '\\p{Ll}\\p{Lu}',
  intraBound: '\\p{L}\\d|\\d\\p{L}|\\p{Ll}\\p{Lu}',
  intraChars: "[\\p{L}\\d']",
  intraContr: "'\\p{L}{1,2}\\b",
});
const asciiFuzzy = new uFuzzy({});
const ASCII = /^[\x20-\x7e]*$/;
const fuzzyFor = (q: string) => (ASCII.test(q) ? asciiFuzzy : unicodeFuzzy);

const WARM_RANK_SAMPLE = 256;

export class FuzzyIndex {
  /** The complete match set of the last query, when one was computed (narrowing source). */
  private last: { query: string; idxs: number[] } | null = null;
  /** Index arrays of the scan windows, made once: a fresh array per window per key is GC work. */
  private windowIdxs: number[][] = [];

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
    const fuzzy = fuzzyFor(q);
    const from = this.narrowingSource(q);
    const limit = Math.max(cap, RANK_LIMIT);
    const { idxs, complete } = from
      ? { idxs: fuzzy.filter(hay, q, from) ?? [], complete: true }
      : this.scan(fuzzy, q, limit);
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
  private scan(fuzzy: uFuzzy, q: string, limit: number): { idxs: number[]; complete: boolean } {
    const hay = this.haystack as string[];
    const out: number[] = [];
    for (let w = 0; ; w++) {
      const window = this.window(w);
      if (!window) return { idxs: out, complete: true };
      const hits = fuzzy.filter(hay, q, window);
      if (hits) for (const i of hits) out.push(i);
      if (out.length > limit) return { idxs: out, complete: this.window(w + 1) === null };
    }
  }

  /** The w-th scan window: they double in size, so a broad query stops after a few thousand strings. */
  window(w: number): number[] | null {
    let start = 0;
    let size = FIRST_WINDOW;
    for (let i = 0; i < w; i++) {
      start += size;
      size *= 2;
    }
    if (start >= this.haystack.length) return null;
    this.windowIdxs[w] ??= range(start, Math.min(this.haystack.length, start + size));
    return this.windowIdxs[w];
  }
}

/**
 * Filters the whole haystack with `query` one window per step, so that uFuzzy's code is compiled
 * before the first real keystroke, without one long task. Leaves the narrowing state alone.
 */
export function* warmUp(index: FuzzyIndex, query: string): Generator<void> {
  const hay = index.haystack as string[];
  for (const fuzzy of [asciiFuzzy, unicodeFuzzy]) {
    for (let w = 0, window = index.window(0); window; window = index.window(++w)) {
      fuzzy.filter(hay, query, window);
      yield;
    }
    // Ranking too: the first keystroke over a small list ranks all of its hits.
    const sample = fuzzy.filter(hay, 'e', range(0, Math.min(hay.length, WARM_RANK_SAMPLE)));
    if (sample && sample.length > 0) fuzzy.sort(fuzzy.info(sample, hay, 'e'), hay, 'e');
    yield;
  }
}

function range(from: number, to: number): number[] {
  const out = new Array<number>(Math.max(0, to - from));
  for (let i = from; i < to; i++) out[i - from] = i;
  return out;
}
