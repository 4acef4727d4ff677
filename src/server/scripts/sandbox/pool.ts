// The sandbox threads: JavaScript scripts run in worker threads (worker.mjs), never on the API's
// event loop, so an endless loop or a huge allocation costs one thread its limit's worth of time
// and the API keeps answering. Runs queue for a free thread; a thread that does not answer
// within its run's time limit plus a grace period is ended and replaced.

import { availableParallelism } from 'node:os';
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { ACTIONS } from '../../../domain/scripts/actions.ts';
import { SCRIPT_LIMITS } from '../../../domain/scripts/limits.ts';
import type { ScriptTimeBudget } from './budget.ts';

/** callMs: the longest the server may take to answer one call (an http request is the slowest). */
export type SandboxLimits = Record<
  'timeMs' | 'memoryBytes' | 'stackBytes' | 'outputBytes' | 'callMs',
  number
>;

export interface SandboxJob {
  /** Whose run it is (the attacher, or the tester's user): see AHEAD. */
  actorId: string;
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

/** 'budget': the actor's script time ran out (budget.ts), before the run or during it. */
export type SandboxOutcome = 'ok' | 'error' | 'time' | 'memory' | 'stack' | 'output' | 'budget';

export interface SandboxResult {
  kind: SandboxOutcome;
  /** The script's own error, for kind 'error'; for 'budget', when the actor's scripts run again. */
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
  callMs: 10_000,
};
/** Past its deadline, a thread has this long to answer before it is replaced. */
const GRACE_MS = 1_000;
/**
 * Runs handed to one thread ahead of time. A thread that waits for the main thread between runs
 * idles for as long as the main thread is busy elsewhere: at a thousand runs a second that wait,
 * not the scripts, bounded the runs. A thread is given more only while its current run is young,
 * so a run that goes on for its whole limit holds up at most the few handed over in its first
 * moments; and only runs of the same actor as every run it holds, so those few are that actor's
 * own (another owner's one-line script waited up to 2 s behind a looping one, 1 probe in 50).
 */
const AHEAD = 4;
const YOUNG_MS = 20;
const ACTION_ARGS = Object.fromEntries(
  Object.values(ACTIONS).map((a) => [a.fn, a.options.map((o) => o.name)]),
);

const failed = (message: string): SandboxResult => ({
  kind: 'error',
  message,
  output: '',
  usedRestricted: false,
});
const SHUTTING_DOWN = 'The server is shutting down.';

/** A run refused or ended because its actor's script time ran out, saying when it comes back. */
function outOfTime(budget: ScriptTimeBudget, actor: string, r?: SandboxResult): SandboxResult {
  const seconds = Math.max(1, Math.ceil(budget.waitMs(actor) / 1000));
  return {
    output: '',
    usedRestricted: false,
    ...r,
    kind: 'budget',
    message: `Scripts run for this account have used their running time (${budget.secondsPerMinute} seconds a minute); they run again in ${seconds} s.`,
  };
}

interface Queued {
  job: SandboxJob;
  host: SandboxHost;
  resolve(r: SandboxResult): void;
}

/** What the thread says about one run, all over one port so that it arrives in order. */
type RunMessage =
  | { id: number; callId?: number; call: keyof SandboxHost; args: unknown[]; oneWay?: boolean }
  | ({ id: number; done: true } & SandboxResult);

/** A run handed to a thread, from then until its result is passed on. */
interface Active {
  q: Queued;
  limits: SandboxLimits;
  /** The host calls, served one after another, so a bucket read sees the script's earlier writes. */
  chain: Promise<unknown>;
  /** An action the server refused: it ends the run once the script is done. */
  actionError: string | null;
  /** When the run started on its thread (performance.now()): its time limit counts from here. */
  startedAt: number;
  /** Past its time limit with actions still queued: those are dropped. */
  late: boolean;
}

interface Thread {
  worker: Worker;
  rpc: MessagePort;
  flag: Int32Array;
  ready: Promise<void>;
  /** Runs handed over, in the order the thread runs them: the first is running. */
  runs: Map<number, Active>;
  /** When the running one started, as far as this thread can tell. */
  headSince: number;
  started: boolean;
  /** The running one waits for an answer from this thread. */
  inCall: boolean;
  /** Taken out of the pool: nothing more is handed to it, nor watched. */
  retired: boolean;
  watchdog?: NodeJS.Timeout;
}

export interface SandboxPool {
  run(job: SandboxJob, host: SandboxHost): Promise<SandboxResult>;
  close(): Promise<void>;
}

/** Threads of a pool unless told: one per core, up to four. */
export const defaultThreads = () => Math.max(1, Math.min(4, availableParallelism()));

/**
 * `budget`: each actor's script time (budget.ts); a run starts only while its actor has some, and
 * ends when it is used up. Without one, runs are bounded by their own limits only.
 */
export function createSandboxPool(size = defaultThreads(), budget?: ScriptTimeBudget): SandboxPool {
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
    const t: Thread = {
      worker,
      rpc: channel.port1,
      flag,
      ready: new Promise<void>((resolve, reject) => {
        worker.once('message', () => resolve());
        worker.once('error', reject);
        // Ended before it ever answered (the server closed while it started): nobody may wait forever.
        worker.once('exit', () => reject(new Error(SHUTTING_DOWN)));
      }),
      runs: new Map(),
      headSince: 0,
      started: false,
      inCall: false,
      retired: false,
    };
    t.ready.then(
      () => {
        t.started = true;
      },
      () => {},
    );
    t.rpc.on('message', (m: RunMessage) => onMessage(t, m));
    // Like the worker, the port alone keeps no process alive.
    t.rpc.unref();
    worker.on('error', (e) =>
      retire(t, { ...failed(e.message), kind: /memory/i.test(e.message) ? 'memory' : 'error' }, true),
    );
    worker.on('exit', () => retire(t, failed(closed ? SHUTTING_DOWN : 'The sandbox thread stopped.')));
    return t;
  }

