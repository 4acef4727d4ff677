// Player sessions of a player, a server or a group (SPEC §2, §9): who joined where and when,
// newest first; lists of many players show who is connected now unless asked for all. Live:
// joins and leaves on the servers in question refetch the list. A player's sessions have their
// timeline above the list.

import { useState } from 'react';
import { channelFor, type LogMessage, RealtimeEvent, type Service } from '../../../domain/api.ts';
import { formatTime } from '../../../domain/format.ts';
import type { PlayerSession } from '../../../domain/players.ts';
import { pathOf } from '../../../domain/resolver.ts';
import { useApp } from '../../app/deps.tsx';
import { usePaneNavigate } from '../../app/PaneView.tsx';
import { useLiveRefetch } from '../../store/liveRefetch.ts';
import { usePagedList } from '../../store/pagedList.ts';
import { type Column, VirtualList } from '../../ui/VirtualList.tsx';
import { FlaggedName } from './FlagChips.tsx';
import { SessionsTimeline } from './SessionsTimeline.tsx';

export interface SessionsTabProps {
  serviceId?: string;
  groupId?: string;
  playerId?: string;
}

const columns: Column<PlayerSession>[] = [
  {
    id: 'playerName',
    title: 'Player Name',
    value: (s) => s.playerName,
    render: (s) => <FlaggedName name={s.playerName} flags={s.playerFlags} />,
  },
  { id: 'serverName', title: 'Server Name', value: (s) => s.serviceDisplayName },
  {
    id: 'connectTime',
    title: 'Join Time',
    value: (s) => s.connectTime,
    render: (s) => formatTime(s.connectTime),
  },
  {
    id: 'disconnectTime',
    title: 'Leave Time',
    value: (s) => s.disconnectTime,
    render: (s) => formatTime(s.disconnectTime),
  },
  { id: 'isConnected', title: 'Is Connected', value: (s) => (s.isConnected ? 'Yes' : 'No') },
];

const SESSION_EVENTS = new Set(['playerJoined', 'playerLeft', 'serverConnected', 'serverDisconnected']);

export function SessionsTab({ serviceId, groupId, playerId }: SessionsTabProps) {
  const { realtime, queryClient } = useApp();
  const go = usePaneNavigate();
  const many = !playerId;
  const [connectedOnly, setConnectedOnly] = useState(many);
  const scope = playerId ? { playerId } : serviceId ? { serviceId } : { groupId };
  const list = usePagedList({
    of: 'playerSessions',
    params: {
      ...scope,
      sortedColumn: 'connectTime',
      sortDirection: 'descending',
      ...(connectedOnly ? { isConnected: 'true' } : {}),
    },
  });

  // A group's channel carries its servers' events; a player may play on any server we can see.
  const channels = groupId
    ? [channelFor('groups', groupId)]
    : serviceId
      ? [channelFor('services', serviceId)]
      : (queryClient.getQueryData<Service[]>(['services']) ?? []).map((s) =>
          channelFor('services', s.serviceId),
        );
  useLiveRefetch(realtime, {
    channels,
    events: { [RealtimeEvent.logMessage]: (data) => SESSION_EVENTS.has((data as LogMessage)?.eventName) },
    refetch: list.refetch,
  });

  const sessions = (
    <VirtualList<PlayerSession>
      name={playerId ? 'player-sessions' : 'sessions'}
      {...list.view}
      label="Player sessions"
      rowKey={(s) => s.playerSessionId}
      columns={columns}
      defaultSort={{ column: 'connectTime', direction: 'desc' }}
      emptyText={connectedOnly ? 'Nobody is connected.' : 'No sessions yet.'}
      onOpen={(s) => go(pathOf('player', s.playerId))}
      toolbar={
        many && (
          <label className="ui-check">
            <input
              type="checkbox"
              checked={connectedOnly}
              onChange={(e) => setConnectedOnly(e.target.checked)}
            />
            Connected only
          </label>
        )
      }
    />
  );
  return playerId ? (
    <div className="sessions-view">
      <SessionsTimeline playerId={playerId} />
      {sessions}
    </div>
  ) : (
    sessions
  );
}
