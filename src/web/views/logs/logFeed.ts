// The rows of one log view: a snapshot of the server's list paged on demand, plus the live lines
// that arrived after it. Row 0 is the newest.
//
// - Snapshot: the list as of its newest line (a cursor of time and messageId). Every page is
//   asked `until` that cursor, so pages never shift while new lines are stored.
// - Head: live lines newer than the snapshot, shown above it. When it grows past HEAD_MAX it is
//   folded into the snapshot (the cursor moves up, held blocks move down): positions do not
//   change, so the reader sees nothing move, and memory stays bounded.
// - Pending: lines received but not shown yet. They are shown on the next flush when the reader
//   is at the top (follow); when scrolled away they wait, so the reader keeps their place. Past
//   PENDING_MAX only their count is kept, and returning to the top reloads.
// - Catch-up: after a realtime (re)subscribe, a `logsUpdated`, or a line only the server can
//   judge (text search), everything after `complete` is fetched in ascending keyset pages from
//   that exact cursor: no gap, no duplicate. `complete` is the newest line up to which nothing
//   can be missing: the snapshot, then each live line while no gap is suspected. Lines that
//   arrive after a suspected gap do not move it (they prove nothing about what came before).

import type { LogMessage, Page } from '../../../domain/api.ts';
import { type Cursor, compareCursor, cursorOf, linesAfter, newestFirst } from '../../store/logOrder.ts';
import { mergeSorted } from '../../store/pagedList.ts';
import { PAGE_SIZE, PageWindow, windowOf } from '../../store/pageWindow.ts';
import type { QueryParams } from './logQuery.ts';

export const HEAD_MAX = 1000;
export const PENDING_MAX = 2000;
/** Catch-up pages before the gap is deemed too large and the view reloads instead. */
export const CATCH_UP_PAGES = 8;

export interface FeedOptions {
  /** GET /sentinel/logMessages with these parameters. */
  list(params: QueryParams): Promise<Page<LogMessage>>;
  /** Scope and filters, without paging or cursors. */
  query: QueryParams;
  /** Whether a live line belongs here; null when only the server can tell. */
  accepts(m: LogMessage): boolean | null;
  /** New lines are merged only in the default order (time descending). */
  live: boolean;
  onChange(): void;
  onError?(e: Error): void;
}

export class LogFeed {
  private head: LogMessage[] = [];
  private pending: LogMessage[] = [];
  private ids = new Set<string>();
  private snapshot: Cursor | null = null;
  /** The snapshot's rows: every page is asked `until` its newest line. */
  private pages: PageWindow<LogMessage>;
  private generation = 0;
  private catchingUp = false;
  private complete: Cursor | null = null;
  /** Bumped by each suspected gap; a catch-up closes the gaps it started after. */
  private gaps = 0;
  private gapOpen = false;
  /** Lines that could not be held while the reader was away; showing them needs a reload. */
  private overflow = 0;
  loaded = false;
  loading = false;
  /** New lines exist but this order cannot place them (not time descending). */
  stale = false;
  wantsCatchUp = false;

  constructor(private readonly opts: FeedOptions) {
    this.pages = new PageWindow({
      fetch: (page) => {
        const snap = this.snapshot;
        return opts.list({
          ...opts.query,
          page: String(page),
          pageSize: String(PAGE_SIZE),
          ...(snap ? { until: String(snap.time), untilMessageId: snap.id } : {}),
        });
      },
      onChange: () => opts.onChange(),
      onError: (e) => opts.onError?.(e),
    });
  }

  get count(): number {
    return this.head.length + this.pages.total;
  }

  /** Lines waiting to be shown. */
  get waiting(): number {
    return this.pending.length + this.overflow;
  }

  get heldRows(): number {
    return this.head.length + this.pending.length + this.pages.heldRows;
  }

  rowAt(i: number): LogMessage | undefined {
    return i < this.head.length ? this.head[i] : this.pages.rowAt(i - this.head.length);
  }

  /** The contiguous held rows from the first held index in [start, end), for VirtualList. */
  window(start: number, end: number): { offset: number; rows: LogMessage[] } {
    return windowOf((i) => this.rowAt(i), this.count, start, end);
  }

  /** Something may have been missed (resubscribe, `logsUpdated`): fetch from `complete` soon. */
  markGap(): void {
    this.gaps++;
    this.gapOpen = true;
    this.wantsCatchUp = true;
  }

  /** The newest line known, shown or waiting. */
  newest(): Cursor | null {
    let best = this.head[0] ? cursorOf(this.head[0]) : this.snapshot;
    for (const m of this.pending) if (!best || compareCursor(cursorOf(m), best) > 0) best = cursorOf(m);
    return best;
  }

