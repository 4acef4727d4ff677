// The player page's record tabs: identifiers, survivors (characters) and name history.

import type { Character } from '../../../domain/api.ts';
import { formatTime } from '../../../domain/format.ts';
import type { PlayerIdentifier, PlayerNameChange } from '../../../domain/players.ts';
import { pathOf } from '../../../domain/resolver.ts';
import { usePaneNavigate } from '../../app/PaneView.tsx';
import { usePagedList } from '../../store/pagedList.ts';
import { type Column, VirtualList } from '../../ui/VirtualList.tsx';

const identifierColumns: Column<PlayerIdentifier>[] = [
  { id: 'provider', title: 'Platform', value: (i) => i.provider },
  { id: 'identifier', title: 'Account Id', value: (i) => i.identifier, width: '40%' },
  { id: 'name', title: 'Name', value: (i) => i.name },
];

export function IdentifiersTab({ playerId }: { playerId: string }) {
  const list = usePagedList({ of: 'playerIdentifiers', params: { playerId } });
  return (
    <VirtualList<PlayerIdentifier>
      {...list.view}
      name="player-identifiers"
      label="Identifiers"
      rowKey={(i) => i.playerIdentifierId}
      columns={identifierColumns}
      emptyText="No identifiers known."
    />
  );
}

const nameColumns: Column<PlayerNameChange>[] = [
  { id: 'name', title: 'Previous Name', value: (n) => n.name },
  { id: 'changeTime', title: 'Changed', value: (n) => n.changeTime, render: (n) => formatTime(n.changeTime) },
];

export function NameHistoryTab({ playerId }: { playerId: string }) {
  const list = usePagedList({
    of: 'playerNameChanges',
    params: { playerId, sortedColumn: 'changeTime', sortDirection: 'descending' },
  });
  return (
    <VirtualList<PlayerNameChange>
      {...list.view}
      name="player-names"
      label="Name history"
      rowKey={(n) => n.historyId}
      columns={nameColumns}
      defaultSort={{ column: 'changeTime', direction: 'desc' }}
      emptyText="The player has not changed name."
    />
  );
}

const characterColumns: Column<Character>[] = [
  { id: 'name', title: 'Name', value: (c) => c.characterName },
  { id: 'server', title: 'Server', value: (c) => c.serviceDisplayName },
  { id: 'implant', title: 'Implant', value: (c) => c.specimenId },
  { id: 'tribe', title: 'Tribe', value: (c) => c.tribeName },
];

export function CharactersTab({ playerId }: { playerId: string }) {
  const go = usePaneNavigate();
  const list = usePagedList({ of: 'characters', params: { playerId } });
  return (
    <VirtualList<Character>
      {...list.view}
      name="player-characters"
      label="Survivors"
      rowKey={(c) => c.characterId}
      columns={characterColumns}
      defaultSort={{ column: 'name', direction: 'asc' }}
      emptyText="No survivors on servers you can see."
      onOpen={(c) => go(pathOf('survivor', c.characterId))}
    />
  );
}
