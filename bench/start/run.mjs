// Start-up bench (issue 32): `npm start` until it prints its URL, on a second start (the database
// already made), with the console's build as `npm start` runs it and without (`--no-build`), the
// first start's creation of the database beside them. Each start is stopped by Ctrl+C (SIGINT to
// its process group) before the next.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median, round } from '../lib/stats.mjs';

export const needsBrowser = false;
const ROOT = new URL('../..', import.meta.url).pathname;

/** Seconds from spawning `npm start` to its URL line; the start is then stopped. */
function timeStart(dataDir, args) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, ['scripts/start.mjs', ...args], {
      cwd: ROOT,
      detached: true,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, PORT: '0', PALISADE_DATA_DIR: dataDir, DATABASE_URL: '' },
    });
    let seconds = null;
    child.stdout.on('data', (b) => {
      if (seconds === null && String(b).includes('Palisade is running at')) {
        seconds = (performance.now() - t0) / 1000;
        process.kill(-child.pid, 'SIGINT');
      }
    });
    child.once('exit', (code) =>
      seconds === null ? reject(new Error(`npm start exited (${code}) before its URL`)) : resolve(seconds),
    );
  });
}

export async function run({ quick, log }) {
  const dataDir = mkdtempSync(join(tmpdir(), 'palisade-bench-start-'));
  chmodSync(dataDir, 0o711);
  const times = quick ? 1 : 3;
  try {
    const first = await timeStart(dataDir, ['--no-build']);
    log(`  first start (database made): ${round(first, 2)} s`);
    const again = [];
    const built = [];
    for (let i = 0; i < times; i++) {
      again.push(await timeStart(dataDir, ['--no-build']));
      built.push(await timeStart(dataDir, []));
    }
    log(
      `  second start: ${again.map((s) => round(s, 2)).join(', ')} s; with the build ${built.map((s) => round(s, 2)).join(', ')} s`,
    );
    return {
      firstSeconds: round(first, 2),
      secondSeconds: round(median(again), 2),
      secondWithBuildSeconds: round(median(built), 2),
      runs: times,
    };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function table(f) {
  return [
    { bench: 'npm start to its URL, first start (database made)', p50: `${f.firstSeconds} s` },
    { bench: 'npm start to its URL, second start', p50: `${f.secondSeconds} s` },
    {
      bench: 'npm start to its URL, second start with the console build',
      p50: `${f.secondWithBuildSeconds} s`,
    },
  ];
}
