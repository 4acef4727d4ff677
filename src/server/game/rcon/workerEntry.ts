// The RCON worker thread (worker.ts): a server on the same database that holds the RCON leases.
// Its HTTP port is its own, on the loopback, and unused: consoles and game links reach the
// process that started it.

import { parentPort, workerData } from 'node:worker_threads';
import { createServer, type RunningServer } from '../../app.ts';
import { lowerThisThread } from '../../offThread.ts';
import type { WorkerMessage, WorkerOptions } from './worker.ts';

// Polling is background work with seconds to spare.
lowerThisThread(10);

const port = parentPort!;
const say = (m: WorkerMessage) => port.postMessage(m);

let server: RunningServer;
try {
  server = await createServer({ ...(workerData as WorkerOptions), host: '127.0.0.1', port: 0 });
} catch (e) {
  say({ type: 'failed', message: (e as Error).message });
  process.exit(1);
}
port.on('message', async (m: { type: 'renew' | 'close' }) => {
  if (m.type === 'renew') void server.rcon.renew();
  else {
    await server.close();
    say({ type: 'closed' });
  }
});
say({ type: 'ready' });
