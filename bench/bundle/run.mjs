// Initial JS of the console shell: the entry script of dist/index.html plus the chunks it
// modulepreloads, gzipped. Everything else in dist/assets is loaded lazily and listed apart.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { round } from '../lib/stats.mjs';

export const needsBrowser = false;
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DIST = join(ROOT, 'dist');
export const TARGET_INITIAL_GZIP_KB = 170;

const kB = (bytes) => round(bytes / 1000, 2);

function chunkSize(file) {
  const code = readFileSync(join(DIST, file));
  return { file, raw: kB(code.length), gzip: kB(gzipSync(code).length) };
}

/** Paths of the entry module and its modulepreloads, relative to dist/. */
export function initialScripts(html) {
  const attr = (tag, name) => tag.match(new RegExp(`\\b${name}="([^"]+)"`))?.[1];
  const out = [];
  for (const tag of html.match(/<(script|link)\b[^>]*>/g) ?? []) {
    const isEntry = tag.startsWith('<script') && attr(tag, 'type') === 'module';
    const isPreload = tag.startsWith('<link') && attr(tag, 'rel') === 'modulepreload';
    const src = isEntry ? attr(tag, 'src') : isPreload ? attr(tag, 'href') : undefined;
    if (src && !/^https?:/.test(src)) out.push(src.replace(/^\.?\//, ''));
  }
  return out;
}

export async function run({ log = console.log } = {}) {
  if (!existsSync(join(DIST, 'index.html'))) {
    log('  bundle: dist/ is missing, building the console');
    await build({ root: ROOT, configFile: join(ROOT, 'vite.config.ts'), logLevel: 'warn' });
  }
  const initial = initialScripts(readFileSync(join(DIST, 'index.html'), 'utf8')).map(chunkSize);
  const initialSet = new Set(initial.map((c) => c.file));
  const lazy = readdirSync(join(DIST, 'assets'))
    .map((f) => `assets/${f}`)
    .filter((f) => f.endsWith('.js') && !initialSet.has(f))
    .map(chunkSize)
    .sort((a, b) => b.gzip - a.gzip);
  const initialGzip = round(
    initial.reduce((s, c) => s + c.gzip, 0),
    2,
  );
  return {
    initialGzipKB: initialGzip,
    initialRawKB: round(
      initial.reduce((s, c) => s + c.raw, 0),
      2,
    ),
    targetKB: TARGET_INITIAL_GZIP_KB,
    met: initialGzip <= TARGET_INITIAL_GZIP_KB,
    initial,
    lazy,
  };
}

export function table(result) {
  return [
    {
      bench: 'bundle initial JS',
      size: `${result.initialGzipKB} kB gzip`,
      target: `≤ ${result.targetKB} kB`,
      met: result.met,
    },
    ...result.lazy
      .slice(0, 8)
      .map((c) => ({ bench: `  lazy ${c.file}`, size: `${c.gzip} kB gzip`, target: '', met: '' })),
  ];
}
