// Palette bench (BROWSER-PERF §1): our Palette vs plain cmdk over N generated entities: time to
export const needsBrowser = true;

// open, key-to-paint for each character of `rex 150 bob`, long tasks.
import { median, percentile, ratio, round } from '../lib/stats.mjs';

const QUERY = 'rex 150 bob';
const PAUSE_MS = 100;
const SIZES = [1_000, 10_000, 100_000];
// Plain cmdk takes about 30 s per run at 100k, so it gets fewer runs.
const RUNS = {
  ours: { 1000: 10, 10000: 10, 100000: 10 },
  plain: { 1000: 5, 10000: 3, 100000: 2 },
  remote: { 100000: 10 },
};
const QUICK_RUNS = {
  ours: { 1000: 5, 10000: 5, 100000: 5 },
  plain: { 1000: 3, 10000: 2 },
  remote: { 100000: 5 },
};
/**
 * `remote`: ours with the server search of a fleet's million dinos (src/web/palette/remoteSearch.ts)
 * behind a fake server answering after REMOTE_LATENCY_MS; the real request's latency under load is
 * bench/dinos's `paletteName`. Besides key-to-paint, each query the palette sends (three characters
 * or more, trimmed) is timed from its keystroke until the server's rows are painted.
 */
const REMOTE_LATENCY_MS = 20;
const REMOTE_MIN_CHARS = 3;
export const TARGETS = { keyP95Ms: 25, openMs: 50, longTasks: 0, keyP95SpeedUp: 100 };

// Wall clock waits for frames and for other processes on a shared CPU; the renderer's own
// counters (CDP Performance.getMetrics, in seconds) say what the main thread itself spent.
const CPU_METRICS = {
  cpu: ['ThreadTime'],
  script: ['ScriptDuration'],
  styleLayout: ['RecalcStyleDuration', 'LayoutDuration'],
  devtools: ['DevToolsCommandDuration'],
};

async function cpuCounters(cdp) {
  const { metrics } = await cdp.send('Performance.getMetrics');
  const by = Object.fromEntries(metrics.map((m) => [m.name, m.value]));
  return Object.fromEntries(
    Object.entries(CPU_METRICS).map(([k, names]) => [k, names.reduce((sum, n) => sum + (by[n] ?? 0), 0)]),
  );
}

/** Main-thread time between two counter readings, ms; the bench's own CDP calls are not the page's. */
function cpuSpent(before, after) {
  const d = (k) => (after[k] - before[k]) * 1000;
  return { cpuMs: d('cpu') - d('devtools'), scriptMs: d('script'), styleLayoutMs: d('styleLayout') };
}

async function oneRun(bench, variant, n) {
  const { page, close } = await bench.newPage(
    `/palette/index.html?variant=${variant}&n=${n}&latency=${REMOTE_LATENCY_MS}`,
  );
  try {
    await page.waitForFunction(() => window.__bench?.ready === true, null, { timeout: 120_000 });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
    const beforeOpen = await cpuCounters(cdp);
    const open = await page.evaluate(() => window.__bench.open());
    Object.assign(open, cpuSpent(beforeOpen, await cpuCounters(cdp)));
    await page.waitForTimeout(PAUSE_MS);
    const keys = [];
    const rows = [];
    for (let i = 1; i <= QUERY.length; i++) {
      const before = await cpuCounters(cdp);
      const q = QUERY.slice(0, i);
      const asks = variant === 'remote' && q.trim().length >= REMOTE_MIN_CHARS;
      await page.evaluate(
        ([query, row]) => {
          window.__bench.arm(query);
          if (row) window.__bench.armRow(row);
        },
        [q, asks ? q.trim() : null],
      );
      await page.keyboard.type(QUERY[i - 1]);
      const sample = await page.evaluate(() => window.__bench.result());
      keys.push({ ...sample, ...cpuSpent(before, await cpuCounters(cdp)) });
      if (asks) rows.push(await page.evaluate(() => window.__bench.row()));
      await page.waitForTimeout(PAUSE_MS);
    }
    const idle = await page.evaluate(() => window.__bench.idleLongTasks());
    return { open, keys, idle, rows };
  } finally {
    await close();
  }
}

