// Console pane bench (issue 4): the real pane printing a 10,000-row result (formatted and written
// a slice of rows at a time, in 4 KiB chunks) against BROWSER-PERF §3's baseline, a bare xterm of the
// same size given the same lines in one write, in the same page of each run.
import os from 'node:os';
import { median, percentile, ratio, round } from '../lib/stats.mjs';
import { cpuMeter, startPages } from '../logs/pages.mjs';

export const needsBrowser = false;
export const TARGETS = { longTasks: 0, paintedMs: 150 };
const ROWS = 10_000;

async function measure(page, action) {
  const cpu = await cpuMeter(page);
  const sample = await action();
  return { ...sample, ...(await cpu.read()) };
}

async function oneRun(pages) {
  const { page, close } = await pages.open('terminal/index.html');
  try {
    await page.waitForFunction(() => window.__termBench?.ready === true, null, { timeout: 60_000 });
    await page.keyboard.type('survivors');
    await page.waitForTimeout(300);
    const load = os.loadavg()[0];
    const ours = await measure(page, async () => {
      await page.evaluate(() => window.__termBench.arm());
      await page.keyboard.press('Enter');
      return page.evaluate(() => window.__termBench.result());
    });
    await page.waitForTimeout(500);
    const baseline = await measure(page, () => page.evaluate(() => window.__termBench.baseline()));
    return { ours, baseline, load };
  } finally {
    await close();
  }
}

function summarise(samples) {
  const ms = samples.map((s) => s.ms);
  const long = samples.flatMap((s) => s.longTasks);
  return {
    paintedMedianMs: round(median(ms)),
    paintedP95Ms: round(percentile(ms, 0.95)),
    ...(samples[0].parsedMs !== undefined
      ? {
          parsedMedianMs: round(median(samples.map((s) => s.parsedMs))),
          formatTableMedianMs: round(median(samples.map((s) => s.formatMs))),
        }
      : {}),
    longTasksPerRun: round(long.length / samples.length),
    longTaskMaxMs: round(Math.max(0, ...long)),
    mainThreadCpuMedianMs: round(median(samples.map((s) => s.cpuMs))),
    mainThreadScriptMedianMs: round(median(samples.map((s) => s.scriptMs))),
  };
}

export async function run({ quick = false, log = console.log }) {
  const count = quick ? 3 : 7;
  const pages = await startPages({ terminal: 'terminal/index.html' });
  try {
    const runs = [];
    for (let i = 0; i < count; i++) runs.push(await oneRun(pages));
    const ours = summarise(runs.map((r) => r.ours));
    const baseline = summarise(runs.map((r) => r.baseline));
    log(
      `  terminal: painted ${ours.paintedMedianMs} ms (baseline ${baseline.paintedMedianMs}), long tasks ${ours.longTasksPerRun}/run (baseline ${baseline.longTasksPerRun}, max ${baseline.longTaskMaxMs} ms)`,
    );
    return {
      rows: ROWS,
      runs: count,
      ours,
      baseline,
      ratios: {
        painted: ratio(baseline.paintedMedianMs, ours.paintedMedianMs),
        cpu: ratio(baseline.mainThreadCpuMedianMs, ours.mainThreadCpuMedianMs),
      },
      loadAverage: runs.map((r) => round(r.load, 2)),
      targets: {
        ...TARGETS,
        met: { noLongTask: ours.longTaskMaxMs === 0, painted: ours.paintedP95Ms <= TARGETS.paintedMs },
      },
      chromium: pages.version(),
    };
  } finally {
    await pages.close();
  }
}

export function table(r) {
  return ['ours', 'baseline'].map((v) => ({
    bench: v === 'ours' ? 'terminal 10k rows, chunked' : 'terminal 10k rows, one write',
    N: r.rows.toLocaleString('en'),
    runs: r.runs,
    'painted median / p95': `${r[v].paintedMedianMs} / ${r[v].paintedP95Ms} ms`,
    'long tasks (per run / max)': `${r[v].longTasksPerRun} / ${r[v].longTaskMaxMs} ms`,
    'main-thread CPU': `${r[v].mainThreadCpuMedianMs} ms`,
    ratio: v === 'ours' ? `painted ${r.ratios.painted}×, cpu ${r.ratios.cpu}×` : '',
  }));
}