  function drainPort(t: Thread): void {
    for (let m = receiveMessageOnPort(t.rpc); m; m = receiveMessageOnPort(t.rpc))
      onMessage(t, m.message as RunMessage);
  }

  /**
   * Takes the thread out and ends its run in progress with `r`. The runs it had not started go
   * back to the front of the queue, unless the thread never started at all: then nothing would.
   * With `drain`, what the thread said before it went is read first (out of the pool, so nothing
   * is handed to it meanwhile), and the blame lands on the run it was in.
   */
  function retire(t: Thread, r: SandboxResult, drain = false): void {
    if (t.retired) return;
    t.retired = true;
    const i = threads.indexOf(t);
    if (i >= 0) threads.splice(i, 1);
    if (drain) drainPort(t);
    clearTimeout(t.watchdog);
    t.rpc.close();
    void t.worker.terminate();
    const [head, ...waiting] = t.runs.values();
    t.runs.clear();
    if (head) {
      if (t.started) budget?.charge(head.q.job.actorId, performance.now() - head.startedAt);
      settle(head, r);
    }
    if (closed || !t.started) for (const a of waiting) settle(a, r);
    else queue.unshift(...waiting.map((a) => a.q));
    pump();
  }

  function watch(t: Thread): void {
    clearTimeout(t.watchdog);
    const head = t.runs.values().next().value;
    if (!head || t.retired) return;
    // A thread's start is not its first run's time.
    if (!t.started) {
      t.ready.then(
        () => {
          t.headSince = performance.now();
          head.startedAt = t.headSince;
          watch(t);
        },
        () => {},
      );
      return;
    }
    // From the run's start, not the last call's end: the limit is wall time, calls included.
    const left = t.headSince + head.limits.timeMs + GRACE_MS - performance.now();
    t.watchdog = setTimeout(
      () => {
        drainPort(t);
        // The run may have ended while its last words were still on their way.
        if (t.runs.values().next().value !== head) return;
        retire(t, { kind: 'time', output: '', usedRestricted: false });
      },
      Math.max(0, left),
    );
  }

  function settle(a: Active, r: SandboxResult): void {
    a.q.resolve(a.actionError && r.kind === 'ok' ? { ...r, kind: 'error', message: a.actionError } : r);
  }

  function answer(t: Thread, reply: { callId?: number; value?: unknown; error?: string }): void {
    t.rpc.postMessage(reply);
    Atomics.store(t.flag, 0, 1);
    Atomics.notify(t.flag, 0);
  }

