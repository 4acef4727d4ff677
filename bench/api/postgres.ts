// The database of a bench's server, as the default install has it: the embedded PostgreSQL server
// (src/server/db/embedded.ts) in a folder of its own, with its memory measured beside Node's.

import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '../../src/server/db/embedded.ts';

/**
 * Every reading is asynchronous, /proc read off the event loop: the bench's server runs this on its
 * own thread, where reading a hundred backends' smaps_rollup every second held the loop 7-8 ms
 * (1.25 s of a 165 s RCON run, in a CPU profile), and the consoles' requests waited behind the
 * bench's own measuring, the longer the more backends the server had open.
 */
export interface BenchPostgres {
  url: string;
  /** The PSS of the server's processes now, MiB (shared memory counted once, as PSS shares it). */
  pssMiB(): Promise<number>;
  /** The largest pssMiB() seen since start, sampled every second. */
  peakPssMiB(): Promise<number>;
  /**
   * CPU time of the server's processes alive now, ms, since each started: the difference of two
   * readings is what those alive at both used between them (a session that ended is left out).
   */
  cpuMs(): Promise<number>;
  stop(): Promise<void>;
}

const SAMPLE_MS = 1_000;

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

export async function startBenchPostgres(): Promise<BenchPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'palisade-bench-db-'));
  chmodSync(dir, 0o711);
  const pg = await startEmbeddedPostgres({ dataDir: dir });
  const postmaster = Number(readFileSync(join(dir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
  const pssMiB = async () => {
    const kib = sum(await Promise.all([postmaster, ...(await childrenOf(postmaster))].map(pssKiB)));
    return Math.round(kib / 1024);
  };
  let peak = await pssMiB();
  let sampling = false;
  const sampler = setInterval(async () => {
    if (sampling) return;
    sampling = true;
    peak = Math.max(peak, await pssMiB());
    sampling = false;
  }, SAMPLE_MS);
  sampler.unref();
  return {
    url: pg.url,
    pssMiB,
    peakPssMiB: async () => Math.max(peak, await pssMiB()),
    // The ended children's time too (the postmaster's, once it has waited for them): a backend
    // that closed took its time out of the live ones' sum, which then went down.
    cpuMs: async () =>
      sum(
        await Promise.all([
          cpuMsOf(postmaster, true),
          ...(await childrenOf(postmaster)).map((pid) => cpuMsOf(pid)),
        ]),
      ),
    async stop() {
      clearInterval(sampler);
      await pg.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The fields of /proc/<pid>/stat after the command (in parentheses, which may hold spaces). */
const statFields = async (pid: number | string) => {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
};

/** Clock ticks per second of /proc's CPU times: 100 on Linux's every build we run on. */
const TICKS_PER_SECOND = 100;

/**
 * User and system CPU time of a process, ms (fields 14 and 15 of stat; 0 once it is gone), with
 * `ended` that of its children it has waited for (16 and 17).
 */
async function cpuMsOf(pid: number, ended = false): Promise<number> {
  try {
    const f = await statFields(pid);
    const ticks = Number(f[11]) + Number(f[12]) + (ended ? Number(f[13]) + Number(f[14]) : 0);
    return (ticks * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

async function childrenOf(parent: number): Promise<number[]> {
  const pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name));
  const parents = await Promise.all(
    pids.map(async (pid) => {
      try {
        // State, then the parent's pid.
        return Number((await statFields(pid))[1]);
      } catch {
        return null; // Gone meanwhile.
      }
    }),
  );
  return pids.filter((_, i) => parents[i] === parent).map(Number);
}

async function pssKiB(pid: number): Promise<number> {
  try {
    return Number(/^Pss:\s+(\d+) kB/m.exec(await readFile(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}
