// A log list (SPEC §2 "Logs list") for whatever page mounts it: a server, a group, a player, a
// survivor, a tribe or a dino. The server filters, sorts and pages; this holds only blocks near
// the reader (LogFeed) and appends live lines in 250 ms batches.

import { useAtom, useAtomValue, useSetAtom } from 'jotai';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { channelFor, type LogMessage, RealtimeEvent } from '../../../domain/api.ts';
import { formatCount, formatTime } from '../../../domain/format.ts';
import { pathOf, selectionOf } from '../../../domain/resolver.ts';
import { useApp } from '../../app/deps.tsx';
import { MENUS } from '../../app/menus.ts';
import { usePaneId, usePaneNavigate } from '../../app/PaneView.tsx';
import { selectionAtom } from '../../app/state.ts';
import { useLiveRefetch } from '../../store/liveRefetch.ts';
import { listPrefsAtom, prefAtoms, type SortState } from '../../store/prefs.ts';
import { useFrameRender, useRowWindow } from '../../store/rowWindow.ts';
import { valueWidth } from '../../ui/columns.ts';
import { type Column, VirtualList } from '../../ui/VirtualList.tsx';
import { LogFilters } from './LogFilters.tsx';
import { LogVolumeChart } from './LogVolumeChart.tsx';
import { LogFeed } from './logFeed.ts';
import {
  accepts,
  channelKind,
  DEFAULT_SORT,
  EMPTY_CRITERIA,
  isLiveSort,
  type LogCriteria,
  type LogScope,
  sameQuery,
  toQuery,
} from './logQuery.ts';
import { logRef, WIDEST_TIME } from './logRef.ts';
import './logs.css';
import { inWords } from '../../../domain/words.ts';

export interface LogViewProps {
  filter: LogScope;
  /** The list's name for its stored filter box and sort (`server-logs`, `player-logs`). */
  name: string;
}

/** Flushes live lines at most this often: one list render per flush, not one per socket message. */
export const FLUSH_MS = 250;
const TEXT_DEBOUNCE_MS = 300;
export const LOG_COLUMNS: Column<LogMessage>[] = [
  { id: 'message', title: 'Message', value: (m) => m.message, width: 'minmax(16rem, 3fr)' },
  {
    id: 'time',
    title: 'Time',
    value: (m) => m.time,
    render: (m) => formatTime(m.time),
    width: valueWidth(formatTime(WIDEST_TIME)),
  },
  { id: 'event', title: 'Event', value: (m) => inWords(m.eventName), width: '10rem' },
  { id: 'type', title: 'Type', value: (m) => m.type, width: '6rem' },
  {
    id: 'level',
    title: 'Level',
    value: (m) => m.level,
    render: (m) => <span className={`log-level log-level-${m.level.toLowerCase()}`}>{m.level}</span>,
    width: '7rem',
  },
  { id: 'server', title: 'Server', value: (m) => m.serviceDisplayName, width: 'minmax(8rem, 1fr)' },
];

/** Column id → the API's sortedColumn. */
const SORT_KEYS: Record<string, string> = {
  message: 'message',
  time: 'time',
  event: 'eventName',
  type: 'type',
  level: 'level',
  server: 'serviceDisplayName',
};

function apiSort(s: SortState | null): LogCriteria['sort'] {
  if (!s) return DEFAULT_SORT;
  return {
    column: SORT_KEYS[s.column] ?? DEFAULT_SORT.column,
    direction: s.direction === 'asc' ? 'ascending' : 'descending',
  };
}

/**
 * The visible columns are the `logColumns` preference (SPEC §3, settable from the console) and
 * also this list's stored columns, which the list's menu edits: whichever changed last wins.
 */
function useLogColumns(name: string): void {
  const [logColumns, setLogColumns] = useAtom(prefAtoms.logColumns);
  const [list, setList] = useAtom(listPrefsAtom(name));
  const synced = useRef<string | null>(null);
  const pref = JSON.stringify(logColumns);
  const mine = JSON.stringify(list.columns ?? LOG_COLUMNS.map((c) => c.id));
  useEffect(() => {
    if (pref === mine) synced.current = pref;
    else if (synced.current === null || synced.current !== pref) {
      synced.current = pref;
      setList((cur) => ({ ...cur, columns: [...logColumns] }));
    } else {
      synced.current = mine;
      if (list.columns) setLogColumns(list.columns as typeof logColumns);
    }
  }, [pref, mine, logColumns, list.columns, setList, setLogColumns]);
}

/** "12 new lines", kept out of the list so its ticking does not re-render the rows. */
function WaitingNotice({ feed }: { feed: LogFeed }) {
  const [state, setState] = useState({ waiting: 0, stale: false });
  useEffect(() => {
    const t = setInterval(() => {
      setState((s) =>
        s.waiting === feed.waiting && s.stale === feed.stale
          ? s
          : { waiting: feed.waiting, stale: feed.stale },
      );
    }, FLUSH_MS);
    return () => clearInterval(t);
  }, [feed]);
  if (state.stale) return <span className="log-waiting">New lines: refresh (r) to see them</span>;
  if (state.waiting === 0) return null;
  return (
    <span className="log-waiting" role="status">
      {formatCount(state.waiting)} new {state.waiting === 1 ? 'line' : 'lines'} above (Home)
    </span>
  );
}

