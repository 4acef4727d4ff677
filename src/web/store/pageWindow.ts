// A server-side list too long to hold: its total, and the pages near the reader fetched on demand
// into a BlockCache, so scrolling a million rows holds a few thousand. The survivor, tribe and
// dino lists show one as it is; the log view's feed (views/logs/logFeed.ts) puts live lines above
// one and folds them in.

import type { Page } from '../../domain/api.ts';
import { BlockCache } from './blockCache.ts';

export const PAGE_SIZE = 250;
/** Blocks held: about 16 pages of 250 rows. */
export const CACHE_BLOCKS = 16;
/** Page requests at once; while the reader jumps, only the latest place's pages are asked for. */
export const MAX_INFLIGHT = 2;

/**
 * The total as far as a page shows it. Past 10,000 matches the server's total is an estimate
 * (totalIsEstimate): a short page marks the true end, an empty one says the end is before it.
 */
export function totalSeen(page: { totalResults: number; results: unknown[] }, offset: number): number {
  const n = page.results.length;
  if (n > 0 && n < PAGE_SIZE) return offset + n;
  if (n === 0) return Math.min(page.totalResults, offset);
  return Math.max(page.totalResults, offset + n);
}

/** The contiguous rows held from the first held index in [start, end), for a VirtualList. */
export function windowOf<T>(
  rowAt: (i: number) => T | undefined,
  count: number,
  start: number,
  end: number,
): { offset: number; rows: T[] } {
  const rows: T[] = [];
  let offset = start;
  for (let i = start; i < Math.min(end, count); i++) {
    const r = rowAt(i);
    if (r) {
      if (rows.length === 0) offset = i;
      rows.push(r);
    } else if (rows.length > 0) break;
  }
  return { offset, rows };
}

export interface PageWindowOptions<T> {
  /** Page `page` (from 1) of PAGE_SIZE rows, as the list is now. */
  fetch(page: number): Promise<Page<T>>;
  onChange(): void;
  onError?(e: Error): void;
}

export class PageWindow<T> {
  private cache = new BlockCache<T>(CACHE_BLOCKS);
  private inflight = new Set<number>();
  /** Pages the reader's current place needs, nearest first; replaced on every move. */
  private wanted: number[] = [];
  /** Bumped whenever positions change meaning: a page asked for before is then dropped. */
  private generation = 0;
  total = 0;
  loaded = false;

  constructor(private readonly opts: PageWindowOptions<T>) {}

  get heldRows(): number {
    return this.cache.heldRows;
  }

  get count(): number {
    return this.total;
  }

  rowAt(i: number): T | undefined {
    return this.cache.get(i);
  }

  window(start: number, end: number): { offset: number; rows: T[] } {
    return windowOf((i) => this.rowAt(i), this.total, start, end);
  }

  /** Forgets every row; pages on their way are dropped when they arrive. */
  reset(): void {
    this.generation++;
    this.cache.clear();
    this.inflight.clear();
    this.wanted = [];
    this.total = 0;
    this.loaded = false;
  }

  /** The list starts (again) from its first page, fetched by the owner: what was held is forgotten. */
  start(page: Page<T>): void {
    this.reset();
    this.cache.put(0, page.results);
    this.total = totalSeen(page, 0);
    this.loaded = true;
  }

  /** Rows inserted above every position: held rows move down with them, pages asked for are void. */
  prepend(rows: readonly T[]): void {
    this.generation++;
    this.inflight.clear();
    this.cache.shift(rows.length);
    this.cache.put(0, rows);
    this.total += rows.length;
  }

  /**
   * Fetches the pages the rows [start, end) need, then one page either side. A reader jumping
   * through the list leaves places before their pages are asked for: those are never fetched.
   */
  ensure(start: number, end: number): void {
    if (!this.loaded) return;
    const from = Math.max(0, start);
    const to = Math.min(this.total, end);
    this.cache.touch(from, to);
    if (to <= 0) {
      this.wanted = [];
      return;
    }
    const page = (i: number) => Math.floor(i / PAGE_SIZE) + 1;
    const shown = [];
    for (let p = page(from); p <= page(to - 1); p++) shown.push(p);
    const around = [page(Math.max(0, from - PAGE_SIZE)), page(Math.min(this.total - 1, to + PAGE_SIZE))];
    this.wanted = [...new Set([...shown, ...around])].filter((p) => !this.isHeld(p));
    this.pump();
  }

  private isHeld(p: number): boolean {
    const s = (p - 1) * PAGE_SIZE;
    return this.cache.covers(s, Math.min(s + PAGE_SIZE, this.total));
  }

  private pump(): void {
    while (this.inflight.size < MAX_INFLIGHT) {
      const p = this.wanted.find((x) => !this.inflight.has(x) && !this.isHeld(x));
      if (p === undefined) return;
      void this.fetchPage(p);
    }
  }

  private async fetchPage(p: number): Promise<void> {
    const gen = this.generation;
    this.inflight.add(p);
    try {
      const page = await this.opts.fetch(p);
      if (gen !== this.generation) return;
      this.cache.put((p - 1) * PAGE_SIZE, page.results);
      this.total = totalSeen(page, (p - 1) * PAGE_SIZE);
      this.opts.onChange();
    } catch (e) {
      if (gen === this.generation) this.opts.onError?.(e as Error);
    } finally {
      // After a reset the same page may be on its way again, for the new generation.
      if (gen === this.generation) {
        this.inflight.delete(p);
        this.pump();
      }
    }
  }
}
