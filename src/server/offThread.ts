// Work kept off the thread that answers requests, in our TypeScript: on a thread (the RCON worker,
// game/rcon/worker.ts) or in a process of its own (a bans.txt import, model/banImport.ts).

import { type ChildProcess, fork, spawn } from 'node:child_process';
import { getPriority, setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

const TSX = import.meta.resolve('tsx');

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

/**
 * Starts a node process on `entry`, a module of ours, with a channel to this one (its `message`
 * events, `process.send` there), at the least priority from its start: every thread of it, its
 * garbage collector's helpers and its loading of modules too, where the machine has `nice`
 * (Linux, macOS); a thread lowers itself only, and shares those helpers with the server's.
 */
export function startLowProcess(entry: URL): ChildProcess {
  const args = ['--import', TSX, fileURLToPath(entry)];
  const stdio: ['ignore', 'inherit', 'inherit', 'ipc'] = ['ignore', 'inherit', 'inherit', 'ipc'];
  if (process.platform === 'win32') return fork(args[2], [], { execArgv: args.slice(0, 2), stdio });
  return spawn('nice', ['-n', '19', process.execPath, ...args], { stdio });
}
