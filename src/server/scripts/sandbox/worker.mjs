// One sandbox thread: runs JavaScript scripts in QuickJS (WebAssembly), one fresh runtime per run,
// so nothing a script does can reach Node, the host's globals or the next run. The limits on
// time, memory, stack and output end a run with an error naming the limit. What a script asks of
// the server (an action, a bucket value, an http request) is a synchronous call to the main
// thread: the request goes over `rpc`, and this thread sleeps on a shared flag until the answer
// is posted back. Plain JavaScript so that a worker starts the same under node, tsx and vitest.

import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { getPriority, setPriority } from 'node:os';
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { getQuickJS } from 'quickjs-emscripten';

// Scripts have seconds to spare and requests do not: on Linux a thread's priority is its own (as
// the RCON worker's), so where cores are short a script spinning to its limit yields to the
// thread that answers requests and to the database.
if (process.platform === 'linux') setPriority(Math.min(19, getPriority() + 10));

const QuickJS = await getQuickJS();
/** @type {{ rpc: MessagePort, flag: Int32Array, actions: Record<string, string[]>, uuidv5: string }} */
const { rpc, flag: flagBuffer, actions } = workerData;
const flag = new Int32Array(flagBuffer);

/** Thrown by beacon.stopProcessing(): the run ends there, successfully. */
const STOP = 'beacon.stopProcessing';

class LimitError extends Error {
  constructor(kind, message) {
    super(message);
    this.kind = kind;
  }
}

let lastCall = 0;

/**
 * Asks the main thread and waits for its answer. The wait counts against the script's time: a run
 * has its limit of wall time, calls included (a "2 s" run that waited on 1,500 calls had lasted
 * 52 s), so a call still unanswered at the deadline ends the run as out of time. Each call has a
 * number its answer repeats: an answer that comes after its call gave up is thrown away, not taken
 * for a later call's, this run's or the next one's.
 */
function callMain(job, call, args) {
  const callId = ++lastCall;
  Atomics.store(flag, 0, 0);
  rpc.postMessage({ id: job.id, callId, call, args });
  const started = Date.now();
  const giveUp = Math.min(started + job.limits.callMs, job.deadline);
  try {
    for (;;) {
      for (let m = receiveMessageOnPort(rpc); m; m = receiveMessageOnPort(rpc)) {
        const reply = m.message;
        if (reply.callId !== callId) continue;
        if (reply.error) throw new Error(reply.error);
        return reply.value;
      }
      const left = giveUp - Date.now();
      if (left <= 0 || Atomics.wait(flag, 0, 0, left) === 'timed-out') {
        if (Date.now() >= job.deadline) throw new LimitError('time', 'time');
        throw new Error(`The server did not answer ${call} within ${job.limits.callMs / 1000} seconds.`);
      }
      Atomics.store(flag, 0, 0);
    }
  } finally {
    job.waited += Date.now() - started;
  }
}

const uuidV7 = () => {
  const b = randomBytes(16);
  const ms = BigInt(Date.now());
  for (let i = 0; i < 6; i++) b[i] = Number((ms >> BigInt(8 * (5 - i))) & 0xffn);
  b[6] = (b[6] & 0x0f) | 0x70;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};

const uuidV5 = (name, namespace) => {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(String(namespace)))
    throw new Error('generateUuidV5: the namespace must be a UUID.');
  const ns = Buffer.from(String(namespace).replace(/-/g, ''), 'hex');
  const b = createHash('sha1')
    .update(Buffer.concat([ns, Buffer.from(String(name))]))
    .digest()
    .subarray(0, 16);
  b[6] = (b[6] & 0x0f) | 0x50;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};

const HASHES = ['md5', 'sha1', 'sha256', 'sha512'];

