import { readFileSync } from 'node:fs';
import { runClients } from './api/clients.mjs';

const s = JSON.parse(readFileSync('/tmp/dp/server.json', 'utf8'));
const PAGE = 'sortedColumn=dinoDisplayName&sortDirection=ascending&pageSize=100';
const STATUSES = ['Deployed,Frozen,Uploaded', 'Dead', 'Frozen', 'Deployed'];
let n = 0;
const pick = (list) => encodeURIComponent(list[(n++ * 7919) % list.length]);
const d = s.dinos;
const all = {
  baseline: () => '/v4/user',
  species: () => `/v4/sentinel/dinos?dinoSpecies=${pick(d.species.slice(0, 60))}&${PAGE}`,
  status: () => `/v4/sentinel/dinos?dinoStatus=${pick(STATUSES)}&${PAGE}`,
  tribe: () => `/v4/sentinel/dinos?tribeId=${pick(d.tribeIds)}&${PAGE}`,
  server: () => `/v4/sentinel/dinos?serviceId=${pick(s.serviceIds)}&${PAGE}`,
  nameSearch: () => `/v4/sentinel/dinos?dinoName=${pick(d.names)}&${PAGE}`,
  paletteName: () =>
    `/v4/sentinel/dinos?dinoName=${pick(d.names).slice(0, 3 + (n % 4))}&sortedColumn=dinoDisplayName&pageSize=20`,
};
const only = process.argv[2]?.split(',') ?? Object.keys(all);
const secs = Number(process.argv[3] ?? 5);
for (const k of only) {
  await runClients({ url: s.url, token: s.token, path: all[k], clients: 100, ratePerClient: 2, seconds: 2 });
  const r = await runClients({
    url: s.url,
    token: s.token,
    path: all[k],
    clients: 100,
    ratePerClient: 2,
    seconds: secs,
  });
  console.log(k, 'p50', r.p50Ms, 'p99', r.p99Ms, 'rps', r.requestsPerSecond, 'err', r.errors);
}
