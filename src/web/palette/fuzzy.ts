// Fuzzy filtering for the palette with uFuzzy (TOOLCHAIN §5): terms in order, each a
// case-insensitive substring. Three things keep a keystroke cheap over 100k strings:
// - a query with many hits stops scanning once it has more than `cap` of them, because that many
//   are shown unranked anyway (uFuzzy ranks only small result sets);
// - a query that extends the previous one is filtered within the previous matches, which are all
//   the matches in the part of the haystack scanned so far, and the scan resumes after that part;
// - a string's regexp test is skipped when it lacks a letter or digit of the query, read from a
//   bit mask per string: a full scan for `rex 15` then tests about a tenth of 100k strings.

import uFuzzy from '@leeoniya/ufuzzy';

/** uFuzzy's advice: rank (info + sort) only when there are this many hits or fewer. */
export const RANK_LIMIT = 1000;

/** Candidates per uFuzzy filter call while scanning: the scan stops after the batch that passes `limit`. */
const BATCH = 2048;
/** Strings and masks made per preparation step. */
const PREPARE_SLICE = 1000;

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
/** The uFuzzy a query is filtered with. */
export const fuzzyFor = (q: string) => (ASCII.test(q) ? asciiFuzzy : unicodeFuzzy);

const WARM_RANK_SAMPLE = 256;

// Bits 0–25: letters a–z; 26–31: digits, folded onto six bits.
const DIGIT_BIT = 26;
// The only characters outside ASCII that a case-insensitive regexp matches to an ASCII letter
// (Unicode simple case folding, under the `u` flag): long s and the Kelvin sign.
const FOLDS_TO_ASCII: Record<number, number> = { 383: 0x73, 8490: 0x6b };

function charBit(c: number): number {
  const lower = c | 0x20;
  if (lower >= 0x61 && lower <= 0x7a) return 1 << (lower - 0x61);
  if (c >= 0x30 && c <= 0x39) return 1 << (DIGIT_BIT + ((c - 0x30) % 6));
  return 0;
}

/** The letters and digits of a haystack string, as a case-insensitive regexp may match them. */
function stringMask(s: string): number {
  let mask = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    mask |= c <= 0x7f ? charBit(c) : charBit(FOLDS_TO_ASCII[c] ?? 0);
  }
  return mask;
}

/** Letters and digits every match must contain; other characters require nothing. */
function queryMask(q: string): number {
  let mask = 0;
  for (let i = 0; i < q.length; i++) {
    const c = q.charCodeAt(i);
    if (c <= 0x7f) mask |= charBit(c);
  }
  return mask;
}

interface Scanned {
  query: string;
  /** Every match among the first `scanned` strings, in haystack order. */
  idxs: number[];
  scanned: number;
}

interface Results {
  /** What a narrower query continues from. */
  scanned: Scanned;
  /** The matches, ranked when they are few enough. */
  best: number[];
}

/** Single keys in order of how often words start with them, so the likeliest first key is made first. */
const FIRST_KEYS = 'tsaciprbmdfhwelgnoukvyjqzx0123456789';

/** Strings made on demand: a scan that stops early never pays for the rest of them. */
export interface LazyHaystack {
  size: number;
  textOf(i: number): string;
}

export class FuzzyIndex {
  /** The strings searched; only the first `prepared` exist until `prepare` has run to the end. */
  readonly haystack: readonly string[];
  private readonly textOf: (i: number) => string;
  /** stringMask of each prepared string. */
  private readonly masks: Int32Array;
  private prepared = 0;
  /** The last query's matches among the first `scanned` strings (narrowing source). */
  private last: Scanned | null = null;
  /** Reused candidate batch: a fresh array per batch per key is GC work. */
  private readonly batch: number[] = [];
  /** Results of single-key queries made ahead (prepareFirstKeys), for a search without narrowing. */
  private readonly ahead = new Map<string, Results>();

