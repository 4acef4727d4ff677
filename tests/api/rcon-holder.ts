// A server process for tests/api/rconScaleout.test.ts to kill: the API server on the shared
// PostgreSQL schema with fast RCON leases. Prints its node id once listening, then runs until killed.
//   node --import tsx tests/api/rcon-holder.ts <databaseUrl> <schema>

import { createServer } from '../../src/server/app.ts';
import { RCON_TEST_TIMINGS } from './rconTimings.ts';

const [databaseUrl, dbSchema] = process.argv.slice(2);
const server = await createServer({
  databaseUrl,
  dbSchema,
  staticDir: '/nonexistent',
  rconKey: 'scaleout-key',
  rconTimings: RCON_TEST_TIMINGS,
  outboundAllow: ['127.0.0.1'],
});
const { rows } = await server.db.query<{ node_id: string }>(
  'SELECT node_id FROM cluster_nodes ORDER BY started DESC LIMIT 1',
);
process.stdout.write(`ready ${rows[0].node_id}\n`);
