// Worker threads running our TypeScript: the RCON worker (game/rcon/worker.ts) and a bans.txt
// import (model/banImport.ts).

import { getPriority, setPriority } from 'node:os';
import { Worker } from 'node:worker_threads';

/**
 * Starts a thread on `entry`, a module of ours, with `workerData`. The server is TypeScript run
 * through tsx, whose loader a thread does not inherit on Node 20: the thread registers it, then
 * loads its entry.
 */
export function startThread(entry: URL, workerData: unknown): Worker {
  const boot = `(async () => {
    (await import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})).register();
    await import(${JSON.stringify(entry.href)});
  })()`;
  return new Worker(boot, { eval: true, workerData });
}

/**
 * Lowers the calling thread's priority by `by` (at most to nice 19), for background work with
 * time to spare while requests have none: on Linux a thread's priority is its own, so where cores
 * are short the thread answering requests, and the database, run first. Elsewhere the call would
 * lower the whole process, so it is not made.
 */
export function lowerThisThread(by: number): void {
  if (process.platform === 'linux') setPriority(Math.min(19, getPriority() + by));
}
