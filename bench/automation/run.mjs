// Automation flood bench (issue 33): 100 consoles read `GET /v4/user` twice a second each while one
// user floods the script tester with a catastrophic pattern (`^(a+)+$` against 40 a's and `!`,
// one test after another, the tester taking one per user) and keeps 8 endless runs queued (a
// webhook script that loops until its 2 s limit, fired through the server's webhook); phases with
// and without the flood alternate (with, without, without, with, …) so drift is charged to
// neither. Target: the consoles' p99 during the flood at most 1.2× without, in the same run.
// Not measured here: another owner's webhook-to-run latency (the bench server has one owner;
// tests/api/scriptEngine.test.ts shows another owner's run starting while eight loops wait).
import { createHmac } from 'node:crypto';
import { runClients } from '../api/clients.mjs';
import { startBenchServer } from '../api/server.mjs';
import { alternatingPhases, repeat } from '../lib/phases.mjs';
import { ratio } from '../lib/stats.mjs';

export const needsBrowser = false;
export const TARGETS = { p99Ratio: 1.2 };
const CLIENTS = 100;
const CLIENT_RATE = 2;
const ENDLESS_RUNS = 8;
const WEBHOOK_WINDOW_SECONDS = 30;

/** The server webhook's signature (SENTINEL-API §2.3), as src/server/routes/webhook.ts checks it. */
const signature = (key, body) =>
  createHmac('sha256', key)
    .update(`POST\n${Math.floor(Date.now() / 1000 / WEBHOOK_WINDOW_SECONDS)}\n${body.trim()}`)
    .digest('hex');

export async function run({ quick, log }) {
  const rounds = quick ? 1 : 3;
  const seconds = quick ? 8 : 15;
  const server = await startBenchServer({ BENCH_LOG_ROWS: '10000', BENCH_SERVERS: '2' });
  const call = async (method, path, body) => {
    const res = await fetch(`${server.url}/v4${path}`, {
      method,
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300 && res.status !== 412)
      throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  try {
    const made = await call('POST', '/sentinel/scripts', {
      name: 'Endless',
      events: [
        {
          language: 'JavaScript',
          context: 'webhook',
          keyword: 'spin',
          arguments: [],
          code: 'while (true) {}',
        },
      ],
    });
    await call('POST', '/sentinel/serviceScripts', {
      serviceId: server.serviceIds[0],
      scriptId: made.body.created[0].scriptId,
      parameterValues: {},
    });
    const hook = JSON.stringify({ webhook: 'spin' });
    const fire = () =>
      fetch(`${server.url}/v4/sentinel/services/${server.serviceIds[0]}/webhook`, {
        method: 'POST',
        headers: { authorization: `HmacSHA256 ${signature(server.accessKeys[0], hook)}` },
        body: hook,
      }).then((r) => r.arrayBuffer());
    const catastrophic = {
      context: 'chat',
      language: 'Simple',
      chatMessage: `${'a'.repeat(40)}!`,
      code: JSON.stringify({
        conditions: [{ field: 'message', operator: 'regex', value: '^(a+)+$' }],
        actions: [{ type: 'kickPlayer', options: { playerId: '{playerId}' } }],
      }),
    };
    const consoles = (s, latencies) =>
      runClients({
        url: server.url,
        token: server.token,
        path: () => '/v4/user',
        clients: CLIENTS,
        ratePerClient: CLIENT_RATE,
        seconds: s,
        latencies,
      });
    await consoles(3);
    let tests = 0;
    const testOnce = async () => {
      if ((await call('POST', '/sentinel/scriptTests', catastrophic)).status === 200) tests += 1;
    };
    // Eight endless runs queued at a time: another eight each 2 s.
    const spinEight = async () => {
      await Promise.all(Array.from({ length: ENDLESS_RUNS }, fire));
      await new Promise((done) => setTimeout(done, 2_000));
    };
    const { without: w, during: d } = await alternatingPhases({
      rounds,
      seconds,
      measure: consoles,
      work: () => {
        const stops = [repeat(testOnce), repeat(spinEight)];
        return () => Promise.all(stops.map((stop) => stop()));
      },
      names: ['flooding', 'quiet'],
      log,
    });
    return {
      clients: CLIENTS,
      rounds,
      seconds,
      without: w,
      during: d,
      p99Ratio: ratio(d.p99Ms, w.p99Ms),
      testsDuringFlood: tests,
      targets: TARGETS,
    };
  } finally {
    await server.stop();
  }
}

export function table(f) {
  return [
    { bench: 'consoles, no automation flood', p50: `${f.without.p50Ms} ms`, p99: `${f.without.p99Ms} ms` },
    {
      bench: `consoles during a tester flood (${f.testsDuringFlood} catastrophic-pattern tests) and 8 endless runs`,
      p50: `${f.during.p50Ms} ms`,
      p99: `${f.during.p99Ms} ms`,
      'vs baseline': `${f.p99Ratio}×`,
      target: `≤ ${TARGETS.p99Ratio}×`,
    },
  ];
}
