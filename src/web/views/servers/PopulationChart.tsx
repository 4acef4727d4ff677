// Players on a server over time (issue 35): hours to 90 days, drawn by uPlot, a canvas chart
// made for time series (a few tens of kB, thousands of points in a few milliseconds), with the
// range chosen by keyboard and a sentence saying what the line shows.

import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { POPULATION_RANGES, type Population, type PopulationRange } from '../../../domain/population.ts';
import { themeColour, themedAxes, useTheme } from '../../ui/charts.ts';
import { populationSummary, usePopulation } from './population.ts';

const HEIGHT = 110;

function draw(el: HTMLElement, p: Population): uPlot {
  const data: uPlot.AlignedData = [p.points.map((x) => x.time), p.points.map((x) => x.players)];
  return new uPlot(
    {
      width: Math.max(el.clientWidth, 200),
      height: HEIGHT,
      legend: { show: false },
      cursor: { drag: { x: false, y: false } },
      scales: { y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
      axes: themedAxes(),
      series: [
        {},
        {
          label: 'Players',
          stroke: themeColour('--accent'),
          fill: themeColour('--accent-soft'),
          width: 1.5,
          paths: uPlot.paths.stepped?.({ align: 1 }),
        },
      ],
    },
    data,
    el,
  );
}

export function PopulationChart({ serviceId, name }: { serviceId: string; name: string }) {
  const [range, setRange] = useState<PopulationRange>('24h');
  const q = usePopulation(serviceId, range);
  const theme = useTheme();
  const box = useRef<HTMLDivElement>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: drawn again in the new theme's colours.
  useEffect(() => {
    const el = box.current;
    if (!el || !q.data) return;
    const plot = draw(el, q.data);
    const resize = new ResizeObserver(() =>
      plot.setSize({ width: Math.max(el.clientWidth, 200), height: HEIGHT }),
    );
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [q.data, theme]);

  return (
    <figure className="population" aria-label={`Players on ${name}`}>
      <fieldset className="chart-ranges">
        <legend className="visually-hidden">Population range</legend>
        {POPULATION_RANGES.map((r) => (
          <button
            key={r.id}
            type="button"
            className="ui-button ui-button-small"
            aria-pressed={range === r.id}
            onClick={() => setRange(r.id)}
          >
            {r.id}
          </button>
        ))}
      </fieldset>
      <div
        ref={box}
        className="population-plot"
        role="img"
        aria-label={q.data ? populationSummary(q.data, range) : 'Loading'}
      />
      <figcaption className="population-summary">
        {q.error ? (q.error as Error).message : q.data ? populationSummary(q.data, range) : 'Loading…'}
      </figcaption>
    </figure>
  );
}

/** The last day as a line a row tall, for the server list. */
export function PopulationSparkline({ serviceId }: { serviceId: string }) {
  const q = usePopulation(serviceId, '24h');
  if (!q.data) return null;
  const players = q.data.points.map((x) => x.players);
  const most = Math.max(1, ...players);
  const w = 80;
  const h = 16;
  const points = players
    .map(
      (n, i) =>
        `${((i / Math.max(1, players.length - 1)) * w).toFixed(1)},${(h - (n / most) * (h - 2) - 1).toFixed(1)}`,
    )
    .join(' ');
  return (
    <svg
      className="sparkline"
      width={w}
      height={h}
      viewBox={`0 0 ${w} ${h}`}
      role="img"
      aria-label={populationSummary(q.data, '24h')}
    >
      <polyline points={points} fill="none" stroke="currentColor" strokeWidth="1.2" />
    </svg>
  );
}
