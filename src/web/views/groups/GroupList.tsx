// Group list (SPEC §2 /groups): name with its colour, chat forwarding, the chat-community link and
// the caller's bits; live (groupsUpdated on the user's channel); sorted by name.

import { useAtom } from 'jotai';
import { useEffect } from 'react';
import { type Group, userChannel } from '../../../domain/api.ts';
import { bitsText, COMMUNITY_LINK_LABELS, communityLinkState } from '../../../domain/groups.ts';
import { ALL_PERMISSIONS } from '../../../domain/permissions.ts';
import { pathOf, selectionOf } from '../../../domain/resolver.ts';
import { useApp, userOf } from '../../app/deps.tsx';
import { MENUS } from '../../app/menus.ts';
import { usePaneId, usePaneNavigate } from '../../app/PaneView.tsx';
import { selectionAtom } from '../../app/state.ts';
import { useLiveRefetch } from '../../store/liveRefetch.ts';
import { MAX_ROWS, usePagedList } from '../../store/pagedList.ts';
import { Toolbar } from '../../ui/Toolbar.tsx';
import { type Column, VirtualList } from '../../ui/VirtualList.tsx';
import { GROUPS_UPDATED } from './groupLists.ts';
import { groupRef } from './groupRef.ts';
import './groups.css';

/** On the user's channel when a group the user is in, or its members or links, changed (docs/api.md). */

const yourBits = (g: Group) => (g.permissions >= ALL_PERMISSIONS ? 'Owner' : bitsText(g.permissions));

const columns: Column<Group>[] = [
  {
    id: 'name',
    title: 'Name',
    value: (g) => g.name,
    render: (g) => (
      <span className="server-name">
        <span className={`color-dot color-${g.color.toLowerCase()}`} aria-hidden="true" />
        {g.name}
      </span>
    ),
  },
  { id: 'chat', title: 'Chat forwarding', value: (g) => (g.enableGroupChat ? 'On' : 'Off') },
  { id: 'community', title: 'Chat community', value: (g) => COMMUNITY_LINK_LABELS[communityLinkState(g)] },
  { id: 'permissions', title: 'Your permissions', value: yourBits, width: '3fr' },
];

export function GroupList() {
  const { auth, realtime, index } = useApp();
  const paneId = usePaneId();
  const go = usePaneNavigate();
  const [, setSelection] = useAtom(selectionAtom);
  const list = usePagedList({ of: 'groups', params: { sortedColumn: 'name' }, limit: MAX_ROWS });
  const userId = userOf(auth)?.userId;
  useLiveRefetch(realtime, {
    channels: userId ? [userChannel(userId)] : [],
    events: { [GROUPS_UPDATED]: true },
    refetch: list.refetch,
  });
  // The palette and commands find groups, and read the caller's bits on them, from the store.
  useEffect(() => index.upsert(list.rows.map(groupRef)), [index, list.rows]);

  return (
    <div className="page page-list">
      <h1 className="page-title">Groups</h1>
      <VirtualList<Group>
        {...list.view}
        name="groups"
        label="Groups"
        rowKey={(g) => g.groupId}
        columns={columns}
        defaultSort={{ column: 'name', direction: 'asc' }}
        emptyText="No groups yet. Create one to share servers with your team."
        onOpen={(g) => go(pathOf('group', g.groupId))}
        menu={() => MENUS.groupRow}
        entity={groupRef}
        onSelectionChange={(marked, active) =>
          setSelection((all) => ({
            ...all,
            [paneId]: selectionOf((marked.length ? marked : active ? [active] : []).map(groupRef)),
          }))
        }
        toolbar={<Toolbar commandIds={MENUS.groupListToolbar} label="Groups" />}
      />
    </div>
  );
}
