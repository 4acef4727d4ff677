// Console pane bench (issues 4 and 10): the real pane printing a 10,000-row result (formatted while
// it is written, in writes sized by xterm's parse rate) against BROWSER-PERF §3's baseline, a bare
// xterm of the same size given the same lines in one write, side by side in each run.
// A page's first print runs cold (xterm's parser not yet compiled by the JIT), so each run pairs
// like with like: in one page the pane prints first (cold), then the one write, then the pane again
// after Ctrl+L (both warm); in a second page the one write goes first (cold).
import os from 'node:os';
import { median, percentile, ratio, round } from '../lib/stats.mjs';
import { cpuMeter, startPages } from '../logs/pages.mjs';

export const needsBrowser = false;
export const TARGETS = { longTasks: 0, paintedMs: 150 };
const ROWS = 10_000;
/** ours and first: the pane warm and cold; baseline and baselineFirst: the one write warm and cold. */
const VARIANTS = ['ours', 'first', 'baseline', 'baselineFirst'];

async function measure(page, action) {
  const cpu = await cpuMeter(page);
  const sample = await action();
  return { ...sample, ...(await cpu.read()) };
}

/** Runs `steps` in a fresh page (renderer) once the pane shows its prompt. */
async function inFreshPage(pages, steps) {
  const { page, close } = await pages.open('terminal/index.html');
  try {
    await page.waitForFunction(() => window.__termBench?.ready === true, null, { timeout: 60_000 });
    return await steps(page);
  } finally {
    await close();
  }
}

const oneWrite = (page) => measure(page, () => page.evaluate(() => window.__termBench.baseline()));

async function oneRun(pages) {
  const load = os.loadavg()[0];
  const print = (page) =>
    measure(page, async () => {
      await page.keyboard.type('survivors');
      await page.waitForTimeout(300);
      await page.evaluate(() => window.__termBench.arm());
      await page.keyboard.press('Enter');
      return page.evaluate(() => window.__termBench.result());
    });
  const samples = await inFreshPage(pages, async (page) => {
    const first = await print(page);
    await page.waitForTimeout(500);
    const baseline = await oneWrite(page);
    await page.waitForTimeout(500);
    // Ctrl+L clears screen and scrollback: the second print fills an empty console as the first did.
    await page.keyboard.press('Control+l');
    return { first, baseline, ours: await print(page) };
  });
  const baselineFirst = await inFreshPage(pages, oneWrite);
  return { ...samples, baselineFirst, load };
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
    const [ours, first, baseline, baselineFirst] = VARIANTS.map((v) => summarise(runs.map((r) => r[v])));
    const met = (v) => ({ noLongTask: v.longTaskMaxMs === 0, painted: v.paintedP95Ms <= TARGETS.paintedMs });
    log(
      `  terminal: painted ${ours.paintedMedianMs} / p95 ${ours.paintedP95Ms} ms (one write ${baseline.paintedMedianMs} / p95 ${baseline.paintedP95Ms}), longest task ${ours.longTaskMaxMs} ms (one write ${baseline.longTaskMaxMs}); first prints ${first.paintedMedianMs} ms (one write ${baselineFirst.paintedMedianMs})`,
    );
    // Ours over the one write: below 1 is faster.
    const ratios = (a, b) => ({
      painted: ratio(a.paintedMedianMs, b.paintedMedianMs),
      paintedP95: ratio(a.paintedP95Ms, b.paintedP95Ms),
      cpu: ratio(a.mainThreadCpuMedianMs, b.mainThreadCpuMedianMs),
      longTaskMax: ratio(a.longTaskMaxMs, b.longTaskMaxMs),
    });
    return {
      rows: ROWS,
      runs: count,
      ours,
      first,
      baseline,
      baselineFirst,
      ratios: ratios(ours, baseline),
      firstRatios: ratios(first, baselineFirst),
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
  baseline: 'terminal 10k rows, one write',
  first: 'terminal 10k rows, the pane, first print',
  baselineFirst: 'terminal 10k rows, one write, first print',
};

export function table(r) {
  const ratioText = (q) => `÷ one write: painted ${q.painted}× (p95 ${q.paintedP95}×), cpu ${q.cpu}×`;
  return VARIANTS.map((v) => ({
    bench: LABELS[v],
    N: r.rows.toLocaleString('en'),
    runs: r.runs,
    'painted median / p95': `${r[v].paintedMedianMs} / ${r[v].paintedP95Ms} ms`,
    'long tasks (per run / max)': `${r[v].longTasksPerRun} / ${r[v].longTaskMaxMs} ms`,
    'main-thread CPU': `${r[v].mainThreadCpuMedianMs} ms`,
    ratio: v === 'ours' ? ratioText(r.ratios) : v === 'first' ? ratioText(r.firstRatios) : '',
  }));
}
