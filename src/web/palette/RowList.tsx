// The palette's one virtualised listbox. Only the visible window of rows is mounted (BROWSER-PERF
// §1), and rows are plain options rather than cmdk items: cmdk registered, subscribed and scrolled
// every item on each keystroke, which cost more than our filter (bench/palette/profile.mjs).
// Selection is ours (an index over all rows); focus stays in the input, which points at the active
// option through aria-activedescendant.

import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useRef } from 'react';
import { keyLabels } from './keyLabels.ts';
import type { PaletteRow } from './rows.ts';

/** Fixed row height: the virtualiser never measures, so a row's look cannot shift the list. */
export const ROW_PX = 32;
export const VISIBLE_ROWS = 12;
const VIEWPORT = { width: 640, height: ROW_PX * VISIBLE_ROWS };

/** The DOM id of the option at `index`, for the input's aria-activedescendant. */
export const optionId = (listId: string, index: number) => `${listId}-${index}`;

interface RowListProps {
  id: string;
  rows: readonly PaletteRow[];
  active: number;
  /** Bumped when the keyboard moved the selection, so the list scrolls it into view. */
  scrollTick: number;
  label: string;
  onChoose(index: number): void;
  onHover(index: number): void;
}

export function RowList({ id, rows, active, scrollTick, label, onChoose, onHover }: RowListProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_PX,
    overscan: 8,
    initialRect: VIEWPORT,
    // The viewport is a fixed CSS height; reporting it directly also works where layout does not (jsdom).
    observeElementRect: (_instance, cb) => cb(VIEWPORT),
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: scrollTick is the trigger, not read
  useEffect(() => {
    if (active >= 0 && active < rows.length) virtual.scrollToIndex(active, { align: 'auto' });
  }, [scrollTick]);

  const total = virtual.getTotalSize();
  return (
    <div
      ref={scroller}
      id={id}
      role="listbox"
      aria-label={label}
      className="palette-list"
      // An explicit height lets the list be size-contained (CSS), so typing never lays out the page.
      style={{ height: Math.min(total, VIEWPORT.height) }}
      // Clicking a row must not take focus from the input, where typing continues.
      onMouseDown={(e) => e.preventDefault()}
    >
      {rows.length > 0 && (
        <div className="palette-window" style={{ height: total }}>
          {virtual.getVirtualItems().map((v) => (
            <Row
              key={v.index}
              id={optionId(id, v.index)}
              row={rows[v.index]}
              index={v.index}
              top={v.start}
              selected={v.index === active}
              onChoose={onChoose}
              onHover={onHover}
            />
          ))}
        </div>
      )}
    </div>
  );
}

interface RowProps {
  id: string;
  row: PaletteRow;
  index: number;
  top: number;
  selected: boolean;
  onChoose(index: number): void;
  onHover(index: number): void;
}

const Row = memo(function Row({ id, row, index, top, selected, onChoose, onHover }: RowProps) {
  const disabled = row.type === 'command' && row.avail !== true;
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard reaches options through the input (aria-activedescendant)
    <div
      id={id}
      role="option"
      tabIndex={-1}
      aria-selected={selected}
      aria-disabled={disabled || undefined}
      className="palette-row"
      data-active={selected || undefined}
      style={{ height: ROW_PX, transform: `translateY(${top}px)` }}
      onPointerMove={selected ? undefined : () => onHover(index)}
      onClick={() => onChoose(index)}
    >
      <RowContent row={row} />
    </div>
  );
});

function RowContent({ row }: { row: PaletteRow }) {
  switch (row.type) {
    case 'command':
      return (
        <>
          <span className="palette-title">{row.cmd.title}</span>
          {row.avail !== true && <span className="palette-reason">{row.avail}</span>}
          <span className="palette-group">{row.cmd.group}</span>
          {(row.cmd.keys ?? []).slice(0, 1).map((k) => (
            <span key={k} className="palette-keys">
              {keyLabels(k).map((chord) => (
                <kbd key={chord}>{chord}</kbd>
              ))}
            </span>
          ))}
        </>
      );
    case 'entity':
      return <EntityContent label={row.ref.label} detail={row.ref.detail} kind={row.ref.kind} />;
    case 'suggestion':
      return row.ref ? (
        <EntityContent label={row.ref.label} detail={row.ref.detail} kind={row.ref.kind} />
      ) : (
        <span className="palette-title">{row.text}</span>
      );
  }
}

function EntityContent({ label, detail, kind }: { label: string; detail?: string; kind: string }) {
  return (
    <>
      <span className="palette-title">{label}</span>
      {detail && <span className="palette-detail">{detail}</span>}
      <span className="palette-kind">{kind}</span>
    </>
  );
}
