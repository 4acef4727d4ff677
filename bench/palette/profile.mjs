#!/usr/bin/env node
// Where a palette keystroke's main-thread time goes (issue 2). Wall clock is noisy on a shared
// CPU, so this also reads the renderer's thread time from a Chrome trace.
//
//   node bench/palette/profile.mjs [--n 100000] [--runs 3] [--variant ours] [--timeline]
//                                  [--compare /path/to/other/checkout] [--query 'rex 150 bob']
//
// Builds the bench page unminified, one chunk per library, types QUERY as run.mjs does and prints
// for opening and per keystroke: open- or key-to-paint (the probe's wall clock), the main thread's CPU time (trace `tdur`,
// which a descheduled thread does not accrue) in script / style+layout / paint, and the profile's
// self time per library chunk. With --compare, runs alternate between this checkout and the other
// one (e.g. `git archive HEAD~1 | tar -x -C /tmp/before`, with node_modules linked), so both see
// the same background load.
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { build, preview } from 'vite';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../scripts/chromium.mjs';
import { median, percentile, round } from '../lib/stats.mjs';

const PAUSE_MS = 100;
const LIBS = ['react-dom', 'scheduler', 'cmdk', '@radix-ui', '@tanstack', 'jotai', '@leeoniya', 'react/'];
const HERE = fileURLToPath(new URL('../..', import.meta.url));

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '3' },
    variant: { type: 'string', default: 'ours' },
    timeline: { type: 'boolean', default: false },
    compare: { type: 'string' },
    /** Also print the functions with the most inclusive time (callees included). */
    inclusive: { type: 'boolean', default: false },
    /** What is typed, one key at a time (run.mjs types the default). */
    query: { type: 'string', default: 'rex 150 bob' },
  },
});
const QUERY = values.query;

// Trace event names (devtools.timeline) by what they cost.
const KIND = {
  FunctionCall: 'script',
  EvaluateScript: 'script',
  EventDispatch: 'script',
  TimerFire: 'script',
  FireAnimationFrame: 'script',
  RunMicrotasks: 'script',
  'V8.Execute': 'script',
  UpdateLayoutTree: 'style+layout',
  Layout: 'style+layout',
  PrePaint: 'paint',
  Paint: 'paint',
  Layerize: 'paint',
  Commit: 'paint',
};
const FIELDS = ['ms', 'work', 'script', 'style+layout', 'paint'];

/** Builds and serves one checkout's bench page. */
async function serve(root, port) {
  const configFile = `${root}/bench/vite.bench.config.ts`;
  const outDir = `${HERE}/bench/.tmp/palette-profile-${port}`;
  await build({
    configFile,
    logLevel: 'warn',
    build: {
      outDir,
      minify: false,
      rolldownOptions: {
        output: {
          codeSplitting: {
            groups: [
              ...LIBS.map((l) => ({ name: l.replace(/[@/]/g, '_'), test: new RegExp(`node_modules/${l}`) })),
              { name: 'palette', test: /src\/web\/palette/ },
            ],
          },
        },
      },
    },
  });
  const server = await preview({
    configFile,
    logLevel: 'warn',
    build: { outDir },
    preview: { host: '127.0.0.1', port, strictPort: false, open: false },
  });
  return {
    root,
    server,
    origin: server.resolvedUrls.local[0].replace(/\/$/, ''),
    keys: [],
    opens: [],
    chunks: {},
    inclusive: {},
  };
}

const mainThread = (events) => {
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  return events.filter((e) => main && e.pid === main.pid && e.tid === main.tid && e.ph === 'X');
};

/** The main thread's CPU time per kind (and their sum, `work`) between two user-timing marks. */
function traceBreakdown(onMain, from, to) {
  const inWindow = onMain.filter((e) => e.ts >= from && e.ts + (e.dur ?? 0) <= to);
  const out = { work: 0, script: 0, 'style+layout': 0, paint: 0 };
  for (const e of inWindow) {
    const cpu = (e.tdur ?? e.dur ?? 0) / 1000;
    const kind = KIND[e.name];
    // Nested events of one kind (a FunctionCall inside an EventDispatch) would count twice.
    const nested = inWindow.some(
      (p) => p !== e && KIND[p.name] === kind && p.ts <= e.ts && p.ts + p.dur >= e.ts + e.dur,
    );
    if (kind && !nested) {
      out[kind] += cpu;
      out.work += cpu;
    }
  }
  return out;
}

/** The main thread's events of one keystroke in time order, for reading where a slow key waited. */
function printTimeline(key, onMain, from, to) {
  console.log(`-- ${JSON.stringify(key.prefix)}: ${round(key.ms)} ms to paint`);
  for (const e of onMain.filter((x) => x.ts >= from && x.ts <= to && (x.dur ?? 0) > 200)) {
    const detail = e.args?.data?.type ?? e.args?.data?.functionName ?? '';
    const at = round((e.ts - from) / 1000);
    console.log(
      `  +${String(at).padStart(5)} ${String(round(e.dur / 1000)).padStart(5)}  ${e.name} ${detail}`,
    );
  }
}

