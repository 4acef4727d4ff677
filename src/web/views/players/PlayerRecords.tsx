// The player page's record tabs: identifiers, survivors (characters) and name history.

import type { Character } from '../../../domain/api.ts';
import type { PlayerIdentifier, PlayerNameChange } from '../../../domain/players.ts';
import { pathOf } from '../../../domain/resolver.ts';
import { usePaneNavigate } from '../../app/PaneView.tsx';
import { type Column, VirtualList } from '../../ui/VirtualList.tsx';
import { formatTime, usePage } from './usePage.ts';

const identifierColumns: Column<PlayerIdentifier>[] = [
  { id: 'provider', title: 'Platform', value: (i) => i.provider },
  { id: 'identifier', title: 'Account Id', value: (i) => i.identifier, width: '40%' },
  { id: 'name', title: 'Name', value: (i) => i.name },
];

export function IdentifiersTab({ playerId }: { playerId: string }) {
  const q = usePage<PlayerIdentifier>('/sentinel/playerIdentifiers', { playerId });
  return (
    <VirtualList<PlayerIdentifier>
      name="player-identifiers"
      label="Identifiers"
      rows={q.data ?? []}
      rowKey={(i) => i.playerIdentifierId}
      columns={identifierColumns}
      loading={q.isLoading}
      error={q.error?.message ?? null}
      emptyText="No identifiers known."
      onRefresh={() => void q.refetch()}
    />
  );
}

const nameColumns: Column<PlayerNameChange>[] = [
  { id: 'name', title: 'Previous Name', value: (n) => n.name },
  { id: 'changeTime', title: 'Changed', value: (n) => n.changeTime, render: (n) => formatTime(n.changeTime) },
];

export function NameHistoryTab({ playerId }: { playerId: string }) {
  const q = usePage<PlayerNameChange>('/sentinel/playerNameChanges', {
    playerId,
    sortedColumn: 'changeTime',
    sortDirection: 'descending',
  });
  return (
    <VirtualList<PlayerNameChange>
      name="player-names"
      label="Name history"
      rows={q.data ?? []}
      rowKey={(n) => n.historyId}
      columns={nameColumns}
      defaultSort={{ column: 'changeTime', direction: 'desc' }}
      loading={q.isLoading}
      error={q.error?.message ?? null}
      emptyText="The player has not changed name."
      onRefresh={() => void q.refetch()}
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
  const q = usePage<Character>('/sentinel/characters', { playerId });
  return (
    <VirtualList<Character>
      name="player-characters"
      label="Survivors"
      rows={q.data ?? []}
      rowKey={(c) => c.characterId}
      columns={characterColumns}
      defaultSort={{ column: 'name', direction: 'asc' }}
      loading={q.isLoading}
      error={q.error?.message ?? null}
      emptyText="No survivors on servers you can see."
      onOpen={(c) => go(pathOf('survivor', c.characterId))}
      onRefresh={() => void q.refetch()}
    />
  );
}
