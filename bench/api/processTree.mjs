// The memory and processor time of a process and its children (the embedded PostgreSQL server's
// postmaster and its backends), read from Linux's /proc by the bench's own process, never by the
// server under test: sampled there every second, reading /proc held the server's event loop
// 20-30 ms at a time (in a CPU profile of the bans bench), and the consoles' requests waited
// behind the bench's own measuring.
import { readFile } from 'node:fs/promises';

const SAMPLE_MS = 1_000;
/** Clock ticks per second of /proc's CPU times: 100 on Linux's every build we run on. */
const TICKS_PER_SECOND = 100;
const sum = (values) => values.reduce((a, b) => a + b, 0);

/**
 * Watches `root` and its children, sampling their memory every second for the peak.
 * @returns {{
 *   pssMiB(): Promise<number>,
 *   peakPssMiB(): Promise<number>,
 *   cpuMs(): Promise<number>,
 *   stop(): void,
 * }}
 */
export function watchProcessTree(root) {
  /** The PSS of the processes now, MiB (shared memory counted once, as PSS shares it). */
  const pssMiB = async () => {
    const kib = sum(await Promise.all([root, ...(await childrenOf(root))].map(pssKiB)));
    return Math.round(kib / 1024);
  };
  let peak = 0;
  let sampling = false;
  const sample = async () => {
    if (sampling) return;
    sampling = true;
    peak = Math.max(peak, await pssMiB());
    sampling = false;
  };
  void sample();
  const sampler = setInterval(sample, SAMPLE_MS);
  sampler.unref();
  return {
    pssMiB,
    /** The largest pssMiB() seen since the watch began. */
    peakPssMiB: async () => Math.max(peak, await pssMiB()),
    /**
     * CPU time of the processes, ms, with that of children the root has waited for: the difference
     * of two readings is what they used between them (a child that ended is counted once the root
     * has reaped it).
     */
    cpuMs: async () =>
      sum(await Promise.all([cpuMsOf(root, true), ...(await childrenOf(root)).map((pid) => cpuMsOf(pid))])),
    stop: () => clearInterval(sampler),
  };
}

/** The fields of /proc/<pid>/stat after the command (in parentheses, which may hold spaces). */
const statFields = async (pid) => {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
};

/**
 * User and system CPU time of a process, ms (fields 14 and 15 of stat; 0 once it is gone), with
 * `ended` that of its children it has waited for (16 and 17).
 */
async function cpuMsOf(pid, ended = false) {
  try {
    const f = await statFields(pid);
    const ticks = Number(f[11]) + Number(f[12]) + (ended ? Number(f[13]) + Number(f[14]) : 0);
    return (ticks * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** A single-threaded process's children, as its main thread's `children` lists them. */
async function childrenOf(pid) {
  try {
    return (await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8'))
      .split(' ')
      .filter(Boolean)
      .map(Number);
  } catch {
    return []; // Gone.
  }
}

async function pssKiB(pid) {
  try {
    return Number(/^Pss:\s+(\d+) kB/m.exec(await readFile(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}
