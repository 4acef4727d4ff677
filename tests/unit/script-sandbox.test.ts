// The JavaScript sandbox: the beacon object, actions and buckets through the host, and hostile
// scripts (endless loop, huge allocation, deep recursion, escapes to the host, huge output)
// each ended by their limit while the main thread keeps running.

import { afterAll, expect, it } from 'vitest';
import { createScriptTimeBudget } from '../../src/server/scripts/sandbox/budget.ts';
import {
  createSandboxPool,
  type SandboxHost,
  type SandboxJob,
} from '../../src/server/scripts/sandbox/pool.ts';

const pool = createSandboxPool(2);
afterAll(() => pool.close());

const calls: unknown[][] = [];
const host: SandboxHost = {
  async action(fn, options) {
    calls.push([fn, options]);
    if (fn === 'kickPlayer' && !options.playerId) throw new Error('Kick player needs playerId.');
    return null;
  },
  async getBucketValue(_bucketId, key) {
    return key === 'visits' ? '41' : null;
  },
  async httpRequest() {
    return { status: 200, headers: {}, body: 'pong' };
  },
};

const job = (code: string, over: Partial<SandboxJob> = {}): SandboxJob => ({
  actorId: 'owner-1',
  code,
  common: '',
  beacon: {
    serviceId: 's1',
    serviceName: 'Island',
    serviceNickname: 'Isle',
    serviceChatName: 'ISL',
    params: { greeting: 'Hi' },
    gameEvent: 'chat',
    eventData: { playerName: 'Ann', playerId: 'p1' },
    now: 1_700_000_000,
  },
  allowRestricted: false,
  ...over,
});

it('gives the beacon object, actions (positional or as options) and buckets through the host', async () => {
  calls.length = 0;
  const r = await pool.run(
    job(
      `const n = Number(beacon.getBucketValue('b', 'visits', beacon.eventData.playerId)) + 1;
       beacon.sendChat(greet() + ' ' + beacon.eventData.playerName + ' #' + n);
       beacon.giveItem({ characterId: 'c1', itemPath: '/Game/X.X_C', quantity: 2 });
       console.log(beacon.serviceName, beacon.gameEvent, beacon.decodeBase64(beacon.encodeBase64('ü')));
       beacon.stopProcessing();
       beacon.kickPlayer('p1');`,
      { common: 'function greet() { return beacon.params.greeting; }' },
    ),
    host,
  );
  expect(r).toMatchObject({ kind: 'ok', output: 'Island chat ü' });
  expect(calls).toEqual([
    ['sendChat', { message: 'Hi Ann #42' }],
    ['giveItem', { characterId: 'c1', itemPath: '/Game/X.X_C', quantity: 2 }],
  ]);
});

it('ends the run with an action the server refused, once the script is done', async () => {
  const r = await pool.run(job(`beacon.kickPlayer(); console.log('went on');`), host);
  expect(r).toMatchObject({ kind: 'error', message: 'Kick player needs playerId.', output: 'went on' });
});

it('keeps restricted members for reviewed scripts', async () => {
  const refused = await pool.run(job('beacon.generateUuidV4()'), host);
  expect(refused).toMatchObject({ kind: 'error', usedRestricted: true });
  expect(refused.message).toMatch(/needs the script to be reviewed/);
  const allowed = await pool.run(
    job(
      `console.log(beacon.hash('sha256', 'a').length, beacon.generateUuidV7().length, beacon.httpRequest('GET', 'https://x').body)`,
      {
        allowRestricted: true,
      },
    ),
    host,
  );
  expect(allowed).toMatchObject({ kind: 'ok', output: '64 36 pong' });
});

it.each([
  ['an endless loop', 'while (true) {}', 'time'],
  ['a 1 GB allocation', 'new ArrayBuffer(1024 ** 3)', 'memory'],
  ['a huge array', 'new Array(2 ** 27).fill(0)', 'memory'],
  ['a huge string', "let s = 'x'; for (;;) s += s;", 'memory'],
  ['an allocation that never ends', 'const a = []; for (;;) a.push(new Array(1e6).fill(1));', 'time'],
  ['a deep recursion', 'function f(n) { return f(n + 1) + 1; } f(0);', 'stack'],
  ['huge output', "for (;;) console.log('x'.repeat(1000));", 'output'],
  [
    'caught huge output',
    // Ten times the 64 KB limit, every refusal after it caught: the script goes on to its end.
    "for (let i = 0; i < 1e3; i++) try { console.log('x'.repeat(1000)); } catch {}",
    'output',
  ],
])('ends %s by its limit', async (_name, code, kind) => {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 20);
  const started = Date.now();
  // Time is wall time, so another limit is tested with time to spare however busy the machine:
  // 500 ms once ran out before the output did, on a loaded CI run.
  const r = await pool.run(job(code, { limits: { timeMs: kind === 'time' ? 500 : 30_000 } }), host);
  clearInterval(timer);
  expect(r.kind).toBe(kind);
  const took = Date.now() - started;
  // The main thread kept its timers running the whole time.
  if (took > 200) expect(ticks).toBeGreaterThan(took / 20 / 4);
});

