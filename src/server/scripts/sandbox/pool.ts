// The sandbox threads: JavaScript scripts run in worker threads (worker.mjs), never on the API's
// event loop, so an endless loop or a huge allocation costs one thread its limit's worth of time
// and the API keeps answering. Runs queue for a free thread; a thread that does not answer
// within its run's time limit plus a grace period is ended and replaced.

import { availableParallelism } from 'node:os';
import { MessageChannel, type MessagePort, Worker } from 'node:worker_threads';
import { ACTIONS } from '../../../domain/scripts/actions.ts';
import { SCRIPT_LIMITS } from '../../../domain/scripts/limits.ts';

export type SandboxLimits = Record<'timeMs' | 'memoryBytes' | 'stackBytes' | 'outputBytes', number>;

export interface SandboxJob {
  code: string;
  /** The script's Common JavaScript, placed before the code. */
  common: string;
  beacon: {
    serviceId: string | null;
    serviceName: string;
    serviceNickname: string;
    serviceChatName: string;
    params: Record<string, unknown>;
    gameEvent: string;
    eventData: Record<string, unknown>;
    now: number;
  };
  /** Reviewed scripts may use the restricted beacon members. */
  allowRestricted: boolean;
  limits?: Partial<SandboxLimits>;
}

/** What the script asks of the server while it runs; each answer must be JSON. */
export interface SandboxHost {
  action(fn: string, options: Record<string, unknown>): Promise<unknown>;
  getBucketValue(bucketId: unknown, key: unknown, playerId: unknown): Promise<unknown>;
  httpRequest(method: unknown, url: unknown, body: unknown, headers: unknown): Promise<unknown>;
  /** Each line the script writes, as it writes it (the tester shows output as it comes). */
  output?(line: string): Promise<unknown>;
}

export type SandboxOutcome = 'ok' | 'error' | 'time' | 'memory' | 'stack' | 'output';

export interface SandboxResult {
  kind: SandboxOutcome;
  /** The script's own error, for kind 'error'. */
  message?: string;
  output: string;
  usedRestricted: boolean;
  /** The script's own running time, waits for the server left out. */
  elapsedMs?: number;
}

/** The error a run ends with, in words an author can act on. */
export function sandboxError(r: SandboxResult, limits: SandboxLimits): string | null {
  switch (r.kind) {
    case 'ok':
      return null;
    case 'time':
      return `The script ran longer than its limit of ${limits.timeMs} ms.`;
    case 'memory':
      return `The script used more than its limit of ${limits.memoryBytes / 1024 / 1024} MB of memory.`;
    case 'stack':
      return 'The script nested calls too deeply (stack overflow).';
    case 'output':
      return `The script printed more than its limit of ${limits.outputBytes / 1024} KB.`;
    default:
      return r.message ?? 'The script failed.';
  }
}

/** A real run's limits (SCRIPT_LIMITS); tests and the tester pass their own. */
export const SANDBOX_LIMITS: SandboxLimits = {
  timeMs: SCRIPT_LIMITS.timeMs,
  memoryBytes: SCRIPT_LIMITS.memoryBytes,
  stackBytes: SCRIPT_LIMITS.stackBytes,
  outputBytes: SCRIPT_LIMITS.outputBytes,
};
/** Past its deadline, a thread has this long to answer before it is replaced. */
const GRACE_MS = 1_000;
const ACTION_ARGS = Object.fromEntries(
  Object.values(ACTIONS).map((a) => [a.fn, a.options.map((o) => o.name)]),
);

interface Thread {
  worker: Worker;
  rpc: MessagePort;
  flag: Int32Array;
  ready: Promise<void>;
  busy: boolean;
}

interface Queued {
  job: SandboxJob;
  host: SandboxHost;
  resolve(r: SandboxResult): void;
}

export interface SandboxPool {
  run(job: SandboxJob, host: SandboxHost): Promise<SandboxResult>;
  close(): Promise<void>;
}

