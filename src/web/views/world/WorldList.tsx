// The survivor, tribe and dino lists (SPEC §2), one component over a column declaration
// (src/domain/world.ts): across all servers, inside a server or group, or a tribe's members.
// Filter and sort run on the server (a fleet holds far more dinos than a list can hold), marked
// rows are the selection the row menu and the toolbar act on.

import { useSetAtom } from 'jotai';
import { type ReactNode, useCallback, useMemo, useState } from 'react';
import type { EntityRef } from '../../../../commands/args.ts';
import type { Character, Dino, Page, Tribe } from '../../../domain/api.ts';
import {
  DINO_DEFAULT_STATUS_FILTER,
  DINO_STATUS_LABELS,
  DINO_STATUSES,
  type DinoStatus,
} from '../../../domain/enums.ts';
import { pathOf, selectionOf } from '../../../domain/resolver.ts';
import {
  DINO_COLUMNS,
  DINO_DISCLAIMER,
  membershipColumn,
  SURVIVOR_COLUMNS,
  TRIBE_COLUMNS,
  type WorldColumn,
} from '../../../domain/world.ts';
import type { ListParams } from '../../api/sentinel.ts';
import { useApp } from '../../app/deps.tsx';
import { MENUS } from '../../app/menus.ts';
import { usePaneId, usePaneNavigate } from '../../app/PaneView.tsx';
import { selectionAtom } from '../../app/state.ts';
import { PAGE_SIZE } from '../../store/pageWindow.ts';
import type { SortState } from '../../store/prefs.ts';
import { useServerPages } from '../../store/rowWindow.ts';
import { useServerSearch } from '../../store/serverSearch.ts';
import { Toolbar } from '../../ui/Toolbar.tsx';
import { type Column, VirtualList } from '../../ui/VirtualList.tsx';
import { dinoRef, survivorRef, tribeRef } from './worldRefs.ts';
import './world.css';

export interface WorldListSpec<T> {
  kind: 'survivor' | 'tribe' | 'dino';
  of: 'characters' | 'tribes' | 'dinos';
  label: string;
  columns: readonly WorldColumn<T>[];
  rowKey(row: T): string;
  ref(row: T): EntityRef;
  /** The API filter a typed filter searches. */
  search: string;
  menu: readonly string[];
  toolbar: readonly string[];
  emptyText: string;
}

export const SURVIVOR_LIST: WorldListSpec<Character> = {
  kind: 'survivor',
  of: 'characters',
  label: 'Survivors',
  columns: SURVIVOR_COLUMNS,
  rowKey: (c) => c.characterId,
  ref: survivorRef,
  search: 'characterName',
  menu: MENUS.survivorRow,
  toolbar: MENUS.survivorToolbar,
  emptyText: 'No survivors here.',
};

export const TRIBE_LIST: WorldListSpec<Tribe> = {
  kind: 'tribe',
  of: 'tribes',
  label: 'Tribes',
  columns: TRIBE_COLUMNS,
  rowKey: (t) => t.tribeId,
  ref: tribeRef,
  search: 'tribeName',
  menu: MENUS.tribeRow,
  toolbar: MENUS.tribeToolbar,
  emptyText: 'No tribes here.',
};

export const DINO_LIST: WorldListSpec<Dino> = {
  kind: 'dino',
  of: 'dinos',
  label: 'Dinos',
  columns: DINO_COLUMNS,
  rowKey: (d) => d.dinoId,
  ref: dinoRef,
  search: 'dinoDisplayName',
  menu: MENUS.dinoRow,
  toolbar: MENUS.dinoToolbar,
  emptyText: 'No dinos here with the statuses shown.',
};

export interface WorldListProps<T> {
  spec: WorldListSpec<T>;
  /** Where: a server, a group, a tribe (API filters); nothing for every server. */
  filter: ListParams;
  /** Key of the list's stored filter, sort and columns. */
  name: string;
  /** Controls above the list beside the toolbar (the dino status filter). */
  extra?: ReactNode;
}

