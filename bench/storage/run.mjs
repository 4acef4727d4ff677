// Storage bench (issue 32): disk per log line at a million lines, today's log schema against the
// release before's in the same run (bench/storage/measure.ts, in a process of its own). Target:
// at most 600 bytes a line, indexes and search included. WAL is reported apart: it is recycled at
// checkpoints, so it is a rate (bytes written per line), not space kept.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ratio } from '../lib/stats.mjs';

export const needsBrowser = false;
export const TARGETS = { bytesPerLine: 600 };
const MEASURE = new URL('./measure.ts', import.meta.url).pathname;

export async function run({ quick, log }) {
  const rows = quick ? 100_000 : 1_000_000;
  log(`  storing ${rows.toLocaleString('en')} lines under each schema…`);
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', MEASURE, String(rows)], {
    maxBuffer: 1 << 20,
  });
  const f = JSON.parse(stdout.trim().split('\n').at(-1));
  return { ...f, targets: TARGETS, ratio: ratio(f.after.bytesPerLine.total, f.before.bytesPerLine.total) };
}

export function table(f) {
  return ['before', 'after'].map((v) => ({
    bench: `storage ${v === 'after' ? 'today' : 'release before'} (${f.rows.toLocaleString('en')} lines)`,
    p50: `${f[v].bytesPerLine.total} B/line (data ${f[v].bytesPerLine.data}, indexes ${f[v].bytesPerLine.indexes}, TOAST ${f[v].bytesPerLine.toast})`,
    p99: `WAL ${f[v].walPerLine.game} B/line as the game writes, ${f[v].walPerLine.bulk} bulk`,
    target: v === 'after' ? `≤ ${TARGETS.bytesPerLine} B/line` : '',
    'vs baseline': v === 'after' ? `${f.ratio}×` : '',
  }));
}