function summarise(runs) {
  const keyMs = runs.flatMap((r) => r.keys.map((k) => k.ms));
  const keyCpu = runs.flatMap((r) => r.keys.map((k) => k.cpuMs));
  const keyScript = runs.flatMap((r) => r.keys.map((k) => k.scriptMs));
  const openMs = runs.map((r) => r.open.ms);
  const typingLong = runs.map((r) => r.keys.flatMap((k) => k.longTasks));
  const openLong = runs.map((r) => r.open.longTasks);
  const perPrefix = Object.fromEntries(
    [...QUERY].map((_, i) => [QUERY.slice(0, i + 1), round(median(runs.map((r) => r.keys[i].ms)))]),
  );
  const perPrefixCpu = Object.fromEntries(
    [...QUERY].map((_, i) => [QUERY.slice(0, i + 1), round(median(runs.map((r) => r.keys[i].cpuMs)))]),
  );
  return {
    runs: runs.length,
    openMedian: round(median(openMs)),
    openP95: round(percentile(openMs, 0.95)),
    keyMedian: round(median(keyMs)),
    keyP95: round(percentile(keyMs, 0.95)),
    keyMax: round(Math.max(...keyMs)),
    firstKeyMedian: round(median(runs.map((r) => r.keys[0].ms))),
    longTasksTyping: {
      medianCount: median(typingLong.map((l) => l.length)),
      maxMs: round(Math.max(0, ...typingLong.flat())),
    },
    longTasksOpen: {
      medianCount: median(openLong.map((l) => l.length)),
      maxMs: round(Math.max(0, ...openLong.flat())),
    },
    // The palette's idle work (haystack build, warm-up) between opening and the first key.
    longTasksBeforeFirstKey: {
      medianCount: median(runs.map((r) => r.idle.length)),
      maxMs: round(Math.max(0, ...runs.flatMap((r) => r.idle))),
    },
    // Main-thread CPU per keystroke (and for opening), from the renderer's counters.
    keyCpuMedian: round(median(keyCpu)),
    keyCpuP95: round(percentile(keyCpu, 0.95)),
    keyScriptMedian: round(median(keyScript)),
    keyScriptP95: round(percentile(keyScript, 0.95)),
    keyStyleLayoutMedian: round(median(runs.flatMap((r) => r.keys.map((k) => k.styleLayoutMs)))),
    openCpuMedian: round(median(runs.map((r) => r.open.cpuMs))),
    commitMedian: round(median(runs.flatMap((r) => r.keys.map((k) => k.commitMs)))),
    commitP95: round(
      percentile(
        runs.flatMap((r) => r.keys.map((k) => k.commitMs)),
        0.95,
      ),
    ),
    perPrefixMedian: perPrefix,
    // The remote variant: keystroke until the server's rows for that query are painted.
    ...(runs[0].rows.length
      ? {
          serverRowsMedian: round(median(runs.flatMap((r) => r.rows.map((x) => x.ms)))),
          serverRowsP95: round(
            percentile(
              runs.flatMap((r) => r.rows.map((x) => x.ms)),
              0.95,
            ),
          ),
          serverLatencyMs: REMOTE_LATENCY_MS,
        }
      : {}),
    perPrefixCpuMedian: perPrefixCpu,
  };
}

export async function run({
  quick = false,
  log = console.log,
  browserBench,
  variants = ['ours', 'plain', 'remote'],
  sizes = SIZES,
}) {
  const plan = quick ? QUICK_RUNS : RUNS;
  const out = { query: QUERY, ours: {}, plain: {}, remote: {} };
  for (const n of sizes)
    for (const variant of variants) {
      const count = plan[variant][n];
      if (!count) continue;
      const runs = [];
      for (let i = 0; i < count; i++) runs.push(await oneRun(browserBench, variant, n));
      out[variant][n] = summarise(runs);
      const s = out[variant][n];
      log(`  palette ${variant} ${n}: open ${s.openMedian} ms, key p95 ${s.keyP95} ms (${count} runs)`);
    }
  out.speedUp = {};
  for (const n of SIZES) {
    const a = out.plain[n];
    const b = out.ours[n];
    if (!a || !b) continue;
    out.speedUp[n] = {
      open: ratio(a.openMedian, b.openMedian),
      keyMedian: ratio(a.keyMedian, b.keyMedian),
      keyP95: ratio(a.keyP95, b.keyP95),
    };
  }
  const big = out.ours[100000];
  out.targets = {
    ...TARGETS,
    met: big
      ? {
          keyP95: big.keyP95 <= TARGETS.keyP95Ms,
          open: big.openMedian < TARGETS.openMs,
          noLongTask: big.longTasksTyping.maxMs === 0 && big.longTasksOpen.maxMs === 0,
          speedUp: out.speedUp[100000] ? out.speedUp[100000].keyP95 >= TARGETS.keyP95SpeedUp : null,
        }
      : null,
  };
  return out;
}

/** Rows for the summary table printed by scripts/bench.mjs. */
export function table(result) {
  const rows = [];
  for (const variant of ['ours', 'plain', 'remote'])
    for (const [n, s] of Object.entries(result[variant] ?? {}))
      rows.push({
        bench: `palette ${variant}`,
        N: Number(n).toLocaleString('en'),
        runs: s.runs,
        'open med/p95': `${s.openMedian} / ${s.openP95}`,
        'key med/p95/max': `${s.keyMedian} / ${s.keyP95} / ${s.keyMax}`,
        'key CPU med/p95': `${s.keyCpuMedian} / ${s.keyCpuP95}`,
        'long tasks (typing)': `${s.longTasksTyping.medianCount} / ${s.longTasksTyping.maxMs} ms`,
        'speed-up key p95': variant === 'ours' ? (result.speedUp?.[n]?.keyP95 ?? '–') : '',
        ...(s.serverRowsMedian === undefined
          ? {}
          : {
              'server rows med/p95': `${s.serverRowsMedian} / ${s.serverRowsP95} (server ${s.serverLatencyMs} ms)`,
            }),
      });
  return rows;
}
