// /scripts (SPEC §2): the Library tab (the user's scripts) and the Workshop tab (community scripts,
// best rated first) at /scripts/workshop. `g x` and `g w` switch between them, as do the tab links;
// focus lands on the tab's list.

import { useSetAtom } from 'jotai';
import { useCallback, useEffect, useMemo } from 'react';
import { useLocation } from 'react-router';
import { type CommunityScript, type Script, userChannel } from '../../../domain/api.ts';
import { formatTime } from '../../../domain/format.ts';
import { pathOf, type Ref, selectionOf, WORKSHOP } from '../../../domain/resolver.ts';
import {
  contextsOf,
  languagesOf,
  likesOf,
  scriptOrigin,
  sharingOf,
  workshopPath,
} from '../../../domain/workshop.ts';
import { useApp, userOf } from '../../app/deps.tsx';
import { MENUS } from '../../app/menus.ts';
import { PaneLink, usePaneId, usePaneNavigate } from '../../app/PaneView.tsx';
import { selectionAtom } from '../../app/state.ts';
import { useLiveRefetch } from '../../store/liveRefetch.ts';
import { MAX_ROWS, usePagedList } from '../../store/pagedList.ts';
import { useServerSearch } from '../../store/serverSearch.ts';
import { Toolbar } from '../../ui/Toolbar.tsx';
import { type Column, VirtualList } from '../../ui/VirtualList.tsx';
import { ScriptStatus, statusText } from './ScriptStatus.tsx';
import './scripts.css';

/** A script as the palette and commands know it; a Workshop script holds no bits of the user's. */
export const scriptRef = (s: Script): Ref & { mask?: number } => ({
  kind: 'script',
  id: s.scriptId,
  label: s.name,
  mask: s.permissions,
});
const communityRef = (s: CommunityScript): Ref => ({ kind: 'script', id: s.scriptId, label: s.name });

const nameColumn = <T extends Script>(): Column<T> => ({
  id: 'name',
  title: 'Name',
  value: (s) => s.name,
  render: (s) => (
    <span className="script-name">
      {s.name}
      <ScriptStatus script={s} />
    </span>
  ),
  width: '2fr',
});

function libraryColumns(userId: string | undefined): Column<Script>[] {
  return [
    nameColumn<Script>(),
    { id: 'language', title: 'Language', value: languagesOf },
    { id: 'context', title: 'Context', value: contextsOf, width: '2fr' },
    { id: 'status', title: 'Status', value: statusText },
    { id: 'origin', title: 'Origin', value: (s) => scriptOrigin(s, userId) },
    { id: 'workshop', title: 'Workshop', value: sharingOf },
    {
      id: 'updated',
      title: 'Updated',
      value: (s) => s.dateModified,
      render: (s) => formatTime(s.dateModified),
    },
  ];
}

const workshopColumns: Column<CommunityScript>[] = [
  nameColumn<CommunityScript>(),
  { id: 'preview', title: 'Preview', value: (s) => s.preview, width: '2fr' },
  { id: 'author', title: 'Author', value: (s) => s.usernameFull, width: '1.5fr' },
  {
    id: 'rating',
    title: 'Rating',
    value: (s) => s.communityRating ?? -1,
    render: (s) => (s.communityRating === null ? 'No votes' : `${Math.round(s.communityRating * 100)}%`),
    align: 'end',
  },
  { id: 'likes', title: 'Likes', value: likesOf, align: 'end' },
  { id: 'liked', title: 'You like it', value: (s) => (s.liked ? 'Yes' : '') },
];

/**
 * Hands the list's marked rows (or its active one) to commands as the pane's selection. One
 * function per pane, and no subscription to the selection: the list calls it whenever it changes.
 */
function useSelectionSetter<T>(toRef: (row: T) => Ref) {
  const paneId = usePaneId();
  const setSelection = useSetAtom(selectionAtom);
  return useCallback(
    (marked: T[], active: T | null) =>
      setSelection((all) => ({
        ...all,
        [paneId]: selectionOf((marked.length ? marked : active ? [active] : []).map(toRef)),
      })),
    [paneId, setSelection, toRef],
  );
}

/** On the user's channel when a script they can see was written, deleted, shared or reviewed (docs/api.md). */
const SCRIPTS_UPDATED = 'scriptsUpdated';

function Library() {
  const { auth, realtime, index } = useApp();
  const go = usePaneNavigate();
  const list = usePagedList({ of: 'scripts', params: { sortedColumn: 'name' }, limit: MAX_ROWS });
  const select = useSelectionSetter(scriptRef);
  const userId = userOf(auth)?.userId;
  // Live: another admin of a shared group, a second tab, or a review changes what is listed.
  useLiveRefetch(realtime, {
    channels: userId ? [userChannel(userId)] : [],
    events: { [SCRIPTS_UPDATED]: true },
    refetch: list.refetch,
  });
  const columns = useMemo(() => libraryColumns(userId), [userId]);
  useEffect(() => index.upsert(list.rows.map(scriptRef)), [index, list.rows]);
  return (
    <VirtualList<Script>
      {...list.view}
      name="scripts"
      label="Library"
      rowKey={(s) => s.scriptId}
      columns={columns}
      defaultSort={{ column: 'name', direction: 'asc' }}
      emptyText="No scripts yet. Write one, or make a copy of one from the Workshop."
      onOpen={(s) => go(pathOf('script', s.scriptId))}
      menu={() => MENUS.scriptRow}
      entity={scriptRef}
      onSelectionChange={select}
      toolbar={<Toolbar commandIds={MENUS.scriptLibraryToolbar} label="Library" />}
    />
  );
}

function Workshop() {
  const { index } = useApp();
  const go = usePaneNavigate();
  // `/` searches the whole Workshop (name, preview, description) on the server; what it finds,
  // best rated first, is sorted here by any column.
  const { search, serverSide } = useServerSearch();
  const list = usePagedList({
    of: 'communityScripts',
    params: { sortedColumn: 'communityRating', sortDirection: 'descending' },
    search: search ? { search } : undefined,
    limit: MAX_ROWS,
  });
  const select = useSelectionSetter(communityRef);
  useEffect(() => index.upsert(list.rows.map(communityRef)), [index, list.rows]);
  return (
    <VirtualList<CommunityScript>
      {...list.view}
      name="workshop"
      label="Workshop"
      rowKey={(s) => s.scriptId}
      columns={workshopColumns}
      defaultSort={{ column: 'rating', direction: 'desc' }}
      serverSide={serverSide}
      emptyText={
        search ? `No script in the Workshop matches "${search}".` : 'No scripts in the Workshop yet.'
      }
      onOpen={(s) => go(workshopPath(s.scriptId))}
      menu={() => MENUS.workshopRow}
      entity={communityRef}
      onSelectionChange={select}
      toolbar={<Toolbar commandIds={MENUS.workshopToolbar} label="Workshop" />}
    />
  );
}

export function ScriptsPage() {
  const inWorkshop = useLocation().pathname.split('/').filter(Boolean)[1] === WORKSHOP;
  const tabs = [
    { to: pathOf('script'), title: 'Library', active: !inWorkshop },
    { to: workshopPath(), title: 'Workshop', active: inWorkshop },
  ];
  return (
    <div className="page page-list">
      <h1 className="page-title">Scripts</h1>
      <nav className="tabs" aria-label="Scripts tabs">
        {tabs.map((t) => (
          <PaneLink key={t.to} to={t.to} className={t.active ? 'tab tab-active' : 'tab'}>
            {t.title}
          </PaneLink>
        ))}
      </nav>
      {inWorkshop ? <Workshop /> : <Library />}
    </div>
  );
}