export function createSandboxPool(size = Math.max(1, Math.min(4, availableParallelism()))): SandboxPool {
  const threads: Thread[] = [];
  const queue: Queued[] = [];
  let nextId = 1;
  let closed = false;

  function spawn(): Thread {
    const channel = new MessageChannel();
    const flag = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(new URL('./worker.mjs', import.meta.url), {
      workerData: { rpc: channel.port2, flag: flag.buffer, actions: ACTION_ARGS },
      transferList: [channel.port2],
      // The WebAssembly heap is the sandbox's; this caps what the thread's own JavaScript may use.
      resourceLimits: { maxOldGenerationSizeMb: 128 },
    });
    worker.unref();
    const ready = new Promise<void>((resolve, reject) => {
      worker.once('message', () => resolve());
      worker.once('error', reject);
      // Ended before it ever answered (the server closed while it started): nobody may wait forever.
      worker.once('exit', () => reject(new Error('The server is shutting down.')));
    });
    ready.catch(() => {});
    return { worker, rpc: channel.port1, flag, ready, busy: false };
  }

  function replace(t: Thread): void {
    t.rpc.close();
    void t.worker.terminate();
    const i = threads.indexOf(t);
    if (i >= 0) threads.splice(i, 1);
    if (!closed) threads.push(spawn());
  }

  function answer(t: Thread, reply: { value?: unknown; error?: string }): void {
    t.rpc.postMessage(reply);
    Atomics.store(t.flag, 0, 1);
    Atomics.notify(t.flag, 0);
  }

  async function runOn(t: Thread, q: Queued): Promise<SandboxResult> {
    const limits = { ...SANDBOX_LIMITS, ...q.job.limits };
    const id = nextId++;
    try {
      await t.ready;
    } catch (e) {
      return { kind: 'error', message: (e as Error).message, output: '', usedRestricted: false };
    }
    return new Promise<SandboxResult>((resolve) => {
      // The thread waits while the server answers; that time is not the script's.
      let watchdog: NodeJS.Timeout;
      const watch = () => {
        watchdog = setTimeout(() => {
          replace(t);
          finish({ kind: 'time', output: '', usedRestricted: false });
        }, limits.timeMs + GRACE_MS);
      };
      // Calls are served one after another, so a bucket read sees the writes the script made
      // before it. Actions are one-way: their failures end the run once the script is done.
      let chain: Promise<unknown> = Promise.resolve();
      let received = 0;
      let actionError: string | null = null;
      const onCall = (m: { call: keyof SandboxHost; args: unknown[]; oneWay?: boolean }) => {
        const fn = q.host[m.call] as (...a: unknown[]) => Promise<unknown>;
        if (m.oneWay) {
          received++;
          chain = chain
            .then(() => (actionError ? undefined : fn(...m.args)))
            .catch((e: Error) => {
              actionError ??= e.message;
            });
          return;
        }
        clearTimeout(watchdog);
        chain = chain
          .then(() => fn(...m.args))
          .then(
            (value) => answer(t, { value: value === undefined ? null : value }),
            (e: Error) => answer(t, { error: e.message }),
          )
          .finally(watch);
      };
      const finish = (r: SandboxResult) => {
        clearTimeout(watchdog);
        t.rpc.off('message', onCall);
        t.worker.off('message', onDone);
        t.worker.off('error', onCrash);
        t.worker.off('exit', onExit);
        resolve(r);
      };
      const onExit = () =>
        finish({ kind: 'error', message: 'The server is shutting down.', output: '', usedRestricted: false });
      const onDone = async (m: SandboxResult & { id: number; actionsSent: number }) => {
        if (m.id !== id) return;
        const { id: _id, actionsSent, ...r } = m;
        // The last actions may still be on their way over the other port.
        while (received < actionsSent) await new Promise((res) => setImmediate(res));
        await chain;
        finish(actionError && r.kind === 'ok' ? { ...r, kind: 'error', message: actionError } : r);
      };
      const onCrash = (e: Error) => {
        replace(t);
        finish({
          kind: /memory/i.test(e.message) ? 'memory' : 'error',
          message: e.message,
          output: '',
          usedRestricted: false,
        });
      };
      watch();
      t.rpc.on('message', onCall);
      t.worker.on('message', onDone);
      t.worker.on('error', onCrash);
      t.worker.on('exit', onExit);
      t.worker.postMessage({
        id,
        code: q.job.code,
        common: q.job.common,
        beacon: q.job.beacon,
        allowRestricted: q.job.allowRestricted,
        limits,
        streamOutput: q.host.output !== undefined,
      });
    });
  }

  function pump(): void {
    while (queue.length > 0) {
      let t = threads.find((x) => !x.busy);
      if (!t && threads.length < size) {
        t = spawn();
        threads.push(t);
      }
      if (!t) return;
      const q = queue.shift()!;
      const thread = t;
      thread.busy = true;
      runOn(thread, q).then((r) => {
        thread.busy = false;
        q.resolve(r);
        pump();
      });
    }
  }

  return {
    run(job, host) {
      if (closed)
        return Promise.resolve({
          kind: 'error',
          message: 'The server is shutting down.',
          output: '',
          usedRestricted: false,
        });
      return new Promise((resolve) => {
        queue.push({ job, host, resolve });
        pump();
      });
    },
    async close() {
      closed = true;
      for (const q of queue.splice(0))
        q.resolve({
          kind: 'error',
          message: 'The server is shutting down.',
          output: '',
          usedRestricted: false,
        });
      await Promise.all(threads.splice(0).map((t) => t.worker.terminate()));
    },
  };
}