  constructor(source: readonly string[] | LazyHaystack) {
    if ('textOf' in source) {
      this.haystack = new Array<string>(source.size);
      this.textOf = source.textOf;
    } else {
      this.haystack = source;
      this.textOf = (i) => source[i];
    }
    this.masks = new Int32Array(this.haystack.length);
  }

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
    const found = (!from && cap <= RANK_LIMIT && this.ahead.get(q)) || this.results(q, cap, from);
    this.last = found.scanned;
    return found.best.length > cap ? found.best.slice(0, cap) : found.best;
  }

  /** Scans for `q` (within `from`'s matches first) and ranks a complete, small enough result. */
  private results(q: string, cap: number, from: Scanned | null): Results {
    const hay = this.haystack as string[];
    const fuzzy = fuzzyFor(q);
    const { idxs, scanned } = this.scan(fuzzy, q, Math.max(cap, RANK_LIMIT), from);
    let best = idxs;
    if (scanned === hay.length && idxs.length > 0 && idxs.length <= RANK_LIMIT) {
      const info = fuzzy.info(idxs, hay, q);
      best = fuzzy.sort(info, hay, q).map((i) => info.idx[i]);
    }
    return { scanned: { query: q, idxs, scanned }, best };
  }

  /**
   * Finds and ranks each single letter and digit ahead of typing, one per step: the first
   * keystroke has the broadest query, and over a small haystack it ranks up to a thousand hits
   * (about 2 ms of a first key's 8 at 1,000 entities, bench/palette/profile.mjs).
   */
  *prepareFirstKeys(): Generator<void> {
    for (const key of FIRST_KEYS) {
      if (!this.ahead.has(key)) this.ahead.set(key, this.results(key, RANK_LIMIT, null));
      yield;
    }
  }

  private narrowingSource(q: string): Scanned | null {
    const last = this.last;
    if (!last || NON_MONOTONE.test(q) || !HAS_TERM.test(last.query) || !q.startsWith(last.query)) return null;
    return last;
  }

  /**
   * All matches among a prefix of the haystack, extended batch by batch of mask candidates until
   * more than `limit` or the haystack ends. A narrower query's matches in the part `from` scanned
   * are among `from`'s.
   */
  private scan(fuzzy: uFuzzy, q: string, limit: number, from: Scanned | null): Omit<Scanned, 'query'> {
    const hay = this.haystack as string[];
    const need = queryMask(q);
    const out = from ? (fuzzy.filter(hay, q, from.idxs) ?? []) : [];
    const batch = this.batch;
    let i = from ? from.scanned : 0;
    while (i < hay.length && out.length <= limit) {
      batch.length = 0;
      for (; i < hay.length && batch.length < BATCH; i++) if ((this.maskAt(i) & need) === need) batch.push(i);
      const hits = fuzzy.filter(hay, q, batch);
      if (hits) for (const h of hits) out.push(h);
    }
    return { idxs: out, scanned: i };
  }

  private maskAt(i: number): number {
    // Scans go in order, from 0 or from where an earlier one stopped: prepared strings are a prefix.
    if (i === this.prepared) this.prepareNext();
    return this.masks[i];
  }

  private prepareNext(): void {
    const i = this.prepared++;
    const text = this.textOf(i);
    (this.haystack as string[])[i] = text;
    this.masks[i] = stringMask(text);
  }

  /** Makes the strings and their masks ahead of typing, one slice per step. */
  *prepare(): Generator<void> {
    while (this.prepared < this.haystack.length) {
      const end = Math.min(this.haystack.length, this.prepared + PREPARE_SLICE);
      while (this.prepared < end) this.prepareNext();
      yield;
    }
  }
}

/**
 * Makes the strings and masks, then runs each filter once and ranks a sample, so that uFuzzy's code is
 * compiled before the first real keystroke, without one long task. Leaves the narrowing state alone.
 */
export function* warmUp(index: FuzzyIndex, query: string): Generator<void> {
  yield* index.prepare();
  const hay = index.haystack as string[];
  const sample = range(0, Math.min(hay.length, WARM_RANK_SAMPLE));
  for (const fuzzy of [asciiFuzzy, unicodeFuzzy]) {
    fuzzy.filter(hay, query, sample);
    yield;
    // Ranking too: the first keystroke over a small list ranks all of its hits.
    const hits = fuzzy.filter(hay, 'e', sample);
    yield;
    if (hits && hits.length > 0) fuzzy.sort(fuzzy.info(hits, hay, 'e'), hay, 'e');
    yield;
  }
}

function range(from: number, to: number): number[] {
  const out = new Array<number>(Math.max(0, to - from));
  for (let i = from; i < to; i++) out[i - from] = i;
  return out;
}