const chunkOf = ({ url, functionName }) =>
  url
    ? url
        .split('/')
        .pop()
        .replace(/-[\w-]{8}\.js$/, '')
    : functionName || '(native)';

/** Self time per bundle chunk (library), and inclusive time per function, from a CPU profile. */
function addProfile(profile, target) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  for (let i = 0; i < profile.samples.length; i++) {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const chunk = chunkOf(nodes.get(profile.samples[i]).callFrame);
    target.chunks[chunk] = (target.chunks[chunk] ?? 0) + ms;
    const seen = new Set();
    for (let id = profile.samples[i]; id !== undefined; id = parent.get(id)) {
      const f = nodes.get(id).callFrame;
      const fn = `${f.functionName || '(anon)'} ${chunkOf(f)}:${f.lineNumber}`;
      if (seen.has(fn) || !f.url) continue;
      seen.add(fn);
      target.inclusive[fn] = (target.inclusive[fn] ?? 0) + ms;
    }
  }
}

async function oneRun(browser, target) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  await page.goto(`${target.origin}/palette/index.html?variant=${values.variant}&n=${values.n}`);
  await page.waitForFunction(() => window.__bench?.ready === true, null, { timeout: 120_000 });
  const cdp = await context.newCDPSession(page);
  // Traced from before opening, so that opening is broken down as a keystroke is.
  await browser.startTracing(page, {
    categories: [
      'devtools.timeline',
      'blink.user_timing',
      'toplevel',
      'disabled-by-default-devtools.timeline',
    ],
  });
  const open = await page.evaluate(() => {
    performance.mark('open');
    return window.__bench.open().then((s) => {
      performance.mark('opened');
      return { prefix: '(open)', ms: s.ms };
    });
  });
  await page.waitForTimeout(1000);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
  const keys = [];
  for (let i = 1; i <= QUERY.length; i++) {
    await page.evaluate(
      (q) => {
        performance.mark('key');
        window.__bench.arm(q);
      },
      QUERY.slice(0, i),
    );
    await page.keyboard.type(QUERY[i - 1]);
    const sample = await page.evaluate(() =>
      window.__bench.result().then((s) => {
        performance.mark('painted');
        return s;
      }),
    );
    keys.push({ prefix: QUERY.slice(0, i), ms: sample.ms });
    await page.waitForTimeout(PAUSE_MS);
  }
  const { profile } = await cdp.send('Profiler.stop');
  const trace = JSON.parse((await browser.stopTracing()).toString());
  const events = trace.traceEvents ?? trace;
  const marks = (name) =>
    events.filter((e) => e.name === name && e.cat?.includes('user_timing')).map((e) => e.ts);
  const [starts, ends] = [marks('key'), marks('painted')];
  const onMain = mainThread(events).sort((a, b) => a.ts - b.ts);
  for (const [i, k] of keys.entries()) {
    Object.assign(k, traceBreakdown(onMain, starts[i], ends[i]));
    if (values.timeline) printTimeline(k, onMain, starts[i], ends[i]);
  }
  Object.assign(open, traceBreakdown(onMain, marks('open')[0], marks('opened')[0]));
  addProfile(profile, target);
  target.keys.push(...keys);
  target.opens.push(open);
  await context.close();
}

function report(target) {
  const { keys } = target;
  const stat = (xs) => `${round(median(xs))} / ${round(percentile(xs, 0.95))}`.padEnd(13);
  console.log(`\n${target.root}: ${values.variant} n=${values.n}, ${keys.length} keys`);
  console.log(`  median / p95:  ${FIELDS.map((f) => f.padEnd(13)).join(' ')}`);
  console.log(`  open           ${FIELDS.map((f) => stat(target.opens.map((o) => o[f]))).join(' ')}`);
  console.log(`  all keys       ${FIELDS.map((f) => stat(keys.map((k) => k[f]))).join(' ')}`);
  for (const prefix of new Set(keys.map((k) => k.prefix))) {
    const ks = keys.filter((k) => k.prefix === prefix);
    console.log(
      `  ${JSON.stringify(prefix).padEnd(14)} ${FIELDS.map((f) => stat(ks.map((k) => k[f]))).join(' ')}`,
    );
  }
  const chunks = Object.entries(target.chunks)
    .filter(([k]) => !['(idle)', '(program)'].includes(k))
    .sort((a, b) => b[1] - a[1])
    .slice(0, 10)
    .map(([k, v]) => `${k} ${round(v / keys.length, 2)}`);
  console.log(`  JS self time per key (CPU profile, ms): ${chunks.join(', ')}`);
  if (!values.inclusive) return;
  const top = Object.entries(target.inclusive)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 40);
  for (const [fn, ms] of top)
    console.log(`  ${String(round(ms / keys.length, 2)).padStart(6)} ms/key  ${fn}`);
}

const targets = [await serve(HERE, 4190)];
if (values.compare) targets.push(await serve(values.compare, 4191));
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
try {
  for (let r = 0; r < Number(values.runs); r++) for (const t of targets) await oneRun(browser, t);
} finally {
  await browser.close();
  for (const t of targets) await new Promise((resolve) => t.server.httpServer.close(resolve));
}
for (const t of targets) report(t);
