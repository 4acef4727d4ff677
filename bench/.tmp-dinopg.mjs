import { writeFileSync } from 'node:fs';
import { startPostgres } from './api/postgres.mjs';
import { startBenchServer } from './api/server.mjs';

const pg = startPostgres('-c shared_buffers=256MB');
const s = await startBenchServer({
  BENCH_LOG_ROWS: '0',
  BENCH_DINO_ROWS: '1000000',
  BENCH_SERVERS: '50',
  BENCH_DATABASE_URL: pg.url,
});
writeFileSync(
  '/tmp/dp/server.json',
  JSON.stringify({
    pg: pg.url,
    url: s.url,
    token: s.token,
    serviceIds: s.serviceIds,
    dinos: {
      species: s.dinos.species.slice(0, 60),
      tribeIds: s.dinos.tribeIds.slice(0, 50),
      names: s.dinos.names.slice(0, 50),
      dinoIds: s.dinos.dinoIds.slice(0, 50),
    },
  }),
);
console.log('ready');
process.on('SIGTERM', async () => {
  await s.stop();
  pg.stop();
  process.exit(0);
});
setInterval(() => {}, 1e9);