export function LogView({ filter, name }: LogViewProps) {
  const { api, realtime } = useApp();
  const paneId = usePaneId();
  const go = usePaneNavigate();
  const setSelection = useSetAtom(selectionAtom);
  useLogColumns(name);

  const scopeKey = JSON.stringify(filter);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the scope is compared by value, as pages pass a new object each render.
  const scope = useMemo(() => filter, [scopeKey]);
  const stored = useAtomValue(listPrefsAtom(name));
  // The list's stored filter text and sort apply from the first fetch, not after a second one.
  const [criteria, setCriteria] = useState<LogCriteria>(() => ({
    ...EMPTY_CRITERIA,
    text: stored.filter,
    sort: apiSort(stored.sort),
  }));
  const patch = useCallback(
    (p: Partial<LogCriteria>) =>
      setCriteria((c) => {
        const next = { ...c, ...p };
        return sameQuery(c, next) ? c : next;
      }),
    [],
  );
  const [error, setError] = useState<string | null>(null);
  const [version, bump] = useFrameRender();

  const feed = useMemo(
    () =>
      new LogFeed({
        list: (query) => api.logMessages.list(query),
        query: toQuery(scope, criteria),
        accepts: (m) => accepts(scope, criteria, m),
        live: isLiveSort(criteria),
        onChange: bump,
        onError: (e) => setError(e.message),
      }),
    [api, scope, criteria, bump],
  );
  useEffect(() => {
    setError(null);
    void feed.reload();
  }, [feed]);

  // Where the reader is; at the top (row 0 rendered) the list follows new lines.
  const { win, range, onRangeChange } = useRowWindow(feed, version);

  useEffect(() => {
    const t = setInterval(() => {
      if (feed.wantsCatchUp && feed.loaded) void feed.catchUp();
      if (feed.flush(range.current.start === 0)) bump();
    }, FLUSH_MS);
    return () => clearInterval(t);
  }, [feed, bump, range]);

  const channel = channelKind(scope);
  // The feed catches up from the newest line it holds on its own timer, so a refetch marks a gap.
  // Also on the first subscribe: lines stored between the first page and the subscription.
  useLiveRefetch(realtime, {
    channels: channel ? [channelFor(channel[0], channel[1])] : [],
    events: { [RealtimeEvent.logsUpdated]: true },
    on: {
      [RealtimeEvent.logMessage]: (data) => feed.receive([data as LogMessage]),
      // Rare (a server's blip undone), and the line may sit anywhere in the pages held: start over.
      [RealtimeEvent.logMessageRemoved]: () => void feed.reload(),
    },
    refetch: () => feed.markGap(),
  });

  const textTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(textTimer.current), []);
  const serverSide = useMemo(
    () => ({
      onFilter: (text: string) => {
        clearTimeout(textTimer.current);
        textTimer.current = setTimeout(
          () => setCriteria((c) => (c.text === text ? c : { ...c, text })),
          TEXT_DEBOUNCE_MS,
        );
      },
      onSort: (s: SortState) => {
        const sort = apiSort(s);
        setCriteria((c) =>
          c.sort.column === sort.column && c.sort.direction === sort.direction ? c : { ...c, sort },
        );
      },
    }),
    [],
  );

  const onSelectionChange = useCallback(
    (marked: LogMessage[], active: LogMessage | null) =>
      setSelection((all) => ({
        ...all,
        [paneId]: selectionOf((marked.length ? marked : active ? [active] : []).map(logRef)),
      })),
    [paneId, setSelection],
  );

  return (
    <div className="log-view">
      <LogFilters criteria={criteria} scope={scope} onChange={patch} />
      <LogVolumeChart scope={scope} criteria={criteria} onRange={(from, to) => patch({ from, to })} />
      <VirtualList<LogMessage>
        name={name}
        label="Log messages"
        rows={win.rows}
        rowOffset={win.offset}
        totalRows={feed.count}
        onRangeChange={onRangeChange}
        rowKey={(m) => m.messageId}
        columns={LOG_COLUMNS}
        defaultSort={{ column: 'time', direction: 'desc' }}
        serverSide={serverSide}
        loading={feed.loading && feed.count === 0}
        error={error}
        emptyText="No log messages match."
        entity={logRef}
        menu={() => MENUS.logRow}
        onOpen={(m) => go(pathOf('log', m.messageId))}
        onRefresh={() => void feed.reload()}
        onSelectionChange={onSelectionChange}
        toolbar={<WaitingNotice feed={feed} />}
      />
    </div>
  );
}
