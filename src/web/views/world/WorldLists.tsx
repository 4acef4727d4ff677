// Survivors, tribes and dinos of a server (or any filter of their class paths), read-only, with
// the columns of SPEC §2. Survivors offer Give (item or dino) on their rows and toolbar, dinos the
// creator; the other actions (teleport, locate, delete, …) belong to the survivor/tribe/dino views.

import type { Character, Dino, Tribe } from '../../../domain/api.ts';
import { DINO_STATUS_LABELS, lifeStage } from '../../../domain/enums.ts';
import { pathOf } from '../../../domain/resolver.ts';
import { MENUS } from '../../app/menus.ts';
import { usePaneNavigate } from '../../app/PaneView.tsx';
import { MAX_ROWS, usePagedList } from '../../store/pagedList.ts';
import { Toolbar } from '../../ui/Toolbar.tsx';
import { type Column, VirtualList } from '../../ui/VirtualList.tsx';

type Filter = Record<string, string>;
const server = <T extends { serviceDisplayName: string }>(): Column<T> => ({
  id: 'server',
  title: 'Server',
  value: (r) => r.serviceDisplayName,
});

const characterColumns: Column<Character>[] = [
  { id: 'name', title: 'Name', value: (c) => c.characterName, width: '2fr' },
  server<Character>(),
  { id: 'implant', title: 'Implant', value: (c) => c.specimenId, align: 'end' },
  { id: 'tribe', title: 'Tribe', value: (c) => c.tribeName },
];

const tribeColumns: Column<Tribe>[] = [
  { id: 'name', title: 'Name', value: (t) => t.tribeName, width: '2fr' },
  server<Tribe>(),
  { id: 'tribeId', title: 'Tribe ID', value: (t) => t.tribeNumber, align: 'end' },
];

const dinoColumns: Column<Dino>[] = [
  { id: 'name', title: 'Name', value: (d) => d.dinoDisplayName, width: '2fr' },
  { id: 'species', title: 'Species', value: (d) => d.dinoSpecies },
  { id: 'lifeStage', title: 'Life Stage', value: (d) => lifeStage(d.dinoAge) },
  { id: 'dinoId', title: 'Dino Id', value: (d) => d.dinoNumber },
  { id: 'tribe', title: 'Tribe', value: (d) => d.tribeName },
  server<Dino>(),
  { id: 'status', title: 'Status', value: (d) => DINO_STATUS_LABELS[d.dinoStatus] },
];

export function CharacterList({ filter, name }: { filter: Filter; name: string }) {
  const go = usePaneNavigate();
  const list = usePagedList({ of: 'characters', params: filter, limit: MAX_ROWS });
  return (
    <VirtualList<Character>
      {...list.view}
      name={name}
      label="Survivors"
      columns={characterColumns}
      rowKey={(c) => c.characterId}
      defaultSort={{ column: 'name', direction: 'asc' }}
      emptyText="No survivors yet."
      onOpen={(c) => go(pathOf('survivor', c.characterId))}
      menu={() => MENUS.survivorRow}
      entity={(c) => ({ kind: 'survivor', id: c.characterId, label: c.characterName })}
      toolbar={<Toolbar commandIds={MENUS.survivorToolbar} label="Survivors" />}
    />
  );
}

export function TribeList({ filter, name }: { filter: Filter; name: string }) {
  const go = usePaneNavigate();
  const list = usePagedList({ of: 'tribes', params: filter, limit: MAX_ROWS });
  return (
    <VirtualList<Tribe>
      {...list.view}
      name={name}
      label="Tribes"
      columns={tribeColumns}
      rowKey={(t) => t.tribeId}
      defaultSort={{ column: 'name', direction: 'asc' }}
      emptyText="No tribes yet."
      onOpen={(t) => go(pathOf('tribe', t.tribeId))}
    />
  );
}

export function DinoList({ filter, name }: { filter: Filter; name: string }) {
  const go = usePaneNavigate();
  const list = usePagedList({ of: 'dinos', params: filter, limit: MAX_ROWS });
  return (
    <VirtualList<Dino>
      {...list.view}
      name={name}
      label="Dinos"
      columns={dinoColumns}
      rowKey={(d) => d.dinoId}
      defaultSort={{ column: 'name', direction: 'asc' }}
      emptyText="No dinos yet."
      onOpen={(d) => go(pathOf('dino', d.dinoId))}
      toolbar={<Toolbar commandIds={MENUS.dinoToolbar} label="Dinos" />}
    />
  );
}
