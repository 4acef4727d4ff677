// The palette's one virtualised list. cmdk keeps every item mounted, which is fine for a few
// hundred commands but not for 100k entities (BROWSER-PERF §1), so only the visible window is
// mounted as Command.Item; selection is ours (an index over all rows), cmdk only shows it.

import { useVirtualizer } from '@tanstack/react-virtual';
import { Command } from 'cmdk';
import { memo, useEffect, useRef } from 'react';
import { keyLabels } from './keyLabels.ts';
import type { PaletteRow } from './rows.ts';

/** Fixed row height: the virtualiser never measures, so a row's look cannot shift the list. */
export const ROW_PX = 32;
export const VISIBLE_ROWS = 12;
const VIEWPORT = { width: 640, height: ROW_PX * VISIBLE_ROWS };

interface RowListProps {
  rows: readonly PaletteRow[];
  active: number;
  /** Bumped when the keyboard moved the selection, so the list scrolls it into view. */
  scrollTick: number;
  label: string;
  onChoose(index: number): void;
}

export function RowList({ rows, active, scrollTick, label, onChoose }: RowListProps) {
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

  return (
    <Command.List
      ref={scroller}
      label={label}
      className="palette-list"
      style={{ maxHeight: VIEWPORT.height }}
    >
      {rows.length > 0 && (
        <div className="palette-window" style={{ height: virtual.getTotalSize() }}>
          {virtual.getVirtualItems().map((v) => (
            <Row
              key={v.index}
              row={rows[v.index]}
              index={v.index}
              top={v.start}
              selected={v.index === active}
              onChoose={onChoose}
            />
          ))}
        </div>
      )}
    </Command.List>
  );
}

interface RowProps {
  row: PaletteRow;
  index: number;
  top: number;
  selected: boolean;
  onChoose(index: number): void;
}

// Hovering selects through cmdk's own pointer handling (Command's onValueChange).
const Row = memo(function Row({ row, index, top, selected, onChoose }: RowProps) {
  const disabled = row.type === 'command' && row.avail !== true;
  return (
    <Command.Item
      value={row.key}
      disabled={disabled}
      className="palette-row"
      data-active={selected || undefined}
      style={{ height: ROW_PX, transform: `translateY(${top}px)` }}
      onSelect={() => onChoose(index)}
    >
      <RowContent row={row} />
    </Command.Item>
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
