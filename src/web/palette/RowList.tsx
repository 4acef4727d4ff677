// The palette's one list: a cmdk Command.List holding a Command.Item for each VISIBLE row only.
// cmdk alone mounts, registers and scores every item, seconds a keystroke at 100k (BROWSER-PERF
// §1), so the virtualiser chooses the window and scrolls. cmdk gives the listbox, its label and
// its items' registry; each item renders our option element (asChild), whose id, selection and
// availability are ours: an index over all rows, also handed to <Command> as its controlled
// `value` (Palette.tsx).

import { useVirtualizer } from '@tanstack/react-virtual';
import { Command } from 'cmdk';
import { memo, type PointerEvent, type RefObject, useEffect, useId, useLayoutEffect, useRef } from 'react';
import { keyLabels } from './keyLabels.ts';
import type { PaletteRow } from './rows.ts';

/** Fixed row height: the virtualiser never measures, so a row's look cannot shift the list. */
export const ROW_PX = 32;
export const VISIBLE_ROWS = 12;
const VIEWPORT = { width: 640, height: ROW_PX * VISIBLE_ROWS };

/**
 * cmdk's value of the item at `index`: its place, not its row, so an item keeps its value while
 * typing changes the rows it shows, and cmdk re-registers nothing on a keystroke.
 */
const itemValue = (index: number) => String(index);

/** The controlled `value` of <Command>: the active row's item, or none. */
export const selectedValue = (rows: readonly unknown[], active: number) =>
  active < rows.length ? itemValue(active) : '';

/** The DOM id of the option at `index`, for aria-activedescendant. */
const optionId = (listId: string, index: number) => `${listId}-${index}`;

/**
 * cmdk's settings wherever the list renders: our filter, our keys (the input's handler prevents
 * cmdk's), and no selection by pointer, which would set cmdk's own value and query the DOM for
 * the selected item on every move; the list highlights the row under the pointer itself.
 */
export const COMMAND_PROPS = {
  shouldFilter: false,
  // cmdk still scores each item it registers, with its own filter unless given one; nothing reads
  // the score when it does not filter.
  filter: () => 1,
  loop: false,
  vimBindings: false,
  disablePointerSelection: true,
} as const;

interface RowListProps {
  rows: readonly PaletteRow[];
  active: number;
  /** Bumped when the keyboard moved the selection, so the list scrolls it into view. */
  scrollTick: number;
  label: string;
  /** The combobox that points at the active option (aria-activedescendant). */
  input?: RefObject<HTMLInputElement | null>;
  onChoose(index: number): void;
  onHover(index: number): void;
}

/** The index of the row an event happened in, from its item's `data-index`. */
function rowIndex(e: { target: EventTarget }): number | undefined {
  const item = (e.target as Element).closest<HTMLElement>('[cmdk-item]');
  return item ? Number(item.dataset.index) : undefined;
}

