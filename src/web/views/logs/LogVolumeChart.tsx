// Lines per level over time above a log list (issue 35): stacked bars drawn by uPlot (see
// PopulationChart), coloured by level. Dragging across bars, or choosing them by keyboard on the
// focused chart (arrows, Shift+arrows, Enter), sets the list's time range; the chart then shows
// that range, so a reader narrows in steps.

import { useContext, useEffect, useId, useMemo, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { CHART_KEYS, type ChartKeyId } from '../../../../commands/chartKeys.ts';
import { Registry } from '../../../../commands/registry.ts';
import type { LogLevel } from '../../../domain/enums.ts';
import { type LogVolume, VOLUME_RANGES, type VolumeRange } from '../../../domain/logVolume.ts';
import { CommandRuntimeContext } from '../../app/runtime.ts';
import { RangeButtons, themeColour, themedAxes, usePlot } from '../../ui/charts.tsx';
import { keyNames } from '../../ui/keyNames.ts';
import type { LogCriteria, LogScope } from './logQuery.ts';
import { barAt, barsRange, selectionSummary, useLogVolume, volumeSummary } from './logVolume.ts';

const HEIGHT = 90;

/** The chart's keys where no console runtime is around (a bench page). */
const STANDALONE_KEYS = new Registry().reserve(...CHART_KEYS);

const LEVEL_COLOURS: Record<LogLevel, string> = {
  Debug: '--fg-muted',
  Informational: '--accent',
  Notice: '--success',
  Warning: '--warning',
  Error: '--danger',
  Critical: '--danger',
  Alert: '--danger',
  Emergency: '--danger',
};

/**
 * Each level's bar stands on the levels below it: series k draws the sum of levels 0…k in level
 * k's colour, the tallest first, so each shorter one covers the part below its own level.
 */
function stacked(v: LogVolume): uPlot.AlignedData {
  const steps = v.levels[0]?.counts.length ?? Math.ceil((v.until - v.since) / v.step);
  const x = Array.from({ length: steps }, (_, i) => v.since + i * v.step);
  const sums: number[][] = [];
  for (const [k, { counts }] of v.levels.entries())
    sums.push(counts.map((n, i) => n + (k > 0 ? sums[k - 1][i] : 0)));
  return [x, ...sums.reverse()];
}

function draw(
  el: HTMLElement,
  width: number,
  v: LogVolume,
  onBrush: (from: number, to: number) => void,
): uPlot {
  const bars = uPlot.paths.bars?.({ size: [1, 40], align: 1, gap: 1 });
  return new uPlot(
    {
      width,
      height: HEIGHT,
      legend: { show: false },
      cursor: { drag: { x: true, y: false, setScale: false }, points: { show: false } },
      scales: {
        x: { time: true, range: [v.since, v.until] },
        y: { range: (_u, _min, max) => [0, Math.max(1, max)] },
      },
      axes: themedAxes(44),
      series: [
        {},
        ...[...v.levels].reverse().map(({ level }) => ({
          label: level,
          fill: themeColour(LEVEL_COLOURS[level]),
          stroke: themeColour(LEVEL_COLOURS[level]),
          width: 0,
          paths: bars,
          points: { show: false },
        })),
      ],
      hooks: {
        setSelect: [
          (u) => {
            if (u.select.width < 2) return;
            const a = barAt(v, u.posToVal(u.select.left, 'x'));
            const b = barAt(v, u.posToVal(u.select.left + u.select.width - 1, 'x'));
            u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
            const r = barsRange(v, a, b);
            onBrush(r.from, r.to);
          },
        ],
      },
    },
    stacked(v),
    el,
  );
}

export interface LogVolumeChartProps {
  scope: LogScope;
  criteria: LogCriteria;
  /** Sets the list's time range; nulls clear it. */
  onRange(from: number | null, to: number | null): void;
}

export function LogVolumeChart({ scope, criteria, onRange }: LogVolumeChartProps) {
  const runtime = useContext(CommandRuntimeContext);
  const summaryId = useId();
  const [range, setRange] = useState<VolumeRange>('24h');
  const q = useLogVolume(scope, criteria, range);
  const box = useRef<HTMLDivElement>(null);
  // Bars chosen by keyboard: where Shift+arrows started, and where the cursor is, in the span they
  // were chosen in (a new span starts with none).
  const [choice, setChosen] = useState<{ span: string; anchor: number; head: number } | null>(null);
  const brush = useRef(onRange);
  brush.current = onRange;
  const v = q.data;
  const span = v ? `${v.since}:${v.until}:${v.step}` : '';
  const chosen = choice?.span === span ? choice : null;

  const plot = usePlot(
    box,
    HEIGHT,
    useMemo(
      () =>
        v
          ? (el: HTMLElement, width: number) => draw(el, width, v, (from, to) => brush.current(from, to))
          : null,
      [v],
    ),
  );

  // The bars chosen by keyboard, shown as uPlot shows a dragged selection. The plot is drawn anew
  // with the data, by usePlot's effect, which runs before this one.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the ref holds the plot of these data by now.
  useEffect(() => {
    const p = plot.current;
    if (!p || !v) return;
    if (!chosen) return p.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
    const r = barsRange(v, chosen.anchor, chosen.head);
    const left = p.valToPos(r.from, 'x');
    p.setSelect(
      { left, top: 0, width: p.valToPos(r.to, 'x') - left, height: p.bbox.height / devicePixelRatio },
      false,
    );
  }, [chosen, v]);

  const bars = v ? Math.ceil((v.until - v.since) / v.step) : 0;
  const keys: Record<ChartKeyId, () => boolean> = {
    // With no bar chosen yet, the arrows start from the newest bar, where a reader looks first.
    'chart.previous': () => moveTo((h) => (h ?? bars) - 1, false),
    'chart.next': () => moveTo((h) => (h ?? bars - 2) + 1, false),
    'chart.first': () => moveTo(() => 0, false),
    'chart.last': () => moveTo(() => bars - 1, false),
    'chart.extendPrevious': () => moveTo((h) => (h ?? bars) - 1, true),
    'chart.extendNext': () => moveTo((h) => (h ?? bars - 2) + 1, true),
    'chart.apply': () => {
      if (!v || !chosen) return false;
      const r = barsRange(v, chosen.anchor, chosen.head);
      onRange(r.from, r.to);
      return true;
    },
    'chart.clear': () => {
      if (!chosen) return false;
      setChosen(null);
      return true;
    },
  };
  /** Moves the chosen bar (from the one chosen, if any); with `extend`, the range's other end stays. */
  function moveTo(next: (head: number | null) => number, extend: boolean): boolean {
    if (!bars) return false;
    const head = Math.max(0, Math.min(bars - 1, next(chosen?.head ?? null)));
    setChosen({ span, anchor: extend && chosen ? chosen.anchor : head, head });
    return true;
  }

  const filtered = criteria.from !== null || criteria.to !== null;
  const summary = q.error
    ? (q.error as Error).message
    : v
      ? volumeSummary(v, filtered ? null : range)
      : 'Loading…';
  return (
    <figure className="log-volume" aria-label="Log lines over time">
      <div className="log-volume-head">
        <figcaption id={summaryId} className="log-volume-summary">
          {summary}
        </figcaption>
        {filtered ? (
          <button type="button" className="ui-button ui-button-small" onClick={() => onRange(null, null)}>
            Whole range
          </button>
        ) : (
          <RangeButtons label="Log volume range" ranges={VOLUME_RANGES} value={range} onChange={setRange} />
        )}
      </div>
      {/* biome-ignore lint/a11y/useSemanticElements: a chart, which no element is; a fieldset holds fields. */}
      <div
        ref={box}
        className="log-volume-plot"
        role="group"
        aria-roledescription="chart"
        aria-label="Log lines by level: arrows choose bars, Shift+arrows widen, Enter filters the list to them."
        aria-describedby={summaryId}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: focused to take arrow keys, as a list does.
        tabIndex={0}
        onKeyDown={(e) => {
          const binding = (runtime?.registry ?? STANDALONE_KEYS).binding('chart', keyNames(e.nativeEvent));
          if (binding?.reserved && keys[binding.reserved.id as ChartKeyId]()) {
            e.preventDefault();
            e.stopPropagation();
          }
        }}
      />
      <p className="log-volume-chosen" aria-live="polite">
        {v && chosen ? selectionSummary(v, chosen.anchor, chosen.head) : ''}
      </p>
    </figure>
  );
}
