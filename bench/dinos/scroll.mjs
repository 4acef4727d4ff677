// The dino list scrolling a million dinos (issue 13 "Scale": "the list scrolls the whole set with no
// long task"): bench/dinos/scroll.tsx in Chromium, the console's VirtualList asking a fake server
// for the window in view. Frame times while following the top, scrolling and jumping; long tasks.
import os from 'node:os';
import { percentile, round } from '../lib/stats.mjs';
import { cpuMeter, startPages } from '../logs/pages.mjs';

export const SCROLL_TARGETS = { longTasks: 0, frameP95Ms: 16.7 };

async function oneRun(pages, n, ms) {
  const { page, close } = await pages.open(`dinos/index.html?n=${n}&ms=${ms}`);
  try {
    await page.waitForFunction(() => window.__dinoBench?.ready === true, null, { timeout: 120_000 });
    await page.waitForTimeout(500);
    const cpu = await cpuMeter(page);
    const load = os.loadavg()[0];
    const figures = await page.evaluate(() => window.__dinoBench.run());
    return { ...figures, ...(await cpu.read()), load };
  } finally {
    await close();
  }
}

export async function scrollBench({ rows, quick, log }) {
  const ms = quick ? 6_000 : 15_000;
  const pages = await startPages({ dinos: 'dinos/index.html' });
  try {
    const runs = [];
    for (let i = 0; i < (quick ? 1 : 3); i++) runs.push(await oneRun(pages, rows, ms));
    const moving = runs.flatMap((r) => [...r.frames.scroll, ...r.frames.jump]);
    const long = runs.flatMap((r) => r.longTasks);
    const out = {
      rows,
      runs: runs.length,
      durationMs: ms,
      frameP95Scroll: round(
        percentile(
          runs.flatMap((r) => r.frames.scroll),
          0.95,
        ),
      ),
      frameP95Jump: round(
        percentile(
          runs.flatMap((r) => r.frames.jump),
          0.95,
        ),
      ),
      frameP95ScrollJump: round(percentile(moving, 0.95)),
      frameMax: round(Math.max(...moving)),
      longTasksPerRun: round(long.length / runs.length),
      longTaskMaxMs: round(Math.max(0, ...long)),
      heapAfterGcMB: round(Math.max(...runs.map((r) => r.heapAfterGcMB ?? 0))),
      pendingRowsAfter: Math.max(...runs.map((r) => r.pendingRowsAfter)),
      pageRequests: Math.max(...runs.map((r) => r.extra.requests)),
      mainThreadCpuMs: round(Math.max(...runs.map((r) => r.cpuMs))),
      loadAverage: runs.map((r) => round(r.load, 2)),
      chromium: pages.version(),
    };
    log(
      `  dinos scroll ${rows.toLocaleString('en')}: frame p95 ${out.frameP95ScrollJump} ms, long tasks ${out.longTasksPerRun}/run (max ${out.longTaskMaxMs} ms)`,
    );
    return out;
  } finally {
    await pages.close();
  }
}
