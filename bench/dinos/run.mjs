// Dino list bench (issue 13 "Scale"): 1,000,000 dinos over 50 simulated game servers
// (bench/dinos/seed.ts), 100 console clients (bench/api/clients.mjs: each sends its next request a
// think time after the last answer, two a second), the dino list sorted by display name under each
// filter (species, status, tribe, server, name search) and the palette's bounded dino search, each
// against the baseline request of the same run (`GET /v4/user`), on the default install's PostgreSQL.
// Target: p99 under 50 ms on PostgreSQL. Then the list view scrolling the million in Chromium
// (bench/dinos/scroll.mjs). The machine's load average is recorded beside the figures: it is shared.
import os from 'node:os';
import { runClients } from '../api/clients.mjs';
import { startBenchServer } from '../api/server.mjs';
import { ratio, round } from '../lib/stats.mjs';
import { SCROLL_TARGETS, scrollBench } from './scroll.mjs';

export const needsBrowser = false;
export const TARGETS = { p99Ms: 50 };
const CLIENTS = 100;
const CLIENT_RATE = 2;
const WARM_UP_SECONDS = 3;
const PAGE = 'sortedColumn=dinoDisplayName&sortDirection=ascending&pageSize=100';
/** What the palette asks for each query it sends (src/web/views/dinos/dinoSearch.ts). */
const PALETTE = 'sortedColumn=dinoDisplayName&pageSize=20';
const STATUSES = ['Deployed,Frozen,Uploaded', 'Dead', 'Frozen', 'Deployed'];

function scenarios(serviceIds, d) {
  let n = 0;
  const pick = (list) => encodeURIComponent(list[(n++ * 7919) % list.length]);
  return {
    baseline: () => '/v4/user',
    species: () => `/v4/sentinel/dinos?dinoSpecies=${pick(d.species.slice(0, 60))}&${PAGE}`,
    status: () => `/v4/sentinel/dinos?dinoStatus=${pick(STATUSES)}&${PAGE}`,
    tribe: () => `/v4/sentinel/dinos?tribeId=${pick(d.tribeIds)}&${PAGE}`,
    server: () => `/v4/sentinel/dinos?serviceId=${pick(serviceIds)}&${PAGE}`,
    nameSearch: () => `/v4/sentinel/dinos?dinoName=${pick(d.names)}&${PAGE}`,
    paletteName: () => `/v4/sentinel/dinos?dinoName=${pick(d.names).slice(0, 3 + (n % 4))}&${PALETTE}`,
    paletteId: () => `/v4/sentinel/dinos?dinoId=${pick(d.dinoIds)}&${PALETTE}`,
  };
}

const clients = (url, token, path, seconds) =>
  runClients({ url, token, path, clients: CLIENTS, ratePerClient: CLIENT_RATE, seconds });

/**
 * Waits until the requests still queued from the scenario before have drained: the clients stop
 * sending when their time is up, but a saturated scenario leaves up to one request per client
 * waiting for the database. A dino page (which waits behind them, as GET /v4/user need not) must
 * answer fast three times running.
 */
async function settle(url, token, dinoId) {
  const end = Date.now() + 120_000;
  let fast = 0;
  while (Date.now() < end && fast < 3) {
    const t0 = performance.now();
    const r = await fetch(`${url}/v4/sentinel/dinos?dinoId=${dinoId}&pageSize=1`, {
      headers: { authorization: `Bearer ${token}` },
    });
    await r.arrayBuffer();
    fast = performance.now() - t0 < 50 ? fast + 1 : 0;
    await new Promise((r) => setTimeout(r, fast ? 100 : 500));
  }
}

async function onBackend(name, env, opts) {
  opts.log(`  ${name}: loading ${opts.rows.toLocaleString('en')} dinos…`);
  const server = await startBenchServer({
    BENCH_LOG_ROWS: '0',
    BENCH_DINO_ROWS: String(opts.rows),
    BENCH_SERVERS: '50',
    ...env,
  });
  try {
    const out = { loadSeconds: round(server.loadMs / 1000), loadAverage: [] };
    const paths = Object.entries(scenarios(server.serviceIds, server.dinos));
    for (const [, path] of paths) await clients(server.url, server.token, path, WARM_UP_SECONDS);
    for (const [scenario, path] of paths) {
      await settle(server.url, server.token, server.dinos.dinoIds[0]);
      const r = await clients(server.url, server.token, path, opts.seconds);
      out[scenario] = r;
      out.loadAverage.push(round(os.loadavg()[0], 2));
      opts.log(`  ${name} ${scenario}: p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, ${r.requestsPerSecond} req/s`);
    }
    for (const [s] of paths)
      if (s !== 'baseline') out[s].p99VsBaseline = ratio(out[s].p99Ms, out.baseline.p99Ms);
    Object.assign(out, await server.memory());
    return out;
  } finally {
    await server.stop();
  }
}

export async function run({ quick, log, rows = Number(process.env.BENCH_DINOS ?? 1_000_000) }) {
  const opts = { rows, seconds: quick ? 5 : 15, log };
  const figures = {
    rows,
    servers: 50,
    clients: CLIENTS,
    clientRequestsPerSecond: CLIENT_RATE,
    seconds: opts.seconds,
    targets: { ...TARGETS, scroll: SCROLL_TARGETS },
  };
  figures.postgres = await onBackend('PostgreSQL (embedded)', {}, opts);
  figures.scroll = await scrollBench({ rows, quick, log });
  return figures;
}

export function table(f) {
  const rows = [];
  for (const backend of ['postgres']) {
    for (const s of Object.keys(f[backend]).filter((k) => f[backend][k]?.p99Ms !== undefined)) {
      const x = f[backend][s];
      rows.push({
        bench: `dinos ${backend} ${s}`,
        p50: `${x.p50Ms} ms`,
        p99: `${x.p99Ms} ms`,
        target: s === 'baseline' ? '' : `< ${TARGETS.p99Ms} ms`,
        'vs baseline': x.p99VsBaseline === undefined ? '' : `${x.p99VsBaseline}×`,
        'req/s': x.requestsPerSecond,
        errors: x.errors,
      });
    }
    rows.push({
      bench: `dinos ${backend} peak memory (Node + database)`,
      p50: `${f[backend].peakRssMiB} + ${f[backend].databasePeakMiB} MiB`,
    });
  }
  const s = f.scroll;
  rows.push({
    bench: `dinos list scroll ${s.rows.toLocaleString('en')}`,
    p50: `frame p95 ${s.frameP95Scroll} / ${s.frameP95Jump} ms (scroll / jump)`,
    p99: `long tasks ${s.longTasksPerRun}/run, max ${s.longTaskMaxMs} ms`,
    target: 'no long task',
  });
  return rows;
}
