// Scripts bench (issue 14): a game server sends chat events up the link at 1,000 a second while
// 100 consoles read its log list at 2 requests a second each. In turn, no script is attached, a
// Simple one, or a JavaScript one (one condition, one action: the line contains "ping", send
// chat). Measures the runs a second, p50 and p99 from sending an event to its chat command
// reaching the game, and the log list's p99 in each case. Target: 1,000 runs a second with p99
// under 100 ms, and the log list under 50 ms p99 on PostgreSQL.
//
// The API server runs in a process of its own (bench/api/serve.ts, 200,000 log lines); this
// process plays the game end of the link and the consoles. Cases run in the order none, Simple,
// JavaScript, JavaScript, Simple, none, so the machine's drift does not favour one. Each case
// starts with events for WARM_UP_SECONDS, unmeasured: the sandbox threads start on the first
// JavaScript run, and a server that has been up a while has its statements prepared.
//
// Isolation: then an endless loop, a 1 GB allocation, a deep recursion and an escape attempt run
// once each, as JavaScript on a chat event: how long until each one's run line is written (ended
// by its limit) and the API's p99 for 100 consoles meanwhile, against the same with nothing
// running.
import WebSocket from 'ws';
import { runClients } from '../api/clients.mjs';
import { busyBetween, startBenchServer } from '../api/server.mjs';
import { api } from '../lib/api.mjs';
import { percentile, round } from '../lib/stats.mjs';

export const needsBrowser = false;
export const TARGETS = { runsPerSecond: 1000, p99Ms: 100, logListP99Ms: 50 };
const RATE = 1000;
const CLIENTS = 100;
const CLIENT_RATE = 2;
const WARM_UP_SECONDS = 3;
const DRAIN_MS = 30_000;
const ORDER = ['none', 'Simple', 'JavaScript', 'JavaScript', 'Simple', 'none'];

/** Hostile scripts, each to end by its limit while the API goes on answering. */
const HOSTILE = {
  endlessLoop: 'while (true) {}',
  allocation1GB: 'new ArrayBuffer(1024 ** 3);',
  deepRecursion: 'function f(n) { return f(n + 1) + 1; } f(0);',
  escapeAttempt: "(function () {}).constructor('return process')().exit(1);",
};
const ISOLATION_SECONDS = 4;

const CODE = {
  Simple: JSON.stringify({
    conditions: [{ field: 'message', operator: 'contains', value: 'ping' }],
    actions: [{ type: 'sendChat', options: { message: 'pong' } }],
  }),
  JavaScript: "if (beacon.eventData.message.includes('ping')) beacon.sendChat('pong');",
};

