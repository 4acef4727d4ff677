// What a VirtualList over a server-side list takes: the rows held around the reader, the total,
// and the reader's moves turned into page requests. The log view's feed and the survivor, tribe
// and dino lists (a PageWindow each) are shown this way.

import { type QueryKey, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import type { Page } from '../../domain/api.ts';
import { errorText } from '../api/http.ts';
import { PageWindow } from './pageWindow.ts';

/** Held rows handed to the list either side of what it shows. */
const WINDOW_MARGIN = 500;

export interface RowSource<T> {
  readonly count: number;
  rowAt(i: number): T | undefined;
  window(start: number, end: number): { offset: number; rows: T[] };
  /** The reader shows [start, end): fetch what is missing. */
  ensure(start: number, end: number): void;
}

/** [version, bump]: page replies and flushes that land in one frame render once. */
export function useFrameRender(): [number, () => void] {
  const [version, render] = useReducer((x: number) => x + 1, 0);
  const frame = useRef(0);
  const bump = useCallback(() => {
    if (frame.current) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = 0;
      render();
    });
  }, []);
  useEffect(() => () => cancelAnimationFrame(frame.current), []);
  return [version, bump];
}

/**
 * The window of `source` around the reader, re-read when `version` (the source's rows) changes
 * or the reader moves past what was handed over; `range` is where the reader is.
 */
export function useRowWindow<T>(source: RowSource<T>, version: number) {
  const range = useRef({ start: 0, end: 0 });
  const [rangeVersion, moved] = useReducer((x: number) => x + 1, 0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: version and rangeVersion say when the source's rows or the reader moved.
  const win = useMemo(
    () => source.window(Math.max(0, range.current.start - WINDOW_MARGIN), range.current.end + WINDOW_MARGIN),
    [source, version, rangeVersion],
  );
  const held = useRef(win);
  held.current = win;
  const onRangeChange = useCallback(
    (start: number, end: number) => {
      range.current = { start, end };
      source.ensure(start, end);
      const w = held.current;
      // A place the source holds nothing of shows placeholders already; its page's arrival
      // renders it, so a jump costs one render of the list rather than two.
      const outside = start < w.offset || end > w.offset + w.rows.length;
      if (outside && (source.rowAt(start) ?? source.rowAt(end - 1)) !== undefined) moved();
    },
    [source],
  );
  return { win, range, onRangeChange };
}

/**
 * A list paged by the server as the reader scrolls (a PageWindow), for lists too long to hold. Its
 * first page is a TanStack query under `queryKey`, so whatever makes lists fetch again (a command
 * that answered, `r`) starts it over from a fresh first page, and the pages where the reader is
 * follow. `fetch` asks for one page; `onRows` sees every page that arrives. Spread `view` onto the
 * VirtualList.
 */
export function useServerPages<T>(
  queryKey: QueryKey,
  fetch: (page: number) => Promise<Page<T>>,
  onRows?: (rows: readonly T[]) => void,
) {
  const qc = useQueryClient();
  const [version, bump] = useFrameRender();
  const [pageError, setPageError] = useState<string | null>(null);
  const latest = useRef({ fetch, onRows });
  latest.current = { fetch, onRows };
  const ask = useCallback(async (page: number) => {
    const p = await latest.current.fetch(page);
    latest.current.onRows?.(p.results);
    return p;
  }, []);
  const first = useQuery({ queryKey, queryFn: () => ask(1) });
  const keyText = JSON.stringify(queryKey);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key's text says when the query changed.
  const pages = useMemo(
    () => new PageWindow<T>({ fetch: ask, onChange: bump, onError: (e) => setPageError(errorText(e)) }),
    [keyText, ask, bump],
  );
  const { win, range, onRangeChange } = useRowWindow(pages, version);
  // Each fetch of the first page counts, even one equal to the last: the rows below it may not be.
  const { data, dataUpdatedAt } = first;
  // biome-ignore lint/correctness/useExhaustiveDependencies: dataUpdatedAt says when the first page was fetched again.
  useEffect(() => {
    if (!data) return;
    setPageError(null);
    pages.start(data);
    // The rows where the reader is come again, from the list as it is now.
    pages.ensure(range.current.start, range.current.end);
    bump();
  }, [pages, data, dataUpdatedAt, range, bump]);
  const error = first.error ? errorText(first.error) : pageError;
  return {
    view: {
      rows: win.rows,
      rowOffset: win.offset,
      totalRows: pages.total,
      onRangeChange,
      loading: first.isLoading,
      error,
      onRefresh: () => void qc.invalidateQueries({ queryKey, exact: true }),
    },
  };
}
