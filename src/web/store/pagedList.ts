// Lists of a Sentinel class path (SENTINEL-API §2.2) as TanStack queries, the one way a list view
// fetches: pages up to a limit, held whole for a VirtualList (which sorts and filters what it
// holds), and `refetch`, which a live list calls on each event and each (re)subscription. Pusher
// never replays what was missed, so a list with a cursor asks only for the rows after the newest
// one it holds and merges them; a list without one (bans, sessions: rows change in place) is
// fetched again. The log view pages a million lines its own way (views/logs/logFeed.ts).

import { hashKey, type QueryKey, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef } from 'react';
import type { Page } from '../../domain/api.ts';
import { errorText } from '../api/http.ts';
import type { ListParams, SentinelApi } from '../api/sentinel.ts';
import { useApp } from '../app/deps.tsx';

export const PAGE_SIZE = 250;
/** Rows a list holds at most; past them, a section's own search is the place. */
export const MAX_ROWS = 5000;
/** Catch-up pages before the gap is deemed too large and the list is fetched again instead. */
const CATCH_UP_PAGES = 4;
/** Rows of a list still loading: one array, so what is derived from the rows is not redone. */
const NO_ROWS: readonly never[] = [];

type Lister<T> = (params: ListParams) => Promise<Page<T>>;

/** The class paths a list can show: those of the typed API with a `list` (SENTINEL-API §2.4). */
export type ListName = {
  [K in keyof SentinelApi]: SentinelApi[K] extends { list: Lister<unknown> } ? K : never;
}[keyof SentinelApi];

export type RowOf<K extends ListName> = SentinelApi[K] extends { list: Lister<infer T> } ? T : never;

/** How a list sorted newest first asks for what came after a row. */
export interface ListCursor<T> {
  /** Negative when `a` is newer than `b`, 0 for the same row. */
  order(a: T, b: T): number;
  /** Parameters for the rows after `row`, oldest first. */
  after(row: T): ListParams;
}

export interface PagedListSpec<K extends ListName> {
  /** The class path, by its name in the typed API: `playerNotes`. */
  of: K;
  /** Filters and sort, as the API names them. */
  params: ListParams;
  /**
   * What a filter box searches on the server (store/serverSearch.ts), as the API names it. While
   * a new search loads, the rows of the one before stay: emptied to "Loading…", the list lost its
   * active row under the reader, and a menu opened on that row closed.
   */
  search?: ListParams;
  /** Rows fetched: one page unless more is asked for, never more than MAX_ROWS. */
  limit?: number;
  cursor?: ListCursor<RowOf<K>>;
}

export interface PagedList<T> {
  rows: readonly T[];
  /** What a VirtualList takes from its list; spread onto it. */
  view: { rows: readonly T[]; loading: boolean; error: string | null; onRefresh(): void };
  /** Brings the rows up to date after an event or a (re)subscription (see the file comment). */
  refetch(): Promise<void>;
}

/** Pages of a class path in order, until `limit` rows or the last page. */
export async function fetchPages<T>(list: Lister<T>, params: ListParams, limit: number): Promise<T[]> {
  const out: T[] = [];
  for (let page = 1; out.length < limit; page++) {
    const p = await list({ ...params, page, pageSize: PAGE_SIZE });
    out.push(...p.results);
    // A page that is not full is the last, whatever the (possibly estimated) page count says.
    if (page >= p.pages || p.results.length < PAGE_SIZE) break;
  }
  return out;
}

/** Merges two lists sorted by `order`; a row in both is kept once. */
export function mergeSorted<T>(a: readonly T[], b: readonly T[], order: (x: T, y: T) => number): T[] {
  const out: T[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const c = order(a[i], b[j]);
    out.push(c <= 0 ? a[i] : b[j]);
    if (c <= 0) i++;
    if (c >= 0) j++;
  }
  while (i < a.length) out.push(a[i++]);
  while (j < b.length) out.push(b[j++]);
  return out;
}

/** The typed API's `list` of a class path. */
function listerOf<K extends ListName>(api: SentinelApi, of: K): Lister<RowOf<K>> {
  const path = api[of] as unknown as { list: Lister<RowOf<K>> };
  return (params) => path.list(params);
}

export function usePagedList<K extends ListName>(spec: PagedListSpec<K>): PagedList<RowOf<K>> {
  type T = RowOf<K>;
  const { api } = useApp();
  const qc = useQueryClient();
  const limit = Math.min(spec.limit ?? PAGE_SIZE, MAX_ROWS);
  const list = listerOf(api, spec.of);
  const params = { ...spec.params, ...spec.search };
  const queryKey: QueryKey = [spec.of, spec.params, limit, spec.search ?? {}];
  const queryFn = () => fetchPages(list, params, limit);
  const query = useQuery({
    queryKey,
    queryFn,
    // Only another search of the same list keeps the rows: another server's are not this one's.
    placeholderData: (rows, before) =>
      before && hashKey(before.queryKey.slice(0, 3)) === hashKey(queryKey.slice(0, 3)) ? rows : undefined,
  });

  // Events come in bursts (every channel resubscribes at once after a reconnect): one catch-up
  // runs at a time, and one more after it if anything asked meanwhile, from the rows it merged.
  const latest = useRef({ list, cursor: spec.cursor, params, queryKey, queryFn });
  latest.current = { list, cursor: spec.cursor, params, queryKey, queryFn };
  const run = useRef({ running: false, again: false });
  const refetch = useCallback(async () => {
    const r = run.current;
    if (r.running) {
      r.again = true;
      return;
    }
    r.running = true;
    try {
      do {
        r.again = false;
        const { list: ls, cursor, params: ps, queryKey: key, queryFn: fn } = latest.current;
        try {
          // The first load may be on its way; what is stored after the server read it is fetched here.
          const held = await qc.ensureQueryData({ queryKey: key, queryFn: fn });
          const fresh = cursor && held.length ? await rowsAfter(ls, ps, cursor, held) : null;
          if (cursor && fresh)
            qc.setQueryData<T[]>(key, (rows) =>
              mergeSorted(rows ?? [], fresh.sort(cursor.order), cursor.order).slice(0, MAX_ROWS),
            );
          else await qc.invalidateQueries({ queryKey: key, exact: true });
        } catch {
          // The list fetched again shows why, if it fails too.
          await qc.invalidateQueries({ queryKey: key, exact: true });
        }
      } while (r.again);
    } finally {
      r.running = false;
    }
  }, [qc]);

  const rows: readonly T[] = query.data ?? NO_ROWS;
  return {
    rows,
    view: {
      rows,
      loading: query.isLoading,
      error: query.error ? errorText(query.error) : null,
      onRefresh: () => void qc.invalidateQueries({ queryKey, exact: true }),
    },
    refetch,
  };
}

/** The rows after the newest one held, oldest first; null when more were missed than is worth merging. */
async function rowsAfter<T>(
  list: Lister<T>,
  params: ListParams,
  cursor: ListCursor<T>,
  held: readonly T[],
): Promise<T[] | null> {
  let since = held.reduce((newest, row) => (cursor.order(row, newest) < 0 ? row : newest));
  const fresh: T[] = [];
  for (let i = 0; i < CATCH_UP_PAGES; i++) {
    const page = await list({ ...params, ...cursor.after(since), page: 1, pageSize: PAGE_SIZE });
    fresh.push(...page.results);
    if (page.results.length < PAGE_SIZE) return fresh;
    since = page.results[page.results.length - 1];
  }
  return null;
}
