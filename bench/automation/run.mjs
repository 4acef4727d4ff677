// Automation flood bench (issue 33): 100 consoles, each an account of its own, read `GET /v4/user`
// twice a second each while one user (the demo owner) floods the script tester with a
// catastrophic pattern (`^(a+)+$` against 40 a's and `!`, one test after another, the tester
// taking one per user) and keeps 8 endless runs queued (a webhook script that loops until its 2 s
// limit or until the owner's script time runs out, fired through the server's webhook and topped
// up as they end, counting only the calls the server took; a phase without the flood starts once
// the last has run).
// Meanwhile another owner's webhook fires a one-line script twice a second, which writes when it
// ran: its webhook-to-run latency. Phases with and without the flood alternate (with, without,
// without, with, …) so drift is charged to neither. Target: the consoles' p99 during the flood at
// most 1.2× without, in the same run, on the default install, whose rate limit the flood goes on
// sending into; and the same with no rate limit on the account, the tester's own (60 tests a
// minute per account) then the only one the flood meets.
import { createHmac } from 'node:crypto';
import { request } from 'node:http';
import { runClients } from '../api/clients.mjs';
import { startBenchServer } from '../api/server.mjs';
import { alternatingPhases, repeat } from '../lib/phases.mjs';
import { percentile, ratio, round } from '../lib/stats.mjs';

export const needsBrowser = false;
export const TARGETS = { p99Ratio: 1.2 };
const CLIENTS = 100;
const CLIENT_RATE = 2;
const ENDLESS_RUNS = 8;
const WEBHOOK_WINDOW_SECONDS = 30;
/** The other owner's webhook, per second. */
const PROBE_RATE = 2;
/** Where the flood's webhook calls and the other owner's come from: two addresses of the loopback. */
const FLOOD_ADDRESS = '127.0.0.1';
const OTHER_ADDRESS = '127.0.0.2';

/** The server webhook's signature (SENTINEL-API §2.3), as src/server/routes/webhook.ts checks it. */
const signature = (key, body) =>
  createHmac('sha256', key)
    .update(`POST\n${Math.floor(Date.now() / 1000 / WEBHOOK_WINDOW_SECONDS)}\n${body.trim()}`)
    .digest('hex');

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

/** The default install's requests a minute per account and application (src/server/app.ts). */
const DEFAULT_RATE_LIMIT = 600;

export async function run({ quick, log }) {
  log(`  the default install's rate limit (${DEFAULT_RATE_LIMIT} requests a minute per account):`);
  const limited = await floodPhases({ quick, log, rateLimit: DEFAULT_RATE_LIMIT });
  log("  no rate limit on the account (the tester's own only):");
  const unlimited = await floodPhases({ quick, log, rateLimit: null });
  return { ...limited, unlimited, targets: TARGETS };
}

/**
 * One server, its flood limited by `rateLimit` (null: none; the consoles, an account each, stay
 * far below any): the phases and their figures.
 */
