// Starts bench/api/serve.ts in a child process and talks to it: the figures it sends once ready,
// its peak RSS, and stopping it. Its embedded database's processes are measured here, off the
// server's thread (processTree.mjs).
import { fork } from 'node:child_process';
import { SERVER_NODE_ARGS } from '../../scripts/serverNode.mjs';
import { watchProcessTree } from './processTree.mjs';

const SERVE = new URL('./serve.ts', import.meta.url).pathname;

/** CPU time between two readings of `process.cpuUsage()` ({user, system} µs), in % of one core over `ms`. */
export const cpuPct = (a, b, ms) => Math.round((b.user - a.user + b.system - a.system) / ms) / 10;

/** The share of the time between two `elu()` readings the server's thread was busy, in %. */
export const busyBetween = (a, b) =>
  Math.round((1000 * (b.active - a.active)) / (b.active - a.active + b.idle - a.idle)) / 10;

export async function startBenchServer(env) {
  const child = fork(SERVE, [], {
    // BENCH_NODE_ARGS adds flags to the server's node, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`.
    execArgv: [...SERVER_NODE_ARGS, ...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [])],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  /** The child's next message; it failing if the child exits first. */
  const next = () =>
    new Promise((resolve, reject) => {
      const exited = (code) => reject(new Error(`bench server exited (${code})`));
      child.once('exit', exited);
      child.once('message', (m) => {
        child.off('exit', exited);
        resolve(m);
      });
    });
  const ready = await next();
  const database = ready.databasePid === null ? null : watchProcessTree(ready.databasePid);
  return {
    ...ready,
    /**
     * Peak memory, MiB: Node's RSS, the embedded database's processes' PSS (null on
     * BENCH_DATABASE_URL), and their sum, the whole install's.
     */
    async memory() {
      child.send({ type: 'rss' });
      const { peakRssMiB } = await next();
      const databasePeakMiB = (await database?.peakPssMiB()) ?? null;
      return {
        peakRssMiB,
        databasePeakMiB,
        installPeakMiB: databasePeakMiB === null ? null : peakRssMiB + databasePeakMiB,
      };
    },
    /**
     * The server thread's event-loop use so far ({idle, active} ms; busy between two is
     * `busyBetween`), the process's CPU time, every thread's (`cpu`, {user, system} µs), and the
     * embedded database's processes' (`databaseCpuMs`, null on BENCH_DATABASE_URL).
     */
    async elu() {
      child.send({ type: 'elu' });
      const m = await next();
      return { ...m.elu, cpu: m.cpu, databaseCpuMs: (await database?.cpuMs()) ?? null };
    },
    /** How many script runs `serviceId`'s log holds, read from the database, not over the API. */
    async scriptRuns(serviceId) {
      child.send({ type: 'scriptRuns', serviceId });
      return (await next()).scriptRuns;
    },
    /** How many player sessions are open, read from the database. */
    async openSessions() {
      child.send({ type: 'openSessions' });
      return (await next()).openSessions;
    },
    /** Switches the services to RCON (`on`) or to the link (bench/api/serve.ts). */
    async rcon(on) {
      child.send({ type: 'rcon', on });
      await next();
    },
    stop: () =>
      new Promise((resolve) => {
        database?.stop();
        child.once('exit', resolve);
        child.send({ type: 'stop' });
      }),
  };
}
