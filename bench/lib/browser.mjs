// Debian's Chromium driven by playwright-core (browsers cannot be downloaded here), and the
// production-built bench pages served by `vite preview`.
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { build, preview } from 'vite';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../scripts/chromium.mjs';

const CONFIG = fileURLToPath(new URL('../vite.bench.config.ts', import.meta.url));

/** Builds the pages, serves them and starts the browser; `close` stops both. */
export async function startBrowserBench() {
  await build({ configFile: CONFIG, logLevel: 'warn' });
  const server = await preview({
    configFile: CONFIG,
    logLevel: 'warn',
    preview: { host: '127.0.0.1', port: 4183, strictPort: false, open: false },
  });
  const origin = server.resolvedUrls.local[0].replace(/\/$/, '');
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  return {
    origin,
    browser,
    /** A fresh context per run gives each run its own renderer, JIT warm-up included. */
    async newPage(path) {
      const context = await browser.newContext({
        viewport: { width: 1280, height: 900 },
        deviceScaleFactor: 1,
      });
      const page = await context.newPage();
      await page.goto(`${origin}${path}`);
      return { page, close: () => context.close() };
    },
    async close() {
      await browser.close();
      await new Promise((resolve) => server.httpServer.close(resolve));
    },
    version: () => browser.version(),
  };
}
