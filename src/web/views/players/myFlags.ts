// The caller's flags by player, for lists whose rows are not players but name one (a chat line's
// sender): a flag is shown beside the name there too. An account keeps at most 10,000 flags;
// the list holds what one list may (MAX_ROWS), refreshed after every command as lists are.

import { useMemo } from 'react';
import type { FlagMark } from '../../../domain/flags.ts';
import { MAX_ROWS, usePagedList } from '../../store/pagedList.ts';

export function useFlagsByPlayer(): ReadonlyMap<string, readonly FlagMark[]> {
  const { rows } = usePagedList({ of: 'playerFlags', params: { sortedColumn: 'name' }, limit: MAX_ROWS });
  return useMemo(() => {
    const byPlayer = new Map<string, FlagMark[]>();
    for (const f of rows) byPlayer.set(f.playerId, [...(byPlayer.get(f.playerId) ?? []), f]);
    return byPlayer;
  }, [rows]);
}
