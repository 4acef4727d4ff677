// The database of a bench's server, as the default install has it: the embedded PostgreSQL server
// (src/server/db/embedded.ts) in a folder of its own, with its memory measured beside Node's.

import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '../../src/server/db/embedded.ts';

export interface BenchPostgres {
  url: string;
  /** The PSS of the server's processes now, MiB (shared memory counted once, as PSS shares it). */
  pssMiB(): number;
  /** The largest pssMiB() seen since start, sampled every second. */
  peakPssMiB(): number;
  /**
   * CPU time of the server's processes alive now, ms, since each started: the difference of two
   * readings is what those alive at both used between them (a session that ended is left out).
   */
  cpuMs(): number;
  stop(): Promise<void>;
}

const SAMPLE_MS = 1_000;

export async function startBenchPostgres(): Promise<BenchPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'palisade-bench-db-'));
  chmodSync(dir, 0o711);
  const pg = await startEmbeddedPostgres({ dataDir: dir });
  const postmaster = Number(readFileSync(join(dir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
  const pssMiB = () => {
    let kib = 0;
    for (const pid of [postmaster, ...childrenOf(postmaster)]) kib += pssKiB(pid);
    return Math.round(kib / 1024);
  };
  let peak = pssMiB();
  const sampler = setInterval(() => {
    peak = Math.max(peak, pssMiB());
  }, SAMPLE_MS);
  sampler.unref();
  return {
    url: pg.url,
    pssMiB,
    peakPssMiB: () => Math.max(peak, pssMiB()),
    // The ended children's time too (the postmaster's, once it has waited for them): a backend
    // that closed took its time out of the live ones' sum, which then went down.
    cpuMs: () => childrenOf(postmaster).reduce((ms, pid) => ms + cpuMsOf(pid), cpuMsOf(postmaster, true)),
    async stop() {
      clearInterval(sampler);
      await pg.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The fields of /proc/<pid>/stat after the command (in parentheses, which may hold spaces). */
const statFields = (pid: number | string) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
};

/** Clock ticks per second of /proc's CPU times: 100 on Linux's every build we run on. */
const TICKS_PER_SECOND = 100;

/**
 * User and system CPU time of a process, ms (fields 14 and 15 of stat; 0 once it is gone), with
 * `ended` that of its children it has waited for (16 and 17).
 */
function cpuMsOf(pid: number, ended = false): number {
  try {
    const f = statFields(pid);
    const ticks = Number(f[11]) + Number(f[12]) + (ended ? Number(f[13]) + Number(f[14]) : 0);
    return (ticks * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

function childrenOf(parent: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // State, then the parent's pid.
      if (Number(statFields(name)[1]) === parent) out.push(Number(name));
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
}

function pssKiB(pid: number): number {
  try {
    return Number(/^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}