  function onMessage(t: Thread, m: RunMessage): void {
    const a = t.runs.get(m.id);
    if (!a) return;
    if ('done' in m) {
      t.runs.delete(m.id);
      t.headSince = performance.now();
      const next = t.runs.values().next().value;
      if (next) next.startedAt = t.headSince;
      watch(t);
      const { id: _id, done: _done, ...done } = m;
      budget?.charge(
        a.q.job.actorId,
        done.elapsedMs ?? performance.now() - a.startedAt,
        done.kind === 'budget',
      );
      const r = budget && done.kind === 'budget' ? outOfTime(budget, a.q.job.actorId, done) : done;
      // Its actions were all received before this; some may still be being taken. The run's time
      // is wall time, the actions' included: those still queued at its limit are not taken, and
      // the run ends as out of time.
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(
          () => resolve('late'),
          Math.max(0, a.startedAt + a.limits.timeMs - performance.now()),
        );
      });
      void Promise.race([a.chain.then(() => 'taken' as const), late]).then((how) => {
        clearTimeout(timer);
        if (how === 'late') a.late = true;
        settle(a, how === 'late' ? { kind: 'time', output: r.output, usedRestricted: r.usedRestricted } : r);
      });
      pump();
      return;
    }
    const fn = a.q.host[m.call] as (...args: unknown[]) => Promise<unknown>;
    if (m.oneWay) {
      a.chain = a.chain
        .then(() => (a.actionError || a.late ? undefined : fn(...m.args)))
        .catch((e: Error) => {
          a.actionError ??= e.message;
        });
      return;
    }
    // The thread waits while the server answers (that time is the script's too: the watchdog counts
    // from the run's start); no run is handed to it meanwhile.
    clearTimeout(t.watchdog);
    t.inCall = true;
    const callId = m.callId;
    a.chain = a.chain
      .then(() => fn(...m.args))
      .then(
        (value) => answer(t, { callId, value: value === undefined ? null : value }),
        (e: Error) => answer(t, { callId, error: e.message }),
      )
      .finally(() => {
        t.inCall = false;
        if (t.runs.values().next().value === a) watch(t);
      });
  }

  function handOver(t: Thread, q: Queued): void {
    const id = nextId++;
    const limits = { ...SANDBOX_LIMITS, ...q.job.limits };
    const a: Active = {
      q,
      limits,
      chain: Promise.resolve(),
      actionError: null,
      startedAt: performance.now(),
      late: false,
    };
    t.runs.set(id, a);
    const message = {
      id,
      code: q.job.code,
      common: q.job.common,
      beacon: q.job.beacon,
      allowRestricted: q.job.allowRestricted,
      limits,
      busyMs: budget ? budget.available(q.job.actorId) : Number.POSITIVE_INFINITY,
      streamOutput: q.host.output !== undefined,
    };
    if (t.runs.size === 1) {
      t.headSince = performance.now();
      watch(t);
    }
    // A thread that fails to start ends its runs itself (retire).
    t.ready.then(
      () => t.worker.postMessage(message),
      () => {},
    );
  }

  /** The thread to hand `q` to: an idle one, a new one, or one whose run is young and of its actor. */
  function pick(q: Queued): Thread | undefined {
    const idle = threads.find((t) => t.runs.size === 0);
    if (idle) return idle;
    if (threads.length < size) {
      const t = spawn();
      threads.push(t);
      return t;
    }
    const now = performance.now();
    let best: Thread | undefined;
    for (const t of threads)
      if (
        t.runs.size < AHEAD &&
        !t.inCall &&
        [...t.runs.values()].every((a) => a.q.job.actorId === q.job.actorId) &&
        now - t.headSince < YOUNG_MS &&
        (!best || t.runs.size < best.runs.size)
      )
        best = t;
    return best;
  }

  function pump(): void {
    while (queue.length > 0 && !closed) {
      // Its actor's time may have run out while it waited (a run ahead of it used it up).
      const actor = queue[0]!.job.actorId;
      if (budget && budget.waitMs(actor) > 0) {
        queue.shift()!.resolve(outOfTime(budget, actor));
        continue;
      }
      const t = pick(queue[0]!);
      if (!t) return;
      handOver(t, queue.shift()!);
    }
  }

  return {
    run(job, host) {
      if (closed) return Promise.resolve(failed(SHUTTING_DOWN));
      if (budget && budget.waitMs(job.actorId) > 0) return Promise.resolve(outOfTime(budget, job.actorId));
      return new Promise((resolve) => {
        queue.push({ job, host, resolve });
        pump();
      });
    },
    async close() {
      closed = true;
      for (const q of queue.splice(0)) q.resolve(failed(SHUTTING_DOWN));
      const ending = threads.map((t) => t.worker.terminate());
      for (const t of [...threads]) retire(t, failed(SHUTTING_DOWN));
      await Promise.all(ending);
    },
  };
}
