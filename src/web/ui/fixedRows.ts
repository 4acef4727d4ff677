// Windowing for rows of one height: which rows the viewport shows is arithmetic on the scroll
// offset, so a change of the row count costs nothing. react-virtual measures every row again
// whenever the count changes (about 25 ms at 1M rows, BROWSER-PERF §2), which a log list
// receiving live lines pays several times a second.

import { type RefObject, useCallback, useLayoutEffect, useState } from 'react';

export interface RowSlot {
  index: number;
  /** Offset from the top of the scrolled content, px. */
  start: number;
}

export interface FixedRowsOptions {
  scrollRef: RefObject<HTMLElement | null>;
  count: number;
  rowHeight: number;
  /** Rows rendered beyond each edge of the viewport. */
  overscan: number;
  /** Viewport size before layout is known (tests, first paint). */
  initialRect?: { height: number };
}

export interface FixedRows {
  slots: RowSlot[];
  totalHeight: number;
  viewportHeight: number;
  /** Scrolls the least distance that shows the row whole. */
  scrollToIndex(index: number): void;
  /** Scrolls by whole rows, e.g. to keep what is on screen there when rows were inserted above. */
  scrollByRows(rows: number): void;
}

interface Viewport {
  /** The first row at least partly in view; state changes only when it does, not per scrolled pixel. */
  first: number;
  height: number;
}

/**
 * The height the rows show in: the scroller's, less what its scroll-padding-top keeps for a
 * header that stays on top (the scroll offset still counts from the first row, under it).
 */
function rowsHeight(el: HTMLElement): number {
  const header = Number.parseFloat(getComputedStyle(el).scrollPaddingTop) || 0;
  return Math.max(0, el.clientHeight - header);
}

export function useFixedRows({
  scrollRef,
  count,
  rowHeight,
  overscan,
  initialRect,
}: FixedRowsOptions): FixedRows {
  const [viewport, setViewport] = useState<Viewport>({ first: 0, height: initialRect?.height ?? 0 });
  const update = useCallback(
    (top: number, height: number) =>
      setViewport((v) => {
        const next = { first: Math.floor(top / rowHeight), height: height || v.height };
        return next.first === v.first && next.height === v.height ? v : next;
      }),
    [rowHeight],
  );

  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const measure = () => update(el.scrollTop, rowsHeight(el));
    // A scroll moves the rows, not the height, which the resize observer reads: no style lookup
    // per scrolled pixel (0 keeps the height held).
    const scrolled = () => update(el.scrollTop, 0);
    measure();
    el.addEventListener('scroll', scrolled, { passive: true });
    const resize = new ResizeObserver(measure);
    resize.observe(el);
    return () => {
      el.removeEventListener('scroll', scrolled);
      resize.disconnect();
    };
  }, [scrollRef, update]);

  const scrollToIndex = useCallback(
    (index: number) => {
      const el = scrollRef.current;
      if (!el) return;
      const height = rowsHeight(el) || viewport.height;
      const top = el.scrollTop;
      const rowTop = index * rowHeight;
      const next =
        rowTop < top ? rowTop : rowTop + rowHeight > top + height ? rowTop + rowHeight - height : top;
      if (next === top) return;
      el.scrollTop = next;
      // Also without waiting for the scroll event, so the row is rendered in the same commit.
      update(next, height);
    },
    [scrollRef, rowHeight, viewport.height, update],
  );

  const scrollByRows = useCallback(
    (rows: number) => {
      const el = scrollRef.current;
      if (!el || rows === 0) return;
      el.scrollTop += rows * rowHeight;
      update(el.scrollTop, rowsHeight(el));
    },
    [scrollRef, rowHeight, update],
  );

  const first = Math.min(viewport.first, Math.max(0, count - 1));
  const start = Math.max(0, first - overscan);
  const end = Math.min(count - 1, first + Math.ceil(viewport.height / rowHeight) + overscan);
  const slots: RowSlot[] = [];
  for (let i = start; i <= end; i++) slots.push({ index: i, start: i * rowHeight });
  return {
    slots,
    totalHeight: count * rowHeight,
    viewportHeight: viewport.height,
    scrollToIndex,
    scrollByRows,
  };
}
