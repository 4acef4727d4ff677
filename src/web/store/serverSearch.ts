// A list whose filter box searches on the server: what is typed is asked for once typing pauses,
// trimmed, so each key does not cost a request.

import { useEffect, useMemo, useState } from 'react';
import type { SortState } from './prefs.ts';

const SEARCH_DELAY_MS = 250;

/**
 * The search to send, and what the VirtualList hands its filter (and, with `onSort`, its sort)
 * to. `onSort` must keep its identity across renders.
 */
export function useServerSearch(onSort?: (sort: SortState) => void) {
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setSearch(typed.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(t);
  }, [typed]);
  const serverSide = useMemo(() => ({ onFilter: setTyped, onSort }), [onSort]);
  return { search, serverSide };
}
