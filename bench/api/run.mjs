// API bench (issue 3): the log list with 1,000,000 log messages and 50 simulated game servers
// linked, under 100 concurrent clients: a service filter, the time sort and a text search, each
// against the baseline of an authenticated request that reads next to nothing (`GET /v4/user`),
// on the default install (its embedded PostgreSQL server). Target: p99 under 50 ms.
//
// Two loads, each reported: `clients` is 100 consoles, each sending its next request a think
// time after the last answer (exponential, mean 500 ms: a reader paging twice a second), and the
// target is held against it; `closed` is autocannon with 100 connections each sending the instant
// the last answer arrives, which measures the machine's capacity: at that load p99 ≈ 100 /
// throughput, so under 50 ms needs 2,000+ requests per second, and on 2 cores the baseline request
// alone, which reads next to nothing, stays above 50 ms there.
import autocannon from 'autocannon';
import { ratio, round } from '../lib/stats.mjs';
import { runClients } from './clients.mjs';
import { startBenchServer } from './server.mjs';

export const needsBrowser = false;
export const TARGETS = { p99Ms: 50 };
const CONNECTIONS = 100;
/** Requests per second per console client. */
const CLIENT_RATE = 2;
const WARM_UP_SECONDS = 3;

function scenarios(serviceIds) {
  let n = 0;
  const pick = () => serviceIds[n++ % serviceIds.length];
  return {
    baseline: () => '/v4/user',
    serviceFilter: () => `/v4/sentinel/logMessages?serviceId=${pick()}&pageSize=100`,
    timeSort: () => '/v4/sentinel/logMessages?sortedColumn=time&sortDirection=descending&pageSize=100',
    textSearch: () =>
      `/v4/sentinel/logMessages?message=${['metal', 'turret', 'volcano', 'swamp'][n++ % 4]}&pageSize=100`,
  };
}

function closedLoop(url, token, path, seconds) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        connections: CONNECTIONS,
        duration: seconds,
        headers: { authorization: `Bearer ${token}` },
        // A slow answer is a latency to report, not an error to drop.
        timeout: 60,
        requests: [{ setupRequest: (req) => ({ ...req, path: path() }) }],
      },
      (err, r) =>
        err
          ? reject(err)
          : resolve({
              p50Ms: r.latency.p50,
              p99Ms: r.latency.p99,
              maxMs: r.latency.max,
              requestsPerSecond: round(r.requests.average),
              requests: r.requests.total,
              errors: r.errors + r.non2xx,
            }),
    );
  });
}

const clients = (url, token, path, seconds) =>
  runClients({ url, token, path, clients: CONNECTIONS, ratePerClient: CLIENT_RATE, seconds });

/** Requests still queued from the last scenario would be charged to the next: wait them out. */
async function settle(url, token) {
  const end = Date.now() + 120_000;
  while (Date.now() < end) {
    const t0 = performance.now();
    await (await fetch(`${url}/v4/user`, { headers: { authorization: `Bearer ${token}` } })).arrayBuffer();
    if (performance.now() - t0 < 100) return;
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function onBackend(name, env, opts) {
  opts.log(`  ${name}: loading ${opts.rows.toLocaleString()} log messages…`);
  const server = await startBenchServer({ BENCH_LOG_ROWS: String(opts.rows), BENCH_SERVERS: '50', ...env });
  try {
    const out = { loadSeconds: round(server.loadMs / 1000) };
    const paths = Object.entries(scenarios(server.serviceIds));
    // Connections, prepared statements and kept estimates as a server that has been up a while.
    for (const [, path] of paths) await clients(server.url, server.token, path, WARM_UP_SECONDS);
    // Every scenario under the consoles' load first, then each at capacity: a closed loop leaves
    // the game servers' events queued behind it, and the next scenario's consoles would be timed
    // while that queue drains rather than as a server that has been up a while.
    for (const [model, measure] of [
      ['clients', clients],
      ['closed', closedLoop],
    ]) {
      for (const [scenario, path] of paths) {
        out[scenario] ??= {};
        await settle(server.url, server.token);
        const r = await measure(server.url, server.token, path, opts.seconds);
        out[scenario][model] = r;
        opts.log(
          `  ${name} ${scenario} ${model}: p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, ${r.requestsPerSecond} req/s`,
        );
      }
    }
    for (const s of ['serviceFilter', 'timeSort', 'textSearch'])
      for (const model of ['clients', 'closed'])
        out[s][model].p99VsBaseline = ratio(out[s][model].p99Ms, out.baseline[model].p99Ms);
    Object.assign(out, await server.memory());
    return out;
  } finally {
    await server.stop();
  }
}

export async function run({ quick, log }) {
  const opts = { rows: 1_000_000, seconds: quick ? 5 : 15, log };
  const figures = {
    rows: opts.rows,
    servers: 50,
    connections: CONNECTIONS,
    clientRequestsPerSecond: CLIENT_RATE,
    seconds: opts.seconds,
    targets: TARGETS,
  };
  figures.postgres = await onBackend('PostgreSQL (embedded)', {}, opts);
  return figures;
}

export function table(f) {
  const rows = [];
  for (const backend of ['postgres']) {
    for (const model of ['clients', 'closed'])
      for (const s of ['baseline', 'serviceFilter', 'timeSort', 'textSearch']) {
        const x = f[backend][s][model];
        rows.push({
          bench: `api ${backend} ${model} ${s}`,
          p50: `${x.p50Ms} ms`,
          p99: `${x.p99Ms} ms`,
          target: s === 'baseline' || model === 'closed' ? '' : `< ${TARGETS.p99Ms} ms`,
          'vs baseline': x.p99VsBaseline === undefined ? '' : `${x.p99VsBaseline}×`,
          'req/s': x.requestsPerSecond,
          errors: x.errors,
        });
      }
    rows.push({
      bench: `api ${backend} peak memory (Node + database)`,
      p50: `${f[backend].peakRssMiB} + ${f[backend].databasePeakMiB} MiB`,
    });
  }
  return rows;
}