it.each([
  ['require', 'typeof require + typeof process + typeof fetch + typeof globalThis.__host + typeof Buffer'],
  ['constructor escape', "(function(){}).constructor('return typeof process')()"],
  ['prototype tricks', "Object.getPrototypeOf(beacon.sendChat).constructor('return typeof require')()"],
  [
    'frozen beacon',
    "(() => { beacon.serviceId = 'other'; beacon.sendChat = null; return beacon.serviceId; })()",
  ],
])('reaches nothing of the host: %s', async (_name, code) => {
  const r = await pool.run(job(`console.log(${code})`), host);
  expect(r.kind).toBe('ok');
  expect(r.output).toMatch(/^(undefined)+$|^s1$/);
});

it('starts each run fresh: nothing carries over from the last one', async () => {
  await pool.run(job('globalThis.leak = 42; Object.prototype.polluted = 1;'), host);
  const r = await pool.run(job('console.log(typeof leak, ({}).polluted)'), host);
  expect(r.output).toBe('undefined undefined');
});

it("gives each run's actions to that run's host, with runs handed to the threads ahead of time", async () => {
  const seen = Array.from({ length: 40 }, () => [] as unknown[]);
  const results = await Promise.all(
    seen.map((calls, i) =>
      pool.run(job(`beacon.sendChat('m${i}'); beacon.sendChat('n${i}'); console.log(${i})`), {
        ...host,
        async action(fn, options) {
          calls.push([fn, options.message]);
          return null;
        },
      }),
    ),
  );
  results.forEach((r, i) => {
    expect(r).toMatchObject({ kind: 'ok', output: String(i) });
    expect(seen[i]).toEqual([
      ['sendChat', `m${i}`],
      ['sendChat', `n${i}`],
    ]);
  });
});

it('still runs what was handed to a thread behind a run that reaches its limit', async () => {
  const single = createSandboxPool(1);
  try {
    const loop = single.run(job('while (true) {}', { limits: { timeMs: 300 } }), host);
    const after = [1, 2, 3].map((i) => single.run(job(`console.log(${i})`), host));
    expect((await loop).kind).toBe('time');
    expect((await Promise.all(after)).map((r) => [r.kind, r.output])).toEqual([
      ['ok', '1'],
      ['ok', '2'],
      ['ok', '3'],
    ]);
  } finally {
    await single.close();
  }
});

it("never hands a run ahead behind another actor's run, which may go on for its whole limit", async () => {
  const two = createSandboxPool(2);
  try {
    // Both threads started first, so no run below waits for a thread to start.
    await Promise.all([two.run(job('1'), host), two.run(job('2'), host)]);
    const ended: string[] = [];
    const track = (name: string, r: Promise<unknown>) => r.then(() => ended.push(name));
    // Both threads busy: one with a loop to its limit, one with another actor's short run.
    const loop = track('loop', two.run(job('while (true) {}', { limits: { timeMs: 1_500 } }), host));
    const short = track(
      'short',
      two.run(job('const end = Date.now() + 100; while (Date.now() < end) {}', { actorId: 'owner-2' }), host),
    );
    const other = track('other', two.run(job('console.log(1)', { actorId: 'owner-3' }), host));
    await Promise.all([loop, short, other]);
    expect(ended.indexOf('other')).toBeLessThan(ended.indexOf('loop'));
  } finally {
    await two.close();
  }
});

it("never takes a late answer for a later call's", async () => {
  const single = createSandboxPool(1);
  try {
    const r = await single.run(
      job(
        `let first;
         try { beacon.getBucketValue('b', 'slow'); } catch (e) { first = e.message; }
         console.log(first, beacon.getBucketValue('b', 'quick'));`,
        { limits: { callMs: 400 } },
      ),
      {
        ...host,
        // The slow read answers after its call gave up, and just before the quick one's answer.
        async getBucketValue(_bucketId, key) {
          if (key === 'slow') await new Promise((r) => setTimeout(r, 600));
          return `${key} value`;
        },
      },
    );
    expect(r).toMatchObject({
      kind: 'ok',
      output: 'The server did not answer getBucketValue within 0.4 seconds. quick value',
    });
  } finally {
    await single.close();
  }
});

it("ends a run when its actor's script time runs out, refuses the next, and runs another actor's", async () => {
  let t = 0;
  const budget = createScriptTimeBudget({ secondsPerMinute: 6, burstSeconds: 0.3, now: () => t });
  const metered = createSandboxPool(1, budget);
  try {
    const loop = await metered.run(job('while (true) {}'), host);
    // Cut at its actor's 0.3 s, long before the run's own limit of 2 s.
    expect(loop.kind).toBe('budget');
    expect(loop.message).toMatch(
      /^Scripts run for this account have used their running time \(6 seconds a minute\); they run again in \d+ s\.$/,
    );
    const refused = await metered.run(job('console.log(1)'), host);
    expect(refused).toMatchObject({ kind: 'budget', output: '' });
    expect(await metered.run(job('console.log(2)', { actorId: 'owner-2' }), host)).toMatchObject({
      kind: 'ok',
      output: '2',
    });
    t += 60_000;
    expect(await metered.run(job('console.log(3)'), host)).toMatchObject({ kind: 'ok', output: '3' });
  } finally {
    await metered.close();
  }
});
