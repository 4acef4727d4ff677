// Log view bench (issue 4): the real LogView over 1,000,000 server-side lines reached by paging
// (a deterministic generator behind the API's shape, bench/logs/fakeServer.ts) while 2,000 lines
// a second arrive for 30 s; against BROWSER-PERF §2's naive list of every line in memory with an
// append per frame, measured in the same run.

import os from 'node:os';
import { median, percentile, ratio, round } from '../lib/stats.mjs';
import { cpuMeter, startPages } from './pages.mjs';

export const needsBrowser = false;
export const TARGETS = { longTasks: 0, frameP95Ms: 16.7, heapMB: 150 };
const N = 1_000_000;

async function oneRun(pages, variant, ms) {
  const { page, close } = await pages.open(`logs/index.html?variant=${variant}&n=${N}&ms=${ms}`);
  try {
    await page.waitForFunction(() => window.__logBench?.ready === true, null, { timeout: 120_000 });
    await page.waitForTimeout(500);
    const cpu = await cpuMeter(page);
    const load = os.loadavg()[0];
    const figures = await page.evaluate(() => window.__logBench.run());
    return { ...figures, ...(await cpu.read()), load, durationMs: ms };
  } finally {
    await close();
  }
}

const PHASES = ['follow', 'scroll', 'jump'];

/** Long tasks per run in each third of it: following the top, scrolling, jumping. */
function byPhase(runs) {
  const out = Object.fromEntries(PHASES.map((p) => [p, 0]));
  for (const r of runs)
    for (const at of r.longTaskAt) out[PHASES[Math.min(2, Math.floor((at * 3) / r.durationMs))]]++;
  return Object.fromEntries(PHASES.map((p) => [p, round(out[p] / runs.length)]));
}

function summarise(runs) {
  const moving = runs.flatMap((r) => [...r.frames.scroll, ...r.frames.jump]);
  const follow = runs.flatMap((r) => r.frames.follow);
  const all = runs.flatMap((r) => [...r.frames.follow, ...r.frames.scroll, ...r.frames.jump]);
  const long = runs.flatMap((r) => r.longTasks);
  const secs = all.reduce((a, b) => a + b, 0) / 1000;
  return {
    runs: runs.length,
    linesSent: runs[0].linesSent,
    frameP95ScrollJump: round(percentile(moving, 0.95)),
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
    frameP95Follow: round(percentile(follow, 0.95)),
    frameMax: round(Math.max(...all)),
    fps: round(all.length / secs),
    longTasksPerRun: round(long.length / runs.length),
    longTaskMaxMs: round(Math.max(0, ...long)),
    heapMB: round(Math.max(...runs.map((r) => r.heapMB ?? 0))),
    heapAfterGcMB: round(Math.max(...runs.map((r) => r.heapAfterGcMB ?? 0))),
    pendingRowsAfter: Math.max(...runs.map((r) => r.pendingRowsAfter)),
    longTasksByPhase: byPhase(runs),
    // Main-thread time over the run (and its 1 s settling), as a share of the run's wall clock.
    mainThreadCpuMs: round(median(runs.map((r) => r.cpuMs))),
    mainThreadScriptMs: round(median(runs.map((r) => r.scriptMs))),
    mainThreadStyleLayoutMs: round(median(runs.map((r) => r.styleLayoutMs))),
    mainThreadBusy: round(median(runs.map((r) => r.cpuMs / (r.durationMs + 1000))), 2),
    loadAverage: runs.map((r) => round(r.load, 2)),
    ...runs[0].extra,
  };
}

export async function run({ quick = false, log = console.log }) {
  const ms = quick ? 9_000 : 30_000;
  const pages = await startPages({ logs: 'logs/index.html' });
  try {
    const out = {
      rows: N,
      ratePerSecond: 2000,
      durationMs: ms,
      source: 'in-page generator behind the API shape',
    };
    for (const [variant, count] of [
      ['ours', quick ? 1 : 2],
      ['naive', 1],
    ]) {
      const runs = [];
      for (let i = 0; i < count; i++) runs.push(await oneRun(pages, variant, ms));
      out[variant] = summarise(runs);
      const s = out[variant];
      log(
        `  logs ${variant}: frame p95 ${s.frameP95ScrollJump} ms, long tasks ${s.longTasksPerRun}/run (max ${s.longTaskMaxMs} ms), heap ${s.heapAfterGcMB} MB`,
      );
    }
    out.ratios = {
      heap: ratio(out.naive.heapAfterGcMB, out.ours.heapAfterGcMB),
      frameP95: ratio(out.naive.frameP95ScrollJump, out.ours.frameP95ScrollJump),
      longTaskMax: out.ours.longTaskMaxMs ? ratio(out.naive.longTaskMaxMs, out.ours.longTaskMaxMs) : null,
    };
    out.targets = {
      ...TARGETS,
      met: {
        noLongTask: out.ours.longTaskMaxMs === 0,
        frameP95: out.ours.frameP95ScrollJump <= TARGETS.frameP95Ms,
        heap: out.ours.heapAfterGcMB < TARGETS.heapMB,
      },
    };
    out.chromium = pages.version();
    return out;
  } finally {
    await pages.close();
  }
}

export function table(r) {
  return ['ours', 'naive'].map((v) => ({
    bench: `logs ${v}`,
    N: r.rows.toLocaleString('en'),
    runs: r[v].runs,
    'frame p95 scroll+jump / follow': `${r[v].frameP95ScrollJump} / ${r[v].frameP95Follow}`,
    'long tasks (per run / max)': `${r[v].longTasksPerRun} / ${r[v].longTaskMaxMs} ms`,
    'heap after gc': `${r[v].heapAfterGcMB} MB`,
    ratio: v === 'ours' ? `heap ${r.ratios.heap}×, p95 ${r.ratios.frameP95}×` : '',
  }));
}