/** The helpers that answer here, without the main thread. */
function localHelpers(job, output) {
  const restricted = (name) => {
    if (!job.allowRestricted) {
      job.usedRestricted = true;
      throw new Error(`beacon.${name} needs the script to be reviewed first.`);
    }
  };
  return {
    log(line) {
      output.bytes += Buffer.byteLength(line) + 1;
      if (output.bytes > job.limits.outputBytes) {
        output.exceeded = true;
        throw new LimitError('output', 'output');
      }
      output.lines.push(line);
      // One-way like an action.
      if (job.streamOutput) rpc.postMessage({ id: job.id, call: 'output', args: [line], oneWay: true });
    },
    encodeBase64: (text) => Buffer.from(String(text), 'utf8').toString('base64'),
    decodeBase64: (text) => Buffer.from(String(text), 'base64').toString('utf8'),
    generateRandomBytes(length) {
      restricted('generateRandomBytes');
      const n = Number(length);
      if (!Number.isInteger(n) || n < 1 || n > 1024)
        throw new Error('generateRandomBytes: length is 1 to 1024.');
      return randomBytes(n).toString('hex');
    },
    generateUuidV4() {
      restricted('generateUuidV4');
      return randomUUID();
    },
    generateUuidV5(name, namespace) {
      restricted('generateUuidV5');
      return uuidV5(name, namespace);
    },
    generateUuidV7() {
      restricted('generateUuidV7');
      return uuidV7();
    },
    hash(algorithm, text) {
      restricted('hash');
      if (!HASHES.includes(algorithm)) throw new Error(`hash: the algorithm is one of ${HASHES.join(', ')}.`);
      return createHash(algorithm).update(String(text)).digest('hex');
    },
    hmac(algorithm, key, text) {
      restricted('hmac');
      if (!HASHES.slice(1).includes(algorithm))
        throw new Error(`hmac: the algorithm is one of ${HASHES.slice(1).join(', ')}.`);
      return createHmac(algorithm, String(key)).update(String(text)).digest('hex');
    },
    httpRequest(method, url, body, headers) {
      restricted('httpRequest');
      return callMain(job, 'httpRequest', [method, url, body ?? null, headers ?? {}]);
    },
    getBucketValue: (bucketId, key, playerId) =>
      callMain(job, 'getBucketValue', [bucketId, key, playerId ?? null]),
    // Actions need no answer: the script goes on while the server takes them, in order.
    action(fn, options) {
      rpc.postMessage({ id: job.id, call: 'action', args: [fn, options], oneWay: true });
    },
  };
}

/** What the script may call with JSON arguments, each a host function on `beacon` (log shows any value). */
const HELPERS = [
  'encodeBase64',
  'decodeBase64',
  'generateRandomBytes',
  'generateUuidV4',
  'generateUuidV5',
  'generateUuidV7',
  'hash',
  'hmac',
  'httpRequest',
  'getBucketValue',
];
const ACTIONS = Object.entries(actions).filter(([fn]) => fn !== 'stopProcessing');

/** An action's options: given as one object, or positionally in the catalogue's order. */
function optionsOf(names, args) {
  if (args.length === 1 && args[0] !== null && typeof args[0] === 'object' && !Array.isArray(args[0]))
    return args[0];
  return Object.fromEntries(names.map((n, i) => [n, args[i]]).filter(([, v]) => v !== undefined));
}

/**
 * Builds `beacon` and `console` in the sandbox, all from the host side: one host function per
 * helper and action, the run's data, frozen. Building them with JavaScript run in the sandbox cost
 * more than most scripts do, for the parsing alone. Arguments and answers cross as JSON text, with
 * the sandbox's own JSON functions taken before the script could replace them: nothing of one
 * side is reachable from the other.
 */
function buildBeacon(vm, job, helpers, onLimit) {
  const held = [];
  const hold = (h) => {
    held.push(h);
    return h;
  };
  /** Every handle made here: if building fails half-way (out of memory), those alive are let go. */
  const made = [];
  const make = (h) => {
    made.push(h);
    return h;
  };
  try {
    return build();
  } catch (e) {
    for (const h of made) if (h.alive) h.dispose();
    throw e;
  }

  function build() {
    const take = (owner, name) => make(vm.getProp(owner, name));
    const json = take(vm.global, 'JSON');
    const object = take(vm.global, 'Object');
    const stringify = hold(take(json, 'stringify'));
    const parse = hold(take(json, 'parse'));
    const freezeFn = hold(take(object, 'freeze'));
    const string = hold(take(vm.global, 'String'));
    json.dispose();
    object.dispose();
    const call = (fn, arg) => vm.unwrapResult(vm.callFunction(fn, vm.undefined, arg));
    const freeze = (h) => call(freezeFn, h).dispose();
    const fromVm = (handle) => {
      const text = call(stringify, handle);
      const value = vm.typeof(text) === 'string' ? JSON.parse(vm.getString(text)) : undefined;
      text.dispose();
      return value;
    };
    const toVm = (value) => {
      if (value === undefined) return vm.undefined;
      const text = vm.newString(JSON.stringify(value));
      try {
        return call(parse, text);
      } finally {
        text.dispose();
      }
    };
    /** How console.log shows a value: text as it is, what JSON cannot say as String says it. */
    const show = (handle) => {
      const type = vm.typeof(handle);
      if (type === 'string') return vm.getString(handle);
      const viaString = ['undefined', 'function', 'symbol', 'bigint'].includes(type);
      let text;
      try {
        text = call(viaString ? string : stringify, handle);
      } catch {
        text = call(string, handle);
      }
      const shown = vm.getString(text);
      text.dispose();
      return shown;
    };
    const beacon = make(vm.newObject());
    const define = (owner, name, fn) => {
      const f = make(
        vm.newFunction(name, (...handles) => {
          try {
            return fn(...handles);
          } catch (e) {
            if (e instanceof LimitError) onLimit(e.kind);
            throw e instanceof LimitError ? new Error(`limit: ${e.kind}`) : e;
          }
        }),
      );
      vm.setProp(owner, name, f);
      return f;
    };
    for (const name of HELPERS)
      define(beacon, name, (...handles) => toVm(helpers[name](...handles.map(fromVm)))).dispose();
    for (const [fn, names] of ACTIONS)
      define(beacon, fn, (...handles) =>
        toVm(helpers.action(fn, optionsOf(names, handles.map(fromVm)))),
      ).dispose();
    define(beacon, 'stopProcessing', () => {
      throw vm.newString(STOP);
    }).dispose();
    const log = define(beacon, 'log', (...handles) => toVm(helpers.log(handles.map(show).join(' '))));
    for (const [name, value] of Object.entries(job.beacon)) {
      const v = make(toVm(value));
      if (name === 'params' || name === 'eventData') freeze(v);
      vm.setProp(beacon, name, v);
      v.dispose();
    }
    freeze(beacon);
    vm.defineProp(vm.global, 'beacon', { value: beacon, enumerable: true });
    beacon.dispose();
    const consoleObject = make(vm.newObject());
    for (const name of ['log', 'info', 'warn', 'error']) vm.setProp(consoleObject, name, log);
    log.dispose();
    freeze(consoleObject);
    vm.defineProp(vm.global, 'console', { value: consoleObject });
    consoleObject.dispose();
    // The functions taken live as long as the context; they are let go with it.
    return () => {
      for (const h of held) h.dispose();
    };
  }
}

