// Console pane bench (issues 4 and 10): the real pane printing a 10,000-row result (formatted while
// it is written, in writes sized by xterm's parse rate) against BROWSER-PERF §3's baseline, a bare
// xterm of the same size given the same lines in one write, in the same page of each run.
// Each page prints the result first cold (its first print: xterm's parser not yet compiled by the
// JIT), then the baseline, then the result again after Ctrl+L: the baseline and that second print
// both run warm, so they are the pair compared.
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
  const print = () =>
    measure(page, async () => {
      await page.keyboard.type('survivors');
      await page.waitForTimeout(300);
      await page.evaluate(() => window.__termBench.arm());
      await page.keyboard.press('Enter');
      return page.evaluate(() => window.__termBench.result());
    });
  try {
    await page.waitForFunction(() => window.__termBench?.ready === true, null, { timeout: 60_000 });
    const load = os.loadavg()[0];
    const first = await print();
    await page.waitForTimeout(500);
    const baseline = await measure(page, () => page.evaluate(() => window.__termBench.baseline()));
    await page.waitForTimeout(500);
    // Ctrl+L clears screen and scrollback: the second print fills an empty console as the first did.
    await page.keyboard.press('Control+l');
    const ours = await print();
    return { first, ours, baseline, load };
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
    const first = summarise(runs.map((r) => r.first));
    const baseline = summarise(runs.map((r) => r.baseline));
    const met = (v) => ({ noLongTask: v.longTaskMaxMs === 0, painted: v.paintedP95Ms <= TARGETS.paintedMs });
    log(
      `  terminal: painted ${ours.paintedMedianMs} / p95 ${ours.paintedP95Ms} ms (first print ${first.paintedMedianMs}, one write ${baseline.paintedMedianMs} / p95 ${baseline.paintedP95Ms}), longest task ${ours.longTaskMaxMs} ms (first print ${first.longTaskMaxMs}, one write ${baseline.longTaskMaxMs})`,
    );
    return {
      rows: ROWS,
      runs: count,
      ours,
      first,
      baseline,
      // Ours over the one write: below 1 is faster.
      ratios: {
        painted: ratio(ours.paintedMedianMs, baseline.paintedMedianMs),
        paintedP95: ratio(ours.paintedP95Ms, baseline.paintedP95Ms),
        cpu: ratio(ours.mainThreadCpuMedianMs, baseline.mainThreadCpuMedianMs),
        longTaskMax: ratio(ours.longTaskMaxMs, baseline.longTaskMaxMs),
      },
      loadAverage: runs.map((r) => round(r.load, 2)),
      targets: { ...TARGETS, met: met(ours), metOnFirstPrint: met(first) },
      chromium: pages.version(),
    };
  } finally {
    await pages.close();
  }
}

const LABELS = {
  ours: 'terminal 10k rows, the pane',
  first: 'terminal 10k rows, the pane, first print',
  baseline: 'terminal 10k rows, one write',
};

export function table(r) {
  return ['ours', 'first', 'baseline'].map((v) => ({
    bench: LABELS[v],
    N: r.rows.toLocaleString('en'),
    runs: r.runs,
    'painted median / p95': `${r[v].paintedMedianMs} / ${r[v].paintedP95Ms} ms`,
    'long tasks (per run / max)': `${r[v].longTasksPerRun} / ${r[v].longTaskMaxMs} ms`,
    'main-thread CPU': `${r[v].mainThreadCpuMedianMs} ms`,
    ratio:
      v === 'ours'
        ? `÷ one write: painted ${r.ratios.painted}× (p95 ${r.ratios.paintedP95}×), cpu ${r.ratios.cpu}×`
        : '',
  }));
}
