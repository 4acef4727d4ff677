#!/usr/bin/env node
// `npm run bench [-- --only palette,bundle] [--quick]`: runs each bench module
// (bench/<name>/run.mjs: `run(opts)` → figures, `table(figures)` → rows, `needsBrowser`),
// merges the figures into bench/results.json under the bench's name and prints a summary.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';

const BENCHES = [
  'palette',
  'bundle',
  'logs',
  'terminal',
  'api',
  'realtime',
  'dinos',
  'scripts',
  'rcon',
  'storage',
  'bans',
  'start',
  'automation',
  'charts',
  'alerts',
];
const RESULTS = new URL('../bench/results.json', import.meta.url);

const { values } = parseArgs({
  options: { only: { type: 'string' }, quick: { type: 'boolean', default: false } },
});
const selected = values.only ? values.only.split(',').map((s) => s.trim()) : BENCHES;
const unknown = selected.filter((b) => !BENCHES.includes(b));
if (unknown.length) {
  console.error(`Unknown bench: ${unknown.join(', ')}. Known: ${BENCHES.join(', ')}.`);
  process.exit(2);
}

const modules = await Promise.all(selected.map((b) => import(`../bench/${b}/run.mjs`)));
const browserBench = modules.some((m) => m.needsBrowser)
  ? await (await import('../bench/lib/browser.mjs')).startBrowserBench()
  : null;

const machine = {
  cpus: os.cpus().length,
  cpu: os.cpus()[0]?.model ?? 'unknown',
  memGiB: Math.round(os.totalmem() / 2 ** 30),
  os: `${os.type()} ${os.release()}`,
  node: process.version,
  ...(browserBench ? { chromium: browserBench.version() } : {}),
};

const results = existsSync(RESULTS) ? JSON.parse(readFileSync(RESULTS, 'utf8')) : {};
const rows = [];
let failed = false;
try {
  for (const [i, name] of selected.entries()) {
    const started = Date.now();
    console.log(`bench ${name}…`);
    try {
      const figures = await modules[i].run({ quick: values.quick, browserBench, log: console.log });
      results[name] = { ...figures, quick: values.quick, machine, date: new Date().toISOString() };
      writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
      rows.push(...modules[i].table(figures));
      console.log(`bench ${name} done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    } catch (e) {
      failed = true;
      console.error(`bench ${name} failed:`, e);
    }
  }
} finally {
  await browserBench?.close();
}

printTable(rows);
console.log(`\nFigures merged into bench/results.json (${machine.cpus} CPUs, ${machine.cpu}).`);
process.exit(failed ? 1 : 0);

function printTable(list) {
  const cols = [...new Set(list.flatMap((r) => Object.keys(r)))];
  const cell = (r, c) => (r[c] === undefined ? '' : String(r[c]));
  const width = cols.map((c) => Math.max(c.length, ...list.map((r) => cell(r, c).length)));
  const line = (cells) => cells.map((s, i) => s.padEnd(width[i])).join(' | ');
  console.log(`\n${line(cols)}\n${width.map((w) => '-'.repeat(w)).join('-|-')}`);
  for (const r of list) console.log(line(cols.map((c) => cell(r, c))));
}
