// The one list of the console. Only the visible window of rows is in the DOM (fixed row
// height, fixedRows.ts), so it serves a few servers and a million log lines alike; per-row state is
// never allocated: marks are a Set of keys and the active row is an index.

// biome-ignore-all lint/a11y/useSemanticElements: a virtualised grid positions rows absolutely, which table layout cannot do; the ARIA grid roles carry the semantics.
// biome-ignore-all lint/a11y/useFocusableInteractive: rows and cells are reached through the grid's aria-activedescendant; only the grid takes focus (roving focus).

import { useAtom, useStore } from 'jotai';
import {
  type CSSProperties,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
  type RefObject,
  useCallback,
  useContext,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import type { ListController } from '../../../commands/context.ts';
import { LIST_KEYS, type ListKeyId } from '../../../commands/listKeys.ts';
import { type Command, Registry } from '../../../commands/registry.ts';
import { shellCommands } from '../../../commands/shell.ts';
import { formatCount } from '../../domain/format.ts';
import { NO_SELECTION, type Ref, type Selection, selectionOf } from '../../domain/resolver.ts';
import { CommandRuntimeContext } from '../app/runtime.ts';
import { type ListPrefs, listPrefsAtom, type SortState } from '../store/prefs.ts';
import { releaseActiveList, setActiveList } from './activeList.ts';
import { ColumnsMenu } from './ColumnsMenu.tsx';
import { ContextMenu, type MenuPoint } from './ContextMenu.tsx';
import {
  type Column,
  cellText,
  filterRows,
  gridTemplate,
  nextSort,
  sortRows,
  toggleColumn,
  visibleColumns,
} from './columns.ts';
import { useFixedRows } from './fixedRows.ts';
import { keyNames } from './keyNames.ts';
import { ListPlaceContext, recallRow, rememberRow } from './listPlace.ts';
import { openMenu } from './openMenu.ts';
import { runOrPrompt } from './runCommand.ts';

export type { Column } from './columns.ts';

export interface VirtualListProps<T> {
  /** Key of the list's stored filter, sort and columns (`servers`, `server-logs`). */
  name: string;
  /** Accessible name of the grid; the list name when omitted. */
  label?: string;
  /** All rows, or with `totalRows` the loaded window starting at `rowOffset`. */
  rows: readonly T[];
  rowKey(row: T): string;
  columns: readonly Column<T>[];
  defaultSort?: SortState;
  onOpen?(row: T): void;
  /** Command ids for the context menu of these rows (a list of app/menus.ts). */
  menu?(rows: T[]): readonly string[];
  /**
   * The entity a row stands for (a ban row: its player). Menus and list keys hand the rows over
   * as the selection; commands take their arguments from it.
   */
  entity?(row: T): Ref;
  /**
   * Values the rows give their menu's commands beyond the entity, by argument name (a group
   * member's row: the user), for what no entity kind stands for.
   */
  menuValues?(rows: T[]): Record<string, unknown>;
  onSelectionChange?(marked: T[], active: T | null): void;
  onRefresh?(): void;
  /** Server-side lists export from the server; local lists export what is shown. */
  onExportCsv?(): void;
  emptyText?: string;
  loading?: boolean;
  error?: string | null;
  /** Rows on the server; rows not loaded yet show as placeholders. */
  totalRows?: number;
  rowOffset?: number;
  /** The window the user sees (end exclusive), so the caller can fetch it. */
  onRangeChange?(start: number, end: number): void;
  /**
   * Filter or sort done by the caller (the server) instead of here: each one given is handed
   * over; without `onSort` the rows the server found are sorted here.
   */
  serverSide?: { onFilter(text: string): void; onSort?(sort: SortState): void };
  /** Extra controls in the list's bar, e.g. a <Toolbar />. */
  toolbar?: ReactNode;
  /** What the filter box says it takes, when more than words (the players' `flag:`). */
  filterHint?: string;
  /** Viewport size before layout is known (tests, first paint). */
  initialRect?: { width: number; height: number };
}

/** Commands of the list scope the list carries out itself, with or without a runtime. */
const OWN_COMMANDS: Record<string, (list: { focusFilter(): void; openMenu(): void }) => void> = {
  'ui.list.filter': (l) => l.focusFilter(),
  'ui.contextMenu': (l) => l.openMenu(),
};

/** The list scope's keys for a list shown without the console's runtime (a public page, a test). */
const STANDALONE_KEYS = new Registry()
  .reserve(...LIST_KEYS)
  .register(...shellCommands.filter((c) => c.id in OWN_COMMANDS));

const OVERSCAN = 10;
/** No marked rows: one array, so an unmarked list's selection is the same from render to render. */
const NO_MARKS: never[] = [];
const DEFAULT_ROW_H = 24;

/** The row height of the theme (`--row-h`), read once the list is in the document. */
function useRowHeight(ref: RefObject<HTMLElement | null>): number {
  const [h, setH] = useState(DEFAULT_ROW_H);
  useLayoutEffect(() => {
    if (!ref.current) return;
    const v = Number.parseFloat(getComputedStyle(ref.current).getPropertyValue('--row-h'));
    if (v > 0) setH(v);
  }, [ref]);
  return h;
}

/** Where the row with `key` now is in the held window, or `fallback` when it is not held. */
function indexOfKey<T>(
  rows: readonly T[],
  rowKey: (row: T) => string,
  key: string,
  offset: number,
  fallback: number,
): number {
  const i = rows.findIndex((r) => rowKey(r) === key);
  return i < 0 ? fallback : i + offset;
}

/** `/` selects what the filter holds, so typing replaces a remembered filter rather than adding to it. */
function selectAll(input: HTMLInputElement | null): void {
  input?.focus();
  input?.select();
}

export function VirtualList<T>(props: VirtualListProps<T>) {
  const { name, label = name, rows, rowKey, columns, totalRows, rowOffset = 0, serverSide } = props;
  const runtime = useContext(CommandRuntimeContext);
  const store = useStore();
  const [prefs, setPrefs] = useAtom(listPrefsAtom(name));
  const patch = useCallback((p: Partial<ListPrefs>) => setPrefs((cur) => ({ ...cur, ...p })), [setPrefs]);

  const filter = prefs.filter;
  const sort = prefs.sort ?? props.defaultSort ?? null;
  const shown = useMemo(() => visibleColumns(columns, prefs.columns), [columns, prefs.columns]);

  const view = useMemo(() => {
    const filtered = serverSide ? rows : filterRows(rows, shown, filter);
    if (serverSide && serverSide.onSort !== undefined) return filtered;
    return sort
      ? sortRows(
          filtered,
          columns.find((c) => c.id === sort.column),
          sort.direction,
        )
      : filtered;
  }, [rows, shown, columns, filter, sort, serverSide]);

  const count = totalRows ?? view.length;
  const rowAt = (i: number): T | undefined => view[i - rowOffset];

  // Back at a view, the list starts on the row the user left (listPlace.ts).
  const place = useContext(ListPlaceContext);
  const placeKey = place === null ? null : `${place}\n${name}`;
  const [recalled] = useState(() => (placeKey === null ? undefined : recallRow(placeKey)));
  const [activeRaw, setActiveRaw] = useState(recalled?.index ?? 0);
  // Once the user reaches the list (focus, a move), the active row is a row, not a place: rows
  // arriving above it (a live log's new lines) move it down with them, so a key or a menu acts on
  // the row the user chose. Before that it stays at the top, where new lines show.
  // `moved`: the user chose the row (a key, a click, or it was theirs when they left the view),
  // rather than only reaching the list.
  const activeKey = useRef<{ key: string | null; moved?: true } | null>(
    recalled ? { key: recalled.key, moved: true } : null,
  );
  const setActive = (index: number) => {
    activeKey.current = { key: null, moved: true };
    setActiveRaw(index);
  };
  // A new sort or filter keeps the place instead: the row at the top stays the active one.
  const order = `${filter}\n${sort?.column}\n${sort?.direction}`;
  const orderSeen = useRef(order);
  if (orderSeen.current !== order) {
    orderSeen.current = order;
    if (activeKey.current) activeKey.current.key = null;
  }
  const placed = Math.min(activeRaw, count - 1);
  const atPlace = rowAt(placed);
  const chosen = activeKey.current?.key ?? null;
  const active =
    chosen === null || atPlace === undefined || rowKey(atPlace) === chosen
      ? placed
      : indexOfKey(view, rowKey, chosen, rowOffset, placed);
  const activeNow = rowAt(active);
  if (activeNow && activeKey.current) activeKey.current.key = rowKey(activeNow);
  const [marks, setMarks] = useState<ReadonlySet<string>>(() => new Set());
  const anchor = useRef<{ index: number; base: ReadonlySet<string> } | null>(null);
  /**
   * The open row menu: where, and the rows it acts on, taken when it opened, so a refetch while
   * it is open (rows replaced, or none while loading) cannot change what its command acts on.
   */
  const [menu, setMenu] = useState<{ at: MenuPoint; rows: T[] } | null>(null);

  const gridRef = useRef<HTMLDivElement>(null);
  const filterRef = useRef<HTMLInputElement>(null);
  const columnsButton = useRef<HTMLButtonElement>(null);
  const rowH = useRowHeight(gridRef);
  const baseId = useId();
  const rowId = (i: number) => `${baseId}-row-${i}`;

  // The grid is the scroller: the element a keyboard user focuses is the one that scrolls.
  const virtualizer = useFixedRows({
    scrollRef: gridRef,
    count,
    rowHeight: rowH,
    overscan: OVERSCAN,
    initialRect: props.initialRect,
  });
  const items = virtualizer.slots;
  // Rows inserted above the active row: the view moves with it, so what the user reads stays put.
  // Scrolled to the very top, it stays there, where new rows show (a live log is followed): moving
  // with the row there took a followed log off the top a few lines at a time, until it stopped
  // showing new lines at all ("29 new lines above"). A row the user chose (a key, a click) is
  // kept in view though: the view leaves the top only when that row would slide out of it, and
  // only as far as shows it whole (its focus is never hidden). A row only reached by focusing the
  // list may slide away: following the log is what that reader is doing (a chat view's backlog
  // arriving at once once took the view off the top, and the lines said next out of sight).
  const { scrollByRows, scrollToIndex } = virtualizer;
  useLayoutEffect(() => {
    if (active < 0 || active === activeRaw) return;
    setActiveRaw(active);
    if ((gridRef.current?.scrollTop ?? 0) > 0) scrollByRows(active - activeRaw);
    else if (activeKey.current?.moved) scrollToIndex(active);
  }, [active, activeRaw, scrollByRows, scrollToIndex]);
  const first = items[0]?.index ?? 0;
  const last = items.at(-1)?.index ?? -1;

  // The parent's callbacks (and rowKey) are read as they are now, and told of a change, not of each
  // render: views pass them inline, and a selection stored in a parent's state re-rendered it with
  // a new callback, which was told again, and so on, hundreds of times a second with nothing
  // changed (and a console opened then never finished loading).
  const callbacks = useRef(props);
  callbacks.current = props;
  useEffect(() => {
    if (last >= first) callbacks.current.onRangeChange?.(first, last + 1);
  }, [first, last]);

  const activeRow = active >= 0 ? (rowAt(active) ?? null) : null;
  const activeRowKey = activeRow ? rowKey(activeRow) : null;
  const revealed = useRef(!recalled);
  useEffect(() => {
    if (activeRowKey === null) return;
    if (!revealed.current) {
      revealed.current = true;
      virtualizer.scrollToIndex(active);
    }
    if (activeKey.current && placeKey !== null) rememberRow(placeKey, { key: activeRowKey, index: active });
  }, [activeRowKey, active, placeKey, virtualizer]);
  const markedRows = useMemo(
    () => (marks.size === 0 ? NO_MARKS : view.filter((r) => marks.has(callbacks.current.rowKey(r)))),
    [marks, view],
  );
  useEffect(() => {
    callbacks.current.onSelectionChange?.(markedRows, activeRow);
  }, [markedRows, activeRow]);

  useEffect(() => {
    serverSide?.onFilter(filter);
  }, [filter, serverSide]);
  useEffect(() => {
    if (sort) serverSide?.onSort?.(sort);
  }, [sort, serverSide]);

  /**
   * What commands on these rows act on. Rows that are not entities (a bucket's values) select
   * nothing, so the command reads the route: the pane's selection may be a row of the view before
   * (a row menu's Delete value once deleted the key from the bucket listed first).
   */
  const selectionFor = (rows: T[]): Selection =>
    props.entity ? selectionOf(rows.map(props.entity)) : NO_SELECTION;

  /** The rows a command on `row` acts on: all marked ones when it is among them. */
  const targetsOf = (row: T | null | undefined): T[] => {
    if (row && marks.has(rowKey(row))) return markedRows;
    return row ? [row] : [];
  };
  const targets = (): T[] => targetsOf(activeRow);

  const moveTo = (target: number, extend: boolean): boolean => {
    if (count === 0) return true;
    const next = Math.max(0, Math.min(count - 1, target));
    if (extend) {
      anchor.current ??= { index: Math.max(active, 0), base: marks };
      const { index, base } = anchor.current;
      const m = new Set(base);
      for (let i = Math.min(index, next); i <= Math.max(index, next); i++) {
        const r = rowAt(i);
        if (r) m.add(rowKey(r));
      }
      setMarks(m);
    } else anchor.current = null;
    setActive(next);
    virtualizer.scrollToIndex(next);
    return true;
  };

  const toggleMark = () => {
    if (!activeRow) return;
    anchor.current = null;
    const key = rowKey(activeRow);
    const m = new Set(marks);
    if (!m.delete(key)) m.add(key);
    setMarks(m);
  };

  const openMenuAt = (point: MenuPoint, rows: T[]) => {
    if (props.menu && rows.length > 0) setMenu({ at: point, rows });
  };
  const openMenuAtActive = () => {
    const rect = document.getElementById(rowId(active))?.getBoundingClientRect();
    openMenuAt({ x: (rect?.left ?? 0) + 16, y: rect?.bottom ?? 0 }, targets());
  };

  const exportCsv = () => {
    if (props.onExportCsv) props.onExportCsv();
    // papaparse loads on the first export, not with the console.
    else void import('./csv.ts').then(({ downloadCsv, toCsv }) => downloadCsv(name, toCsv(shown, view)));
  };

  // The controller outlives renders; it reaches the current closures through this ref.
  const latest = useRef({ exportCsv, openMenuAtActive, onRefresh: props.onRefresh });
  latest.current = { exportCsv, openMenuAtActive, onRefresh: props.onRefresh };
  const controller = useMemo<ListController>(
    () => ({
      name,
      focusFilter: () => selectAll(filterRef.current),
      openColumns: () => openMenu(columnsButton.current),
      refresh: () => latest.current.onRefresh?.(),
      exportCsv: () => latest.current.exportCsv(),
      openContextMenu: () => latest.current.openMenuAtActive(),
    }),
    [name],
  );
  useEffect(() => () => releaseActiveList(controller), [controller]);

  const page = Math.max(1, Math.floor((virtualizer.viewportHeight || rowH * 10) / rowH) - 1);

  /**
   * A list-scope command: one the rows offer (their menu) runs on them with their values; one
   * without arguments (`r` refresh) on the list; the list's own (`/`, the menu key) right here.
   */
  const runListCommand = (cmd: Command): boolean => {
    const own = OWN_COMMANDS[cmd.id];
    if (own) {
      own({ focusFilter: () => selectAll(filterRef.current), openMenu: openMenuAtActive });
      return true;
    }
    if (!runtime) return false;
    const rows = targets();
    const offered = props.menu && rows.length > 0 ? props.menu(rows) : [];
    const onRows = offered.includes(cmd.id);
    if (!onRows && Object.keys(cmd.args ?? {}).length > 0) return false;
    runOrPrompt(runtime, cmd, onRows ? (props.menuValues?.(rows) ?? {}) : {}, 'hotkey', {
      selection: onRows ? selectionFor(rows) : undefined,
      store,
    });
    return true;
  };

  const listKeys: Record<ListKeyId, () => boolean> = {
    'list.next': () => moveTo(active + 1, false),
    'list.previous': () => moveTo(active - 1, false),
    'list.first': () => moveTo(0, false),
    'list.last': () => moveTo(count - 1, false),
    'list.pageDown': () => moveTo(active + page, false),
    'list.pageUp': () => moveTo(active - page, false),
    'list.markNext': () => moveTo(active + 1, true),
    'list.markPrevious': () => moveTo(active - 1, true),
    'list.markFirst': () => moveTo(0, true),
    'list.markLast': () => moveTo(count - 1, true),
    'list.markPageDown': () => moveTo(active + page, true),
    'list.markPageUp': () => moveTo(active - page, true),
    'list.mark': () => {
      toggleMark();
      return true;
    },
    'list.open': () => {
      if (activeRow) props.onOpen?.(activeRow);
      return true;
    },
    'list.clear': () => {
      if (filter !== '') patch({ filter: '' });
      else if (marks.size > 0) setMarks(new Set());
      else return false;
      return true;
    },
  };

  /** The list scope's key dispatcher: the registry says what a key means, here or in a command. */
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    // Keys typed in header buttons or a menu opened from the list bubble here; not ours.
    if (e.target !== e.currentTarget) return;
    const binding = (runtime?.registry ?? STANDALONE_KEYS).binding('list', keyNames(e.nativeEvent));
    const handled = binding?.reserved
      ? listKeys[binding.reserved.id as ListKeyId]()
      : binding?.command
        ? runListCommand(binding.command)
        : false;
    if (handled) {
      e.preventDefault();
      e.stopPropagation();
    }
  };

  const onRowMouseDown = (e: MouseEvent, index: number) => {
    if (e.button === 2) return;
    if (e.shiftKey) moveTo(index, true);
    else {
      setActive(index);
      anchor.current = null;
      if (e.ctrlKey || e.metaKey) {
        const r = rowAt(index);
        if (r) {
          const m = new Set(marks);
          if (!m.delete(rowKey(r))) m.add(rowKey(r));
          setMarks(m);
        }
      }
    }
  };

  const onRowContextMenu = (e: MouseEvent, index: number) => {
    if (!props.menu) return;
    e.preventDefault();
    setActive(index);
    gridRef.current?.focus({ preventScroll: true });
    // The clicked row's targets: the active row is still the one before until this renders.
    openMenuAt({ x: e.clientX, y: e.clientY }, targetsOf(rowAt(index)));
  };

  const sortBy = (column: string) => patch({ sort: nextSort(sort, column) });

  // The active row is always rendered, so aria-activedescendant names an element in the DOM.
  const windowRows =
    active >= 0 && (active < first || active > last)
      ? [{ index: active, start: active * rowH }, ...items]
      : items;
  const template = gridTemplate(shown as Column<unknown>[]);
  const menuRows = menu?.rows ?? [];

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: focus anywhere in the list (filter, grid, headers) makes it the list that ui.list.* commands act on.
    <div className="vl" onFocus={() => setActiveList(controller)}>
      <div className="vl-bar">
        <input
          ref={filterRef}
          type="search"
          className="vl-filter"
          placeholder={`${props.filterHint ?? 'Filter'}  /`}
          aria-label={`Filter ${label}`}
          value={filter}
          onChange={(e) => patch({ filter: e.target.value })}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && filter !== '') patch({ filter: '' });
            else if (e.key === 'Escape' || e.key === 'ArrowDown' || e.key === 'Enter')
              gridRef.current?.focus();
            else return;
            e.preventDefault();
            e.stopPropagation();
          }}
        />
        <span className="vl-count" aria-live="polite">
          {props.loading ? 'Loading…' : `${formatCount(count)} ${count === 1 ? 'row' : 'rows'}`}
        </span>
        {props.toolbar}
        <ColumnsMenu
          columns={columns}
          visible={shown.map((c) => c.id)}
          onToggle={(id) => patch({ columns: toggleColumn(columns, prefs.columns, id) })}
          buttonRef={columnsButton}
        />
      </div>
      {props.error && count > 0 && (
        <div className="vl-error" role="alert">
          {props.error}
        </div>
      )}
      <div
        ref={gridRef}
        className="vl-grid"
        role="grid"
        tabIndex={0}
        aria-label={label}
        aria-rowcount={count + 1}
        aria-colcount={shown.length}
        aria-multiselectable="true"
        aria-busy={props.loading || undefined}
        aria-activedescendant={active >= 0 ? rowId(active) : undefined}
        onFocus={(e) => {
          if (e.target === e.currentTarget && !activeKey.current)
            activeKey.current = { key: activeRow ? rowKey(activeRow) : null };
        }}
        onKeyDown={onKeyDown}
        style={{ '--vl-cols': template } as CSSProperties}
      >
        <div role="rowgroup" className="vl-head">
          <div role="row" aria-rowindex={1} className="vl-row vl-head-row">
            {shown.map((c, i) => {
              const dir = sort?.column === c.id ? sort.direction : null;
              return (
                <div
                  key={c.id}
                  role="columnheader"
                  aria-colindex={i + 1}
                  aria-sort={dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : 'none'}
                  className={`vl-cell vl-align-${c.align ?? 'start'}`}
                >
                  <button type="button" className="vl-sort" onClick={() => sortBy(c.id)}>
                    {c.title}
                    <span className="vl-sort-mark" aria-hidden="true">
                      {dir === 'asc' ? '▲' : dir === 'desc' ? '▼' : ''}
                    </span>
                  </button>
                </div>
              );
            })}
          </div>
        </div>
        {/* A rowgroup holds rows; with none, the message is plain text of the grid. */}
        <div role={count === 0 ? undefined : 'rowgroup'} className="vl-body">
          {count === 0 ? (
            <div className="vl-empty" role={props.error ? 'alert' : undefined}>
              {props.loading ? 'Loading…' : (props.error ?? props.emptyText ?? 'Nothing to show.')}
            </div>
          ) : (
            <div className="vl-sizer" style={{ height: virtualizer.totalHeight }}>
              {windowRows.map(({ index, start }) => {
                const row = rowAt(index);
                const marked = row !== undefined && marks.has(rowKey(row));
                return (
                  <div
                    key={row ? rowKey(row) : `pending-${index}`}
                    id={rowId(index)}
                    role="row"
                    aria-rowindex={index + 2}
                    aria-selected={marked}
                    className={`vl-row${index === active ? ' is-active' : ''}${marked ? ' is-marked' : ''}${row ? '' : ' is-pending'}`}
                    style={{ transform: `translateY(${start}px)` }}
                    onMouseDown={(e) => onRowMouseDown(e, index)}
                    onDoubleClick={() => row && props.onOpen?.(row)}
                    onContextMenu={(e) => onRowContextMenu(e, index)}
                  >
                    {shown.map((c, ci) => (
                      <div
                        key={c.id}
                        role="gridcell"
                        aria-colindex={ci + 1}
                        className={`vl-cell vl-align-${c.align ?? 'start'}`}
                      >
                        {row
                          ? c.render
                            ? c.render(row)
                            : cellText(c.value(row))
                          : ci === 0
                            ? 'Loading…'
                            : ''}
                      </div>
                    ))}
                  </div>
                );
              })}
            </div>
          )}
        </div>
      </div>
      {props.menu && (
        <ContextMenu
          at={menu?.at ?? null}
          commandIds={menu ? props.menu(menuRows) : []}
          selection={selectionFor(menuRows)}
          given={menu ? props.menuValues?.(menuRows) : undefined}
          onClose={() => {
            setMenu(null);
            // A chosen command may have opened a dialog (a confirmation, a form): it keeps focus.
            requestAnimationFrame(() => {
              if (!document.querySelector('[role="dialog"]')) gridRef.current?.focus({ preventScroll: true });
            });
          }}
        />
      )}
    </div>
  );
}