function describe(vm, handle) {
  const e = vm.dump(handle);
  if (e === STOP) return { stop: true };
  if (e && typeof e === 'object') {
    const name = typeof e.name === 'string' ? e.name : 'Error';
    const message = typeof e.message === 'string' ? e.message : JSON.stringify(e);
    if (name === 'InternalError' && /interrupted/.test(message)) return { kind: 'time' };
    if (/out of memory|string too long|invalid (string|array) length/.test(message))
      return { kind: 'memory' };
    if (name === 'RangeError' && /stack overflow|call stack/i.test(message)) return { kind: 'stack' };
    if (name === 'InternalError' && /stack overflow/.test(message)) return { kind: 'stack' };
    return { kind: 'error', message: `${name}: ${message}` };
  }
  if (e === null && handle) return { kind: 'memory' };
  return { kind: 'error', message: `Uncaught ${JSON.stringify(e) ?? String(e)}` };
}

function run(job) {
  const output = { lines: [], bytes: 0, exceeded: false };
  const helpers = localHelpers(job, output);
  const runtime = QuickJS.newRuntime();
  runtime.setMemoryLimit(job.limits.memoryBytes);
  runtime.setMaxStackSize(job.limits.stackBytes);
  // The account's script time (budget.ts) is running time, waits for the server left out.
  runtime.setInterruptHandler(() => {
    const now = Date.now();
    if (now - job.started - job.waited > job.busyMs) job.outOfBudget = true;
    job.interrupted = job.outOfBudget || now > job.deadline;
    return job.interrupted;
  });
  const vm = runtime.newContext();
  /** A limit hit inside a host call: kept, because the script may catch the error it throws. */
  let limit = null;
  let outcome;
  let release = () => {};
  try {
    release = buildBeacon(vm, job, helpers, (kind) => {
      limit ??= kind;
    });
    const result = vm.evalCode(`${job.common}\n;\n${job.code}`, 'script.js');
    if (result.error) {
      outcome = describe(vm, result.error);
      result.error.dispose();
    } else {
      result.value.dispose();
      outcome = { kind: 'ok' };
    }
  } catch (e) {
    // The runtime itself gave up (memory exhausted while building an error, for one).
    outcome = {
      kind: /memory/i.test(String(e?.message)) ? 'memory' : 'error',
      message: String(e?.message ?? e),
    };
  }
  try {
    release();
    vm.dispose();
    runtime.dispose();
  } catch {
    // A runtime stopped mid-allocation may not free cleanly; the thread is replaced if it breaks.
  }
  if (outcome.stop) outcome = { kind: 'ok' };
  if (limit && outcome.kind !== 'ok') outcome = { kind: limit };
  // Interrupted, the runtime may fail in ways of its own ("interrupted" from a host call under way):
  // whichever, the run ended because it was stopped.
  if (job.interrupted && outcome.kind !== 'ok' && !limit)
    outcome = { kind: job.outOfBudget ? 'budget' : 'time' };
  if (output.exceeded) outcome = { kind: 'output' };
  return {
    ...outcome,
    output: output.lines.join('\n'),
    usedRestricted: job.usedRestricted === true,
    elapsedMs: Date.now() - job.started - job.waited,
  };
}

// The result goes the way of the run's calls, so it arrives after all of them.
parentPort.on('message', (job) => {
  job.started = Date.now();
  job.waited = 0;
  job.deadline = job.started + job.limits.timeMs;
  rpc.postMessage({ id: job.id, done: true, ...run(job) });
});
parentPort.postMessage({ ready: true });