export function WorldList<T>({ spec, filter, name, extra }: WorldListProps<T>) {
  const { api, index } = useApp();
  const paneId = usePaneId();
  const go = usePaneNavigate();
  const setSelection = useSetAtom(selectionAtom);
  const [sort, setSort] = useState<SortState | null>(null);
  // The list hands its sort over after every change of it; the same sort keeps the same state.
  const keepSort = useCallback(
    (s: SortState) => setSort((old) => (old?.column === s.column && old.direction === s.direction ? old : s)),
    [],
  );
  const { search, serverSide } = useServerSearch(keepSort);

  // The name ascending is the API's own default (SPEC §9), so it is not asked for.
  const isDefault = !sort || (sort.column === 'name' && sort.direction === 'asc');
  const apiSort = isDefault ? undefined : spec.columns.find((c) => c.id === sort.column)?.sort;
  const params: ListParams = {
    ...filter,
    ...(search ? { [spec.search]: search } : {}),
    ...(apiSort
      ? { sortedColumn: apiSort, sortDirection: sort?.direction === 'desc' ? 'descending' : 'ascending' }
      : {}),
  };
  // A fleet's million dinos are paged by the server as the reader scrolls; the palette and the
  // commands find each page the list brought, with the caller's bits on each row.
  const lister = api[spec.of] as unknown as { list(p: ListParams): Promise<Page<T>> };
  const list = useServerPages<T>(
    [spec.of, params, 'window'],
    (page) => lister.list({ ...params, page, pageSize: PAGE_SIZE }),
    (rows) => index.upsert(rows.map(spec.ref)),
  );

  const tribeId = spec.kind === 'survivor' && typeof filter.tribeId === 'string' ? filter.tribeId : null;
  const columns = useMemo((): Column<T>[] => {
    const all = tribeId
      ? [...spec.columns, membershipColumn(tribeId) as unknown as WorldColumn<T>]
      : spec.columns;
    return all.map((c) => ({
      id: c.id,
      title: c.title,
      value: c.value,
      width: c.width,
      align: c.align,
      ...(c.state
        ? { render: (row: T) => <span className={`state state-${c.state?.(row)}`}>{c.value(row)}</span> }
        : {}),
    }));
  }, [spec, tribeId]);

  return (
    <VirtualList<T>
      {...list.view}
      name={name}
      label={spec.label}
      rowKey={spec.rowKey}
      columns={columns}
      defaultSort={{ column: 'name', direction: 'asc' }}
      serverSide={serverSide}
      emptyText={search ? `No ${spec.label.toLowerCase()} match "${search}".` : spec.emptyText}
      onOpen={(row) => go(pathOf(spec.kind, spec.rowKey(row)))}
      entity={spec.ref}
      menu={() => spec.menu}
      onSelectionChange={(marked, active) =>
        setSelection((all) => ({
          ...all,
          [paneId]: selectionOf((marked.length ? marked : active ? [active] : []).map(spec.ref)),
        }))
      }
      toolbar={
        <>
          <Toolbar commandIds={spec.toolbar} label={`${spec.label} actions`} />
          {extra}
        </>
      }
    />
  );
}

type Where = { filter: ListParams; name: string };

export const SurvivorList = (p: Where) => <WorldList spec={SURVIVOR_LIST} {...p} />;
export const TribeList = (p: Where) => <WorldList spec={TRIBE_LIST} {...p} />;

/**
 * Dinos with the status filter of SPEC §4 (Deployed, Cryopodded and Uploaded by default; Dead
 * on demand) and the disclaimer that level and age may lag the game.
 */
export function DinoList({ filter, name }: Where) {
  const [shown, setShown] = useState<readonly DinoStatus[]>(DINO_DEFAULT_STATUS_FILTER);
  const toggle = (s: DinoStatus) =>
    setShown((now) =>
      now.includes(s) ? now.filter((x) => x !== s) : DINO_STATUSES.filter((x) => x === s || now.includes(x)),
    );
  // None ticked shows none: an empty status list would mean "any" to the API.
  const statuses = shown.length ? shown.join(',') : 'None';
  return (
    <div className="world-dinos">
      <WorldList
        spec={DINO_LIST}
        filter={{ ...filter, dinoStatus: statuses }}
        name={name}
        extra={
          <fieldset className="dino-status-filter">
            <legend>Status</legend>
            {DINO_STATUSES.map((s) => (
              <label key={s}>
                <input type="checkbox" checked={shown.includes(s)} onChange={() => toggle(s)} />
                {DINO_STATUS_LABELS[s]}
              </label>
            ))}
          </fieldset>
        }
      />
      <p className="world-disclaimer">{DINO_DISCLAIMER}</p>
    </div>
  );
}
