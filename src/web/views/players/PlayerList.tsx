// Player list (SPEC §2): sorted by player name, searched on the server by any name the player went
// by (name history, survivor names) or an identifier. Marked players (Space, Shift+arrows) are
// the selection ban.create and the other player commands act on.

import { useSetAtom } from 'jotai';
import { useEffect } from 'react';
import type { PlayerDetail } from '../../../domain/players.ts';
import { pathOf, selectionOf } from '../../../domain/resolver.ts';
import { useApp } from '../../app/deps.tsx';
import { MENUS } from '../../app/menus.ts';
import { usePaneId, usePaneNavigate } from '../../app/PaneView.tsx';
import { selectionAtom } from '../../app/state.ts';
import { usePagedList } from '../../store/pagedList.ts';
import { useServerSearch } from '../../store/serverSearch.ts';
import { type Column, VirtualList } from '../../ui/VirtualList.tsx';
import { FlaggedName } from './FlagChips.tsx';
import { playerRef } from './playerRef.ts';

/** `flag:Griefer` in the filter: the players the caller flagged so (docs/api.md "Player flags"). */
const FLAG_SEARCH = /^flag:\s*(.+)$/i;

/** The API sorts players by name only. */
const ignoreSort = () => {};

const columns: Column<PlayerDetail>[] = [
  {
    id: 'playerName',
    title: 'Player Name',
    value: (p) => p.playerName,
    render: (p) => <FlaggedName name={p.playerName} flags={p.flags} />,
  },
  { id: 'otherNames', title: 'Also Known As', value: (p) => p.otherNames.join(', '), width: '35%' },
  { id: 'country', title: 'Country', value: (p) => p.countryCode },
  { id: 'vpn', title: 'VPN', value: (p) => (p.isUsingVpn ? 'Yes' : '') },
];

export function PlayerList() {
  const { index } = useApp();
  const paneId = usePaneId();
  const go = usePaneNavigate();
  const setSelection = useSetAtom(selectionAtom);
  // Sorted as the API answers (by name); the filter searches every name a player went by.
  const { search, serverSide } = useServerSearch(ignoreSort);
  const flagged = FLAG_SEARCH.exec(search)?.[1];

  const list = usePagedList({
    of: 'players',
    params: {},
    search: flagged ? { flag: flagged } : search ? { name: search } : undefined,
  });
  // The palette finds the players a search brought, by any name they went by.
  useEffect(() => index.upsert(list.rows.map(playerRef)), [index, list.rows]);

  return (
    <div className="page page-list">
      <h1 className="page-title">Players</h1>
      <VirtualList<PlayerDetail>
        {...list.view}
        name="players"
        label="Players"
        rowKey={(p) => p.playerId}
        columns={columns}
        defaultSort={{ column: 'playerName', direction: 'asc' }}
        serverSide={serverSide}
        filterHint="Filter, or flag:name"
        emptyText={
          flagged
            ? `You flagged no player "${flagged}".`
            : search
              ? `No player has gone by "${search}".`
              : 'No players yet.'
        }
        onOpen={(p) => go(pathOf('player', p.playerId))}
        entity={playerRef}
        menu={() => MENUS.playerRow}
        onSelectionChange={(marked, active) =>
          setSelection((all) => ({
            ...all,
            [paneId]: selectionOf((marked.length ? marked : active ? [active] : []).map(playerRef)),
          }))
        }
      />
    </div>
  );
}
