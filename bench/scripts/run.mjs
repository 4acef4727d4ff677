// Scripts bench (issue 14): events a second through a Simple script and through a JavaScript
// script (one condition, one action), with p50 and p99 from the game event to the action reaching
// the game. Target: 1,000 runs a second with p99 under 100 ms. Each run is bench/scripts/scenario.ts
// in a process of its own; on PostgreSQL too when the machine has it.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startPostgres } from '../api/postgres.mjs';
import { round } from '../lib/stats.mjs';

export const needsBrowser = false;
export const TARGETS = { runsPerSecond: 1000, p99Ms: 100 };
const SCENARIO = new URL('./scenario.ts', import.meta.url).pathname;
const run1 = promisify(execFile);

async function scenario(language, env, quick) {
  const { stdout } = await run1(process.execPath, ['--import', 'tsx', SCENARIO], {
    env: { ...process.env, ...env, BENCH_LANGUAGE: language, BENCH_SECONDS: quick ? '3' : '10' },
    maxBuffer: 1024 * 1024,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1));
}

export async function run({ quick, log }) {
  const figures = {};
  for (const language of ['Simple', 'JavaScript']) {
    log(`  ${language} on PGlite…`);
    figures[language] = await scenario(language, {}, quick);
  }
  const pg = startPostgres();
  if (pg)
    try {
      for (const language of ['Simple', 'JavaScript']) {
        log(`  ${language} on PostgreSQL…`);
        figures[`${language}OnPostgres`] = await scenario(language, { BENCH_DATABASE_URL: pg.url }, quick);
      }
    } finally {
      pg.stop();
    }
  return figures;
}

export function table(figures) {
  return Object.entries(figures).map(([name, f]) => ({
    bench: 'scripts',
    case: name,
    'runs/s': f.runsPerSecond,
    'p50 ms': round(f.p50Ms),
    'p99 ms': round(f.p99Ms),
    answered: `${f.answered}/${f.sent}`,
    target: `${TARGETS.runsPerSecond}/s, p99 < ${TARGETS.p99Ms} ms`,
  }));
}
