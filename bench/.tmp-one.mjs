import { readFileSync } from 'node:fs';

const s = JSON.parse(readFileSync('/tmp/dp/server.json', 'utf8'));
const PAGE = 'sortedColumn=dinoDisplayName&sortDirection=ascending&pageSize=100';
const path =
  process.argv[2] === 'species'
    ? (v) => `/v4/sentinel/dinos?dinoSpecies=${encodeURIComponent(v)}&${PAGE}`
    : (v) => `/v4/sentinel/dinos?dinoName=${encodeURIComponent(v)}&${PAGE}`;
const list = process.argv[2] === 'species' ? s.dinos.species.slice(0, 60) : s.dinos.names;
const times = [];
for (let round = 0; round < 3; round++)
  for (const v of list) {
    const t0 = performance.now();
    const j = await (
      await fetch(s.url + path(v), { headers: { authorization: `Bearer ${s.token}` } })
    ).json();
    if (round > 0) times.push([performance.now() - t0, v, j.totalResults]);
  }
times.sort((a, b) => a[0] - b[0]);
const q = (f) => times[Math.floor(f * (times.length - 1))][0].toFixed(1);
console.log(
  'p50',
  q(0.5),
  'p90',
  q(0.9),
  'max',
  q(1),
  times
    .slice(-3)
    .map((t) => t[1] + ':' + t[2])
    .join(' '),
);
