// The log and terminal bench pages: built for production and served by `vite preview`, and a
// Chromium of their own, started with the flags the heap figures need (precise memory, gc).
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { chromium } from 'playwright-core';
import { build, preview } from 'vite';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../scripts/chromium.mjs';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));

const config = (input) => ({
  configFile: false,
  root: here('..'),
  base: './',
  plugins: [react()],
  logLevel: 'warn',
  build: {
    outDir: here('../.tmp/log-pages'),
    emptyOutDir: true,
    sourcemap: false,
    minify: !process.env.BENCH_NO_MINIFY,
    rolldownOptions: { input },
  },
});

// Wall clock waits for frames and for other processes on a shared CPU; the renderer's own counters
// (CDP Performance.getMetrics, seconds of thread time) say what its main thread itself spent.
const CPU_METRICS = {
  cpu: ['ThreadTime'],
  script: ['ScriptDuration'],
  styleLayout: ['RecalcStyleDuration', 'LayoutDuration'],
  devtools: ['DevToolsCommandDuration'],
};

/** Starts the page's main-thread counters; `read()` gives the time spent since, ms. */
export async function cpuMeter(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
  const counters = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    const by = Object.fromEntries(metrics.map((m) => [m.name, m.value]));
    return Object.fromEntries(
      Object.entries(CPU_METRICS).map(([k, names]) => [k, names.reduce((sum, n) => sum + (by[n] ?? 0), 0)]),
    );
  };
  let before = await counters();
  return {
    reset: async () => {
      before = await counters();
    },
    /** The bench's own CDP calls are not the page's work. */
    async read() {
      const after = await counters();
      const d = (k) => (after[k] - before[k]) * 1000;
      return { cpuMs: d('cpu') - d('devtools'), scriptMs: d('script'), styleLayoutMs: d('styleLayout') };
    },
  };
}

/** `pages`: name → path of its index.html under bench/. */
export async function startPages(pages) {
  const input = Object.fromEntries(Object.entries(pages).map(([k, p]) => [k, here(`../${p}`)]));
  await build(config(input));
  const server = await preview({
    ...config(input),
    preview: { host: '127.0.0.1', port: 4184, strictPort: false, open: false },
  });
  const origin = server.resolvedUrls.local[0].replace(/\/$/, '');
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, '--enable-precise-memory-info', '--js-flags=--expose-gc'],
  });
  return {
    version: () => browser.version(),
    /** A fresh context (renderer) per run. */
    async open(path) {
      const context = await browser.newContext({
        viewport: { width: 1280, height: 900 },
        deviceScaleFactor: 1,
      });
      const page = await context.newPage();
      await page.goto(`${origin}/${path}`);
      return { page, close: () => context.close() };
    },
    async close() {
      await browser.close();
      await new Promise((r) => server.httpServer.close(r));
    },
  };
}
