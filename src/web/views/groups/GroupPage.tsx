// A group (SPEC §2 /groups/{groupId}): its name, colour and the caller's bits, its toolbar, and
// every tab (services by default, servers its alias), each live on the group's channel.

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useParams } from 'react-router';
import { channelFor, type Group, userChannel } from '../../../domain/api.ts';
import { bitsText, GROUP_TABS, type GroupTab } from '../../../domain/groups.ts';
import { ALL_PERMISSIONS } from '../../../domain/permissions.ts';
import { pathOf, selectionOf } from '../../../domain/resolver.ts';
import { ApiError } from '../../api/http.ts';
import { useApp, userOf } from '../../app/deps.tsx';
import { MENUS } from '../../app/menus.ts';
import { PaneLink } from '../../app/PaneView.tsx';
import { useLiveRefetch } from '../../store/liveRefetch.ts';
import { Toolbar } from '../../ui/Toolbar.tsx';
import { ACTIVITY_TAB, ActivityList } from '../activity/ActivityList.tsx';
import { BansTab } from '../bans/BansTab.tsx';
import { ChatView } from '../chat/ChatView.tsx';
import { SessionsTab } from '../players/SessionsTab.tsx';
import { GroupBucketsTab, GroupScriptsTab, GroupServicesTab } from './GroupLinks.tsx';
import { GroupSettings } from './GroupSettings.tsx';
import { GroupUsersTab } from './GroupUsers.tsx';
import { GROUP_UPDATED, GROUPS_UPDATED } from './groupLists.ts';
import { groupRef } from './groupRef.ts';
import { RolesTab } from './RolesTab.tsx';
import { WatchlistTab } from './WatchlistTab.tsx';
import './groups.css';

const TITLES: Record<GroupTab, string> = {
  services: 'Servers',
  chat: 'Chat',
  sessions: 'Sessions',
  users: 'Users',
  roles: 'Roles',
  bans: 'Bans',
  watchlist: 'Watchlist',
  scripts: 'Scripts',
  buckets: 'Buckets',
  settings: 'Settings',
  activity: ACTIVITY_TAB.title,
};

function TabBody({ tab, group }: { tab: GroupTab; group: Group }) {
  const groupId = group.groupId;
  switch (tab) {
    case 'services':
      return <GroupServicesTab group={group} />;
    case 'chat':
      return <ChatView groupId={groupId} label={group.name} />;
    case 'sessions':
      return <SessionsTab groupId={groupId} />;
    case 'users':
      return <GroupUsersTab group={group} />;
    case 'roles':
      return <RolesTab group={group} />;
    case 'bans':
      return <BansTab groupId={groupId} />;
    case 'watchlist':
      return <WatchlistTab groupId={groupId} />;
    case 'scripts':
      return <GroupScriptsTab group={group} />;
    case 'buckets':
      return <GroupBucketsTab group={group} />;
    case 'activity':
      return <ActivityList scope={{ groupId }} label={group.name} />;
    case 'settings':
      return <GroupSettings key={`${group.groupId}:${group.name}`} group={group} />;
  }
}

export function GroupPage() {
  const { groupId = '', tab: rawTab = 'services' } = useParams();
  const tab = rawTab === 'servers' ? 'services' : rawTab;
  const { api, auth, index, realtime } = useApp();
  const qc = useQueryClient();
  const queryKey = ['group', groupId];
  const query = useQuery({ queryKey, queryFn: () => api.groups.get(groupId) });
  useLiveRefetch(realtime, {
    channels: query.data ? [channelFor('groups', groupId)] : [],
    events: { [GROUP_UPDATED]: true },
    refetch: () => void qc.invalidateQueries({ queryKey }),
  });
  // Removed from the group (or its access changed): said on the user's own channel, as the
  // group's own no longer counts them in.
  const userId = userOf(auth)?.userId;
  useLiveRefetch(realtime, {
    channels: userId ? [userChannel(userId)] : [],
    events: { [GROUPS_UPDATED]: (data) => data === groupId },
    refetch: () => void qc.invalidateQueries({ queryKey }),
  });
  // The name of the group while the user could see it: when it stops answering, the page says
  // their access ended rather than that it never was theirs.
  const seen = useRef<{ id: string; name: string } | null>(null);
  if (query.data) seen.current = { id: groupId, name: query.data.name };
  // Commands read the caller's bits on the group in view from the store.
  useEffect(() => {
    if (query.data) index.upsert([groupRef(query.data)]);
  }, [index, query.data]);

  if (query.error) {
    const notFound = query.error instanceof ApiError && query.error.status === 404;
    const was = seen.current?.id === groupId ? seen.current.name : null;
    return (
      <div className="page">
        <h1>{was ?? 'Group'}</h1>
        <p role="alert">
          {notFound && was
            ? `Your access to ${was} ended: you are no longer a member of this group.`
            : notFound
              ? 'The group does not exist or you are not in it.'
              : query.error.message}
        </p>
      </div>
    );
  }
  const g = query.data;
  const current = GROUP_TABS.find((t) => t === tab);
  return (
    <div className="page page-group">
      <header className="server-header">
        <h1>
          <span className={`color-dot color-${(g?.color ?? 'None').toLowerCase()}`} aria-hidden="true" />
          {g?.name ?? 'Loading…'}
        </h1>
        {g && (
          <dl className="facts">
            <dt>Your permissions</dt>
            <dd>{g.permissions >= ALL_PERMISSIONS ? 'Owner' : bitsText(g.permissions)}</dd>
            <dt>Chat forwarding</dt>
            <dd>{g.enableGroupChat ? 'On' : 'Off'}</dd>
          </dl>
        )}
        {g && (
          <Toolbar
            commandIds={MENUS.groupToolbar}
            label="Group actions"
            selection={selectionOf([groupRef(g)])}
          />
        )}
      </header>
      <nav className="tabs" aria-label="Group tabs">
        {GROUP_TABS.map((t) => (
          <PaneLink key={t} to={pathOf('group', groupId, t)} className={tab === t ? 'tab tab-active' : 'tab'}>
            {TITLES[t]}
          </PaneLink>
        ))}
      </nav>
      {!current && <p role="alert">There is no tab "{tab}" on a group.</p>}
      {current && g && <TabBody tab={current} group={g} />}
    </div>
  );
}
