// A page's first chart costs more than the charts after it: uPlot's code is compiled on its first
// call, the page makes its first canvas layer and the chart's sentence the page's first time and
// number formats. The console pays that in an idle moment after its shell has painted (Shell.tsx),
// so the first server or log page a user opens draws its chart as the ones after it (bench/charts).

import uPlot from 'uplot';
import { formatCount, formatShortTime } from '../../domain/format.ts';

const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));

/** Draws a small chart out of sight, with the console's kinds of path, through two painted frames. */
export async function warmCharts(): Promise<void> {
  formatShortTime(0);
  formatCount(0);
  const box = document.createElement('div');
  box.setAttribute('aria-hidden', 'true');
  box.style.cssText = 'position:fixed;top:0;left:-10000px;pointer-events:none';
  document.body.append(box);
  const plot = new uPlot(
    {
      width: 300,
      height: 100,
      legend: { show: false },
      series: [
        {},
        { stroke: '#888', fill: '#ccc', paths: uPlot.paths.bars?.({ size: [1, 40], align: 1, gap: 1 }) },
        { stroke: '#888', fill: '#ccc', paths: uPlot.paths.stepped?.({ align: 1 }) },
      ],
    },
    [
      [0, 60, 120],
      [1, 3, 2],
      [2, 1, 3],
    ],
    box,
  );
  try {
    await frame();
    await frame();
  } finally {
    plot.destroy();
    box.remove();
  }
}