/** The game end of the link: sends chat events, answers commands, and times each command. */
async function gameLink(server) {
  const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}/v4/sentinel/link`);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  let seq = 0;
  /** The events of the phase being measured, by their number in it: when each was sent. */
  let sentAt = [];
  let latencies = [];
  const welcomed = new Promise((resolve) =>
    ws.on('message', (raw) => {
      const f = JSON.parse(raw.toString());
      if (f.type === 'welcome') resolve();
      if (f.type !== 'command') return;
      ws.send(JSON.stringify({ type: 'commandResult', seq: f.seq, ok: true, result: null }));
      // Runs take their events in order, so the nth command answers the nth event.
      const at = sentAt[latencies.length];
      if (at !== undefined) latencies.push(performance.now() - at);
    }),
  );
  ws.send(JSON.stringify({ type: 'hello', accessKey: server.accessKeys[0], protocol: 1 }));
  await welcomed;
  /** A player says `word` and the event's number in chat. */
  const say = (word) => {
    seq += 1;
    ws.send(
      JSON.stringify({
        type: 'event',
        seq,
        event: {
          eventName: 'chat',
          time: Date.now() / 1000,
          type: 'Gameplay',
          level: 'Informational',
          message: `Bench: ${word} ${seq}`,
          metadata: { originalMessage: `${word} ${seq}`, senderName: 'Bench', source: 'Game' },
        },
      }),
    );
  };
  return {
    /** Sends RATE events a second for `seconds`; resolves with their command latencies once answered. */
    async send(seconds, answered) {
      sentAt = [];
      latencies = [];
      const total = RATE * seconds;
      const started = performance.now();
      for (let i = 0; i < total; i++) {
        const wait = started + (i * 1000) / RATE - performance.now();
        if (wait > 1) await new Promise((r) => setTimeout(r, wait));
        sentAt.push(performance.now());
        say('ping');
      }
      const sendSeconds = (performance.now() - started) / 1000;
      if (answered)
        for (const end = Date.now() + DRAIN_MS; latencies.length < total && Date.now() < end; )
          await new Promise((r) => setTimeout(r, 50));
      return { sent: total, latencies, seconds: Math.max(sendSeconds, (performance.now() - started) / 1000) };
    },
    /** One chat event, unanswered. */
    one: () => say('hostile'),
    close: () => ws.close(),
  };
}

/** The consoles asking for the signed-in user (the API's cheapest answer) for `seconds`. */
const askUser = (server, seconds, latencies) =>
  runClients({
    url: server.url,
    token: server.token,
    path: () => '/v4/user',
    clients: CLIENTS,
    ratePerClient: CLIENT_RATE,
    seconds,
    latencies,
  });

/**
 * Each hostile script run once on one event: how long until its run line is written, its error,
 * and the API's p99 meanwhile against the same request with nothing running.
 */
async function isolation(server, game, serviceId, log) {
  const quietUser = [];
  await askUser(server, ISOLATION_SECONDS, quietUser);
  const figures = { quietUserP99Ms: round(percentile(quietUser, 0.99)) };
  for (const [name, code] of Object.entries(HOSTILE)) {
    const made = await api(server, 'POST', '/sentinel/scripts', {
      name: `Bench ${name}`,
      events: [{ language: 'JavaScript', context: 'chat', code }],
    });
    const attached = await api(server, 'POST', '/sentinel/serviceScripts', {
      serviceId,
      scriptId: made.created[0].scriptId,
      parameterValues: {},
    });
    const busyUser = [];
    const started = performance.now();
    game.one();
    const ended = (async () => {
      for (const end = Date.now() + 30_000; Date.now() < end; ) {
        const page = await api(
          server,
          'GET',
          `/sentinel/logMessages?serviceId=${serviceId}&eventName=scriptRun&pageSize=1`,
        );
        const line = page.results[0];
        if (line?.metadata.scriptName === `Bench ${name}`)
          return { endedMs: round(performance.now() - started), error: line.metadata.error };
        await new Promise((r) => setTimeout(r, 20));
      }
      return { endedMs: null, error: 'no run line within 30 s' };
    })();
    const [run] = await Promise.all([ended, askUser(server, ISOLATION_SECONDS, busyUser)]);
    figures[name] = { ...run, userP99Ms: round(percentile(busyUser, 0.99)) };
    log(`    ${name}: ended in ${run.endedMs} ms (${run.error}); API p99 ${figures[name].userP99Ms} ms`);
    await api(
      server,
      'DELETE',
      `/sentinel/serviceScripts/${attached.created?.[0]?.serviceScriptId ?? attached.serviceScriptId}`,
    );
  }
  return figures;
}

/**
 * Waits until the API thread is quiet (busy under 20 % for a second): a case that fell behind
 * leaves lines to write and publish, which would be the next case's load.
 */
async function settle(server) {
  for (const end = Date.now() + 60_000; Date.now() < end; ) {
    const before = await server.elu();
    await new Promise((r) => setTimeout(r, 1000));
    if (busyBetween(before, await server.elu()) < 20) return;
  }
}

/** The cases, on the default install's database. */
async function measure(quick, log) {
  const seconds = quick ? 5 : 10;
  const server = await startBenchServer({
    BENCH_LOG_ROWS: quick ? '20000' : '200000',
    BENCH_SERVERS: '1',
    BENCH_SIMULATE: '0',
  });
  const game = await gameLink(server);
  const serviceId = server.serviceIds[0];
  const scripts = {};
  for (const language of ['Simple', 'JavaScript']) {
    const made = await api(server, 'POST', '/sentinel/scripts', {
      name: `Bench pong ${language}`,
      events: [{ language, context: 'chat', code: CODE[language] }],
    });
    scripts[language] = made.created[0].scriptId;
  }
  const pooled = Object.fromEntries(
    ORDER.map((c) => [c, { runs: [], sent: 0, seconds: 0, logList: [], busy: [] }]),
  );
  let isolated = null;
  try {
    for (const kase of ORDER) {
      let attachment = null;
      if (kase !== 'none') {
        const attached = await api(server, 'POST', '/sentinel/serviceScripts', {
          serviceId,
          scriptId: scripts[kase],
          parameterValues: {},
        });
        attachment = attached.created?.[0]?.serviceScriptId ?? attached.serviceScriptId;
      }
      const answered = kase !== 'none';
      await settle(server);
      await game.send(WARM_UP_SECONDS, answered);
      const p = pooled[kase];
      const reads = [];
      const before = await server.elu();
      const [events] = await Promise.all([
        game.send(seconds, answered),
        runClients({
          url: server.url,
          token: server.token,
          path: () => `/v4/sentinel/logMessages?serviceId=${serviceId}&pageSize=100`,
          clients: CLIENTS,
          ratePerClient: CLIENT_RATE,
          seconds,
          latencies: reads,
        }),
      ]);
      p.runs.push(...events.latencies);
      p.sent += events.sent;
      p.seconds += events.seconds;
      p.logList.push(...reads);
      p.busy.push(busyBetween(before, await server.elu()));
      if (attachment) await api(server, 'DELETE', `/sentinel/serviceScripts/${attachment}`);
      log(
        `    ${kase}: thread busy ${p.busy.at(-1)} %, log list p99 ${round(percentile(reads, 0.99))} ms` +
          (answered ? `, runs p99 ${round(percentile(events.latencies, 0.99))} ms` : ''),
      );
    }
    await settle(server);
    isolated = await isolation(server, game, serviceId, log);
  } finally {
    game.close();
    await server.stop();
  }
  const cases = Object.fromEntries(
    Object.entries(pooled).map(([kase, p]) => [
      kase,
      {
        ...(kase === 'none'
          ? {}
          : {
              sent: p.sent,
              answered: p.runs.length,
              runsPerSecond: Math.round(p.runs.length / p.seconds),
              p50Ms: round(percentile(p.runs, 0.5)),
              p99Ms: round(percentile(p.runs, 0.99)),
            }),
        logListP50Ms: round(percentile(p.logList, 0.5)),
        logListP99Ms: round(percentile(p.logList, 0.99)),
        logListRequests: p.logList.length,
        // The API thread's busy share in each of the case's two phases, %.
        threadBusy: p.busy,
      },
    ]),
  );
  return { ...cases, isolation: isolated };
}

export async function run({ quick, log }) {
  return { postgres: await measure(quick, log) };
}

export function table(figures) {
  return Object.entries(figures).flatMap(([db, { isolation, ...cases }]) => [
    ...Object.entries(cases).map(([kase, f]) => ({
      bench: 'scripts',
      case: `${kase} (${db})`,
      'runs/s': f.runsPerSecond,
      'p50 ms': f.p50Ms,
      'p99 ms': f.p99Ms,
      'log list p99 ms': f.logListP99Ms,
      'log list p99 vs none': round(f.logListP99Ms / cases.none.logListP99Ms),
      'API thread busy %': f.threadBusy.join(', '),
      target: `${TARGETS.runsPerSecond}/s, p99 < ${TARGETS.p99Ms} ms; log list < ${TARGETS.logListP99Ms} ms`,
    })),
    ...Object.entries(HOSTILE).map(([name]) => ({
      bench: 'scripts',
      case: `${name} (${db})`,
      'ended in ms': isolation?.[name]?.endedMs,
      'API p99 ms (quiet)': `${isolation?.[name]?.userP99Ms} (${isolation?.quietUserP99Ms})`,
      target: 'ends by its limit; the API answers',
    })),
  ]);
}
