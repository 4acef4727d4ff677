// Players on a server over time (issue 35): hours to 90 days, drawn by uPlot, a canvas chart
// made for time series (a few tens of kB, thousands of points in a few milliseconds), with the
// range chosen by keyboard and a sentence saying what the line shows.

import { useMemo, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { POPULATION_RANGES, type Population, type PopulationRange } from '../../../domain/population.ts';
import { RangeButtons, themeColour, themedAxes, usePlot } from '../../ui/charts.tsx';
import { populationSummary, usePopulation } from './population.ts';

const HEIGHT = 110;

function draw(el: HTMLElement, width: number, p: Population): uPlot {
  const data: uPlot.AlignedData = [p.points.map((x) => x.time), p.points.map((x) => x.players)];
  return new uPlot(
    {
      width,
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
  const box = useRef<HTMLDivElement>(null);
  const data = q.data;
  usePlot(
    box,
    HEIGHT,
    useMemo(() => (data ? (el: HTMLElement, width: number) => draw(el, width, data) : null), [data]),
  );

  return (
    <figure className="population" aria-label={`Players on ${name}`}>
      <RangeButtons label="Population range" ranges={POPULATION_RANGES} value={range} onChange={setRange} />
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