async function floodPhases({ quick, log, rateLimit }) {
  const rounds = quick ? 1 : 3;
  const seconds = quick ? 8 : 15;
  const server = await startBenchServer({
    BENCH_LOG_ROWS: '10000',
    BENCH_SERVERS: '2',
    BENCH_USERS: String(CLIENTS + 1),
    ...(rateLimit === null ? {} : { BENCH_RATE_LIMIT: String(rateLimit) }),
  });
  const consoleTokens = server.userTokens.slice(0, CLIENTS);
  const otherOwner = server.userTokens[CLIENTS];
  const call = async (token, method, path, body, ok = [412]) => {
    const res = await fetch(`${server.url}/v4${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300 && !ok.includes(res.status))
      throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  /** A webhook script of `token`'s on their server `serviceId`. */
  const attach = async (token, serviceId, event) => {
    const made = await call(token, 'POST', '/sentinel/scripts', {
      name: event.keyword,
      events: [{ language: 'JavaScript', context: 'webhook', ...event }],
    });
    await call(token, 'POST', '/sentinel/serviceScripts', {
      serviceId,
      scriptId: made.body.created[0].scriptId,
      parameterValues: {},
    });
  };
  /**
   * Fires a webhook from `from` (webhooks are counted per address, and another owner's caller is
   * another machine than the flood's); true when the server took it (a flood meets the limit).
   */
  const fire = (serviceId, accessKey, hook, from = FLOOD_ADDRESS) =>
    new Promise((resolve, reject) => {
      const req = request(
        `${server.url}/v4/sentinel/services/${serviceId}/webhook`,
        {
          method: 'POST',
          localAddress: from,
          headers: { authorization: `HmacSHA256 ${signature(accessKey, hook)}` },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode >= 200 && res.statusCode < 300));
        },
      );
      req.on('error', reject);
      req.end(hook);
    });
  try {
    const owner = server.token;
    await attach(owner, server.serviceIds[0], { keyword: 'spin', arguments: [], code: 'while (true) {}' });
    const otherService = (
      await call(otherOwner, 'POST', '/sentinel/services', {
        gameId: 'ArkSA',
        name: 'Another owner’s island',
        platform: 'PC',
        languages: ['en'],
      })
    ).body.created[0].serviceId;
    const otherKey = (await call(otherOwner, 'GET', `/sentinel/services/${otherService}`)).body.accessKey;
    await attach(otherOwner, otherService, {
      keyword: 'hello',
      arguments: [{ name: 'seq', type: 'Number', default: 0, required: false }],
      code: "console.log(beacon.params.seq + ' ' + Date.now())",
    });
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
        token: owner,
        tokens: consoleTokens,
        path: () => '/v4/user',
        clients: CLIENTS,
        ratePerClient: CLIENT_RATE,
        seconds: s,
        latencies,
      });
    /** Each probe's send time (epoch ms) and phase (null: the warm-up), by its sequence number. */
    const probes = new Map();
    const probe = async (s, working) => {
      const end = Date.now() + s * 1000;
      while (Date.now() < end) {
        const seq = probes.size + 1;
        probes.set(seq, { sent: Date.now(), working });
        await fire(
          otherService,
          otherKey,
          JSON.stringify({ webhook: 'hello', parameters: { seq } }),
          OTHER_ADDRESS,
        );
        await sleep(1000 / PROBE_RATE);
      }
    };
    let tests = 0;
    /** Tests refused because the last was still running (412). */
    let refused = 0;
    /** Tests refused past the rate limit or the tests a minute (429), the flood going on regardless. */
    let limited = 0;
    const testOnce = async () => {
      const { status } = await call(owner, 'POST', '/sentinel/scriptTests', catastrophic, [412, 429]);
      if (status === 200) tests += 1;
      else if (status === 429) limited += 1;
      else refused += 1;
    };
    // Eight endless runs queued or running at a time, topped up as they end (each leaves a line).
    let fired = 0;
    // Read from the database: over the API, these reads would count against the owner's limit.
    const ended = () => server.scriptRuns(server.serviceIds[0]);
    const spin = async () => {
      const more = Math.max(0, ENDLESS_RUNS - (fired - (await ended())));
      const hook = JSON.stringify({ webhook: 'spin' });
      const taken = await Promise.all(
        Array.from({ length: more }, () => fire(server.serviceIds[0], server.accessKeys[0], hook)),
      );
      fired += taken.filter(Boolean).length;
      await sleep(500);
    };
    const flood = () => {
      const stops = [repeat(testOnce), repeat(spin)];
      return async () => {
        await Promise.all(stops.map((stop) => stop()));
        // What is still queued is the flood's: the next phase starts once it has run.
        while ((await ended()) < fired) await sleep(500);
      };
    };
    // Warmed as a server that has been up a while and has run scripts: the first runs start the
    // sandbox threads (the other owner's first run waited 0.7 s for one).
    const warm = flood();
    await Promise.all([consoles(3), probe(3, null)]);
    await warm();
    const { without: w, during: d } = await alternatingPhases({
      rounds,
      seconds,
      measure: async (s, latencies, working) =>
        (await Promise.all([consoles(s, latencies), probe(s, working)]))[0],
      work: flood,
      names: ['flooding', 'quiet'],
      log,
    });
    const webhook = await webhookLatencies(call, otherOwner, otherService, probes);
    return {
      rateLimit,
      clients: CLIENTS,
      rounds,
      seconds,
      without: w,
      during: d,
      p99Ratio: ratio(d.p99Ms, w.p99Ms),
      testsDuringFlood: tests,
      testsRefusedDuringFlood: refused,
      testsRateLimitedDuringFlood: limited,
      otherOwnerWebhook: webhook,
    };
  } finally {
    await server.stop();
  }
}

/**
 * The other owner's webhook-to-run latency, with and without the flood, from its runs' log lines
 * (each says which probe it ran and when): p50/p99 ms and how many probes never ran.
 */
async function webhookLatencies(call, token, serviceId, probes) {
  // The last probes' runs are written a moment after their phase ends.
  const deadline = Date.now() + 10_000;
  const ran = new Map();
  while (ran.size < probes.size && Date.now() < deadline) {
    for (let page = 1; ; page++) {
      const { body } = await call(
        token,
        'GET',
        `/sentinel/logMessages?serviceId=${serviceId}&eventName=scriptRun&pageSize=250&page=${page}`,
      );
      for (const line of body.results) {
        const [seq, at] = String(line.metadata.output).trim().split(' ').map(Number);
        if (probes.has(seq)) ran.set(seq, at - probes.get(seq).sent);
      }
      if (body.results.length < 250) break;
    }
    if (ran.size < probes.size) await sleep(500);
  }
  const of = (working) => {
    const sent = [...probes].filter(([, p]) => p.working === working);
    const ms = sent.filter(([seq]) => ran.has(seq)).map(([seq]) => ran.get(seq));
    return {
      probes: sent.length,
      p50Ms: round(percentile(ms, 0.5)),
      p99Ms: round(percentile(ms, 0.99)),
      neverRan: sent.length - ms.length,
    };
  };
  return { during: of(true), without: of(false) };
}

export function table(f) {
  return [
    ...floodRows(f, `the default install (${f.rateLimit} requests a minute per account)`),
    ...floodRows(f.unlimited, "no rate limit on the account (the tester's own only)"),
  ];
}

function floodRows(f, limit) {
  const hook = (x) =>
    `${x.p50Ms} / ${x.p99Ms} ms${x.neverRan ? ` (${x.neverRan} of ${x.probes} never ran)` : ''}`;
  return [
    {
      bench: `${limit}: consoles, no automation flood`,
      p50: `${f.without.p50Ms} ms`,
      p99: `${f.without.p99Ms} ms`,
    },
    {
      bench: `${limit}: consoles during a tester flood (${f.testsDuringFlood} catastrophic-pattern tests run, ${f.testsRefusedDuringFlood} refused while one ran, ${f.testsRateLimitedDuringFlood} past a limit) and 8 endless runs`,
      p50: `${f.during.p50Ms} ms`,
      p99: `${f.during.p99Ms} ms`,
      'vs baseline': `${f.p99Ratio}×`,
      target: `≤ ${TARGETS.p99Ratio}×`,
    },
    {
      bench: `${limit}: another owner's webhook to run, p50 / p99, no flood`,
      p50: hook(f.otherOwnerWebhook.without),
    },
    {
      bench: `${limit}: another owner's webhook to run, p50 / p99, during the flood`,
      p50: hook(f.otherOwnerWebhook.during),
    },
  ];
}