export function RowList({ rows, active, scrollTick, label, input, onChoose, onHover }: RowListProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const listId = useId();
  const virtual = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_PX,
    // Every mounted row is rendered again on each keystroke: two beyond the window serve an
    // arrow key's step, and the first keys cost about 1 ms less than with eight.
    overscan: 2,
    initialRect: VIEWPORT,
    // The viewport is a fixed CSS height; reporting it directly also works where layout does not (jsdom).
    observeElementRect: (_instance, cb) => cb(VIEWPORT),
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: scrollTick is the trigger, not read
  useEffect(() => {
    if (active >= 0 && active < rows.length) virtual.scrollToIndex(active, { align: 'auto' });
  }, [scrollTick]);

  // cmdk updates its aria-activedescendant only when it changes the selection itself.
  useLayoutEffect(() => {
    const mounted = virtual.getVirtualItems().some((v) => v.index === active);
    const id = mounted ? optionId(listId, active) : null;
    for (const el of [input?.current, scroller.current]) {
      if (!el || el.getAttribute('aria-activedescendant') === id) continue;
      if (id) el.setAttribute('aria-activedescendant', id);
      else el.removeAttribute('aria-activedescendant');
    }
  });

  const onPointerMove = (e: PointerEvent) => {
    const i = rowIndex(e);
    if (i !== undefined && i !== active) onHover(i);
  };

  const total = virtual.getTotalSize();
  return (
    <Command.List
      ref={scroller}
      label={label}
      className="palette-list"
      // An explicit height lets the list be size-contained (CSS), so typing never lays out the page.
      style={{ height: Math.min(total, VIEWPORT.height) }}
      // Clicking a row must not take focus from the input, where typing continues.
      onMouseDown={(e) => e.preventDefault()}
      onPointerMove={onPointerMove}
      // Disabled rows too: choosing one says why it cannot run.
      onClick={(e) => {
        const i = rowIndex(e);
        if (i !== undefined) onChoose(i);
      }}
    >
      {rows.length > 0 && (
        <div className="palette-window" style={{ height: total }}>
          {virtual.getVirtualItems().map((v) => (
            <Row
              key={v.index}
              id={optionId(listId, v.index)}
              row={rows[v.index]}
              index={v.index}
              top={v.start}
              selected={v.index === active}
            />
          ))}
        </div>
      )}
    </Command.List>
  );
}

interface RowProps {
  id: string;
  row: PaletteRow;
  index: number;
  top: number;
  selected: boolean;
}

const Row = memo(function Row({ id, row, index, top, selected }: RowProps) {
  const disabled = row.type === 'command' && row.avail !== true;
  return (
    <Command.Item asChild value={itemValue(index)} disabled={disabled}>
      {/* The child's attributes win over cmdk's: its own selection picks the first enabled row
          after each search, where ours keeps a disabled first row so that Enter says why. */}
      <div
        id={id}
        role="option"
        tabIndex={-1}
        aria-selected={selected}
        aria-disabled={disabled || undefined}
        data-index={index}
        className="palette-row"
        style={{ height: ROW_PX, transform: `translateY(${top}px)` }}
      >
        <RowContent row={row} />
      </div>
    </Command.Item>
  );
});

/** What a row shows, in the same four places for every kind of row. */
interface RowView {
  title: string;
  /** Beside the title: a disabled command's reason or an entity's detail. */
  note: string;
  noteClass: 'palette-reason' | 'palette-detail';
  /** At the right: a command's group or an entity's kind. */
  tag: string;
  tagClass: 'palette-group' | 'palette-kind';
  keys: readonly string[];
}

const NO_KEYS: readonly string[] = [];

function rowView(row: PaletteRow): RowView {
  if (row.type === 'command') {
    const key = row.cmd.keys?.[0];
    return {
      title: row.cmd.title,
      note: row.avail === true ? '' : row.avail,
      noteClass: 'palette-reason',
      tag: row.cmd.group,
      tagClass: 'palette-group',
      keys: key ? keyLabels(key) : NO_KEYS,
    };
  }
  // An entity, or a suggestion: for an entity too when it has one, else its text alone.
  const ref = row.ref;
  return {
    title: ref ? ref.label : row.type === 'suggestion' ? row.text : '',
    note: ref?.detail ?? '',
    noteClass: 'palette-detail',
    tag: ref?.kind ?? '',
    tagClass: 'palette-kind',
    keys: NO_KEYS,
  };
}

/**
 * One element structure for every row: while typing moves rows from commands to entities, React
 * then rewrites text and classes instead of removing and creating elements (about 1 ms of the
 * keystroke that does it at 100k entities, bench/palette/profile.mjs). Empty parts are hidden by CSS.
 */
function RowContent({ row }: { row: PaletteRow }) {
  const v = rowView(row);
  return (
    <>
      <span className="palette-title">{v.title}</span>
      <span className={v.noteClass}>{v.note}</span>
      <span className={v.tagClass}>{v.tag}</span>
      <span className="palette-keys">
        {v.keys.map((chord) => (
          <kbd key={chord}>{chord}</kbd>
        ))}
      </span>
    </>
  );
}