  /** Loads from the top: a new snapshot. Held rows, waiting lines and in-flight fetches are dropped. */
  async reload(): Promise<void> {
    const gen = ++this.generation;
    this.head = [];
    this.pending = [];
    this.ids.clear();
    this.pages.reset();
    this.loaded = false;
    this.overflow = 0;
    this.stale = false;
    this.wantsCatchUp = false;
    this.snapshot = null;
    this.complete = null;
    this.gapOpen = false;
    this.loading = true;
    this.opts.onChange();
    try {
      const page = await this.opts.list({ ...this.opts.query, page: '1', pageSize: String(PAGE_SIZE) });
      if (gen !== this.generation) return;
      const top = page.results[0];
      // In time-descending order the first row is the newest; in another order ask for it.
      const newest =
        !top || this.opts.live
          ? top
          : (
              await this.opts.list({
                ...this.opts.query,
                sortedColumn: 'time',
                sortDirection: 'descending',
                pageSize: '1',
              })
            ).results[0];
      if (gen !== this.generation) return;
      const snap = newest ? cursorOf(newest) : null;
      this.snapshot = snap;
      this.complete = snap;
      // Lines that arrived while the first page was on its way may be in it already.
      if (snap) {
        this.pending = this.pending.filter((m) => compareCursor(cursorOf(m), snap) > 0);
        this.ids = new Set(this.pending.map((m) => m.messageId));
      }
      this.pages.start(page);
      this.loaded = true;
    } catch (e) {
      if (gen === this.generation) this.opts.onError?.(e as Error);
    } finally {
      if (gen === this.generation) {
        this.loading = false;
        this.opts.onChange();
      }
    }
  }

  /** Fetches the snapshot's pages the rows [start, end) need (PageWindow.ensure). */
  ensure(start: number, end: number): void {
    if (this.loaded) this.pages.ensure(start - this.head.length, end - this.head.length);
  }

  /**
   * Live or fetched lines. `trusted` lines come from the server under this view's query, so they
   * match; others are judged by `accepts`.
   */
  receive(lines: readonly LogMessage[], trusted = false): void {
    for (const m of lines) {
      if (!this.opts.live) {
        if (trusted || this.opts.accepts(m) !== false) this.stale = true;
        continue;
      }
      if (!trusted) {
        const ok = this.opts.accepts(m);
        if (ok === null) this.markGap();
        else if (!this.gapOpen && (!this.complete || compareCursor(cursorOf(m), this.complete) > 0))
          this.complete = cursorOf(m);
        if (!ok) continue;
      }
      if (this.ids.has(m.messageId)) continue;
      // At or before the snapshot's newest line: already in the list, or older than it (a game
      // server's late event), which a reload shows where it belongs.
      if (this.snapshot && compareCursor(cursorOf(m), this.snapshot) <= 0) continue;
      if (this.pending.length >= PENDING_MAX) {
        this.overflow++;
        continue;
      }
      this.pending.push(m);
      this.ids.add(m.messageId);
    }
  }

  /**
   * Shows waiting lines when the reader follows the top; returns whether rows changed.
   * Called on a timer (≥ 250 ms), not per line: each flush renders the list once, and a reader
   * sees lines arrive in steps rather than a blur.
   */
  flush(following: boolean): boolean {
    if (!following || !this.loaded || this.pending.length + this.overflow === 0) return false;
    if (this.overflow > 0) {
      void this.reload();
      return true;
    }
    this.pending.sort(newestFirst);
    this.head = mergeSorted(this.pending, this.head, newestFirst);
    this.pending = [];
    if (this.head.length > HEAD_MAX) this.fold();
    return true;
  }

  /** The head becomes part of the snapshot; every row keeps its position. */
  private fold(): void {
    const head = this.head;
    this.pages.prepend(head);
    this.snapshot = cursorOf(head[0]);
    for (const m of head) this.ids.delete(m.messageId);
    this.head = [];
  }

  /** Fetches what is newer than the newest line held (see the file comment). */
  async catchUp(): Promise<void> {
    this.wantsCatchUp = false;
    if (!this.loaded || this.catchingUp) return;
    if (!this.opts.live) {
      this.stale = true;
      this.opts.onChange();
      return;
    }
    this.catchingUp = true;
    const gaps = this.gaps;
    try {
      let since = this.complete;
      for (let i = 0; i < CATCH_UP_PAGES; i++) {
        const page = await this.opts.list({
          ...this.opts.query,
          ...linesAfter(since),
          page: '1',
          pageSize: String(PAGE_SIZE),
        });
        this.receive(page.results, true);
        if (page.results.length < PAGE_SIZE) {
          // Whatever is newer than this answer arrives live: nothing is missing any more.
          if (gaps === this.gaps) {
            this.gapOpen = false;
            this.complete = this.newest();
          }
          return;
        }
        since = cursorOf(page.results[page.results.length - 1]);
      }
      // More missed than is worth merging line by line.
      this.overflow = Math.max(this.overflow, 1);
    } catch (e) {
      this.opts.onError?.(e as Error);
    } finally {
      this.catchingUp = false;
      this.opts.onChange();
    }
  }
}
