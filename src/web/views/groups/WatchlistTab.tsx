// A group's watchlist (the alerts issue): the players its moderators keep an eye on, with why, who
// added them and when. Rows open the player or take them off; the toolbar adds one, all through
// the watchlist.* commands.

import type { WatchedPlayer } from '../../../domain/flags.ts';
import { formatTime } from '../../../domain/format.ts';
import { pathOf, type Ref } from '../../../domain/resolver.ts';
import { MENUS } from '../../app/menus.ts';
import { usePaneNavigate } from '../../app/PaneView.tsx';
import { usePagedList } from '../../store/pagedList.ts';
import { Toolbar } from '../../ui/Toolbar.tsx';
import { type Column, VirtualList } from '../../ui/VirtualList.tsx';

const columns: Column<WatchedPlayer>[] = [
  { id: 'playerName', title: 'Player', value: (w) => w.playerName },
  { id: 'reason', title: 'Why', value: (w) => w.reason, width: '40%' },
  { id: 'addedBy', title: 'Added By', value: (w) => w.addedBy ?? 'A removed account' },
  { id: 'dateAdded', title: 'Added', value: (w) => w.dateAdded, render: (w) => formatTime(w.dateAdded) },
];

const playerOf = (w: WatchedPlayer): Ref => ({ kind: 'player', id: w.playerId, label: w.playerName });

export function WatchlistTab({ groupId }: { groupId: string }) {
  const go = usePaneNavigate();
  const list = usePagedList({ of: 'groupWatchlist', params: { groupId } });
  return (
    <div className="tab-panel">
      <VirtualList<WatchedPlayer>
        {...list.view}
        name="group-watchlist"
        label="Watchlist"
        rowKey={(w) => w.watchId}
        columns={columns}
        defaultSort={{ column: 'playerName', direction: 'asc' }}
        emptyText="Nobody is watched here yet."
        onOpen={(w) => go(pathOf('player', w.playerId))}
        menu={() => MENUS.watchRow}
        entity={playerOf}
        toolbar={<Toolbar commandIds={MENUS.watchToolbar} label="Watchlist" />}
      />
    </div>
  );
}
