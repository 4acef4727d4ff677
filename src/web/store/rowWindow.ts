// What a VirtualList over a server-side list takes: the rows held around the reader, the total,
// and the reader's moves turned into page requests. The log view's feed and the survivor, tribe
// and dino lists (a PageWindow each) are shown this way.

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
 * A list paged by the server as the reader scrolls (a PageWindow), for lists too long to hold:
 * `key` names the query (a new key starts over), `fetch` asks for one page of it, `onRows` sees
 * every page that arrives. Spread `view` onto the VirtualList.
 */
export function useServerPages<T>(
  key: string,
  fetch: (page: number) => Promise<Page<T>>,
  onRows?: (rows: readonly T[]) => void,
) {
  const [version, bump] = useFrameRender();
  const [error, setError] = useState<string | null>(null);
  const latest = useRef({ fetch, onRows });
  latest.current = { fetch, onRows };
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key says when the query changed; fetch is read through latest.
  const pages = useMemo(
    () =>
      new PageWindow<T>({
        fetch: async (page) => {
          const p = await latest.current.fetch(page);
          latest.current.onRows?.(p.results);
          return p;
        },
        onChange: bump,
        onError: (e) => setError(errorText(e)),
      }),
    [key, bump],
  );
  const { win, range, onRangeChange } = useRowWindow(pages, version);
  const reload = useCallback(() => {
    setError(null);
    // Where the reader is gets its pages as soon as the first one says how many there are.
    void pages.load().then(() => pages.ensure(range.current.start, range.current.end));
  }, [pages, range]);
  useEffect(reload, [reload]);
  return {
    view: {
      rows: win.rows,
      rowOffset: win.offset,
      totalRows: pages.total,
      onRangeChange,
      loading: pages.loading && pages.total === 0,
      error,
      onRefresh: reload,
    },
  };
}
