// The RCON worker (app.ts `rconWorker`): a worker thread running another node of the cluster on
// the same PostgreSQL, which holds every RCON lease, so polling never runs on the thread that
// answers requests. What it stores reaches this process's consoles over the bus, as a second
// server process's would; commands reach it the same way (connector.ts `forwardedCommands`).

import type { CreateServerOptions } from '../../app.ts';
import { startThread } from '../../offThread.ts';

/** What the worker's own server is made from: this server's options that a thread can receive. */
export type WorkerOptions = Omit<CreateServerOptions, 'paymentProcessor' | 'port' | 'host' | 'rconWorker'>;

export type WorkerMessage = { type: 'ready' } | { type: 'closed' } | { type: 'failed'; message: string };

export interface RconWorker {
  /** Takes leases now rather than at the next renewal (a server was just added or changed). */
  renew(): void;
  close(): Promise<void>;
}

/** Starts the worker's server; resolves once it listens and renews leases. */
export function startRconWorker(options: WorkerOptions): Promise<RconWorker> {
  const worker = startThread(new URL('./workerEntry.ts', import.meta.url), options);
  worker.on('error', (e) => console.error('rcon: the worker failed:', e));
  const next = () =>
    new Promise<WorkerMessage>((resolve, reject) => {
      const exited = (code: number) => reject(new Error(`the RCON worker exited (${code})`));
      worker.once('exit', exited);
      worker.once('message', (m: WorkerMessage) => {
        worker.off('exit', exited);
        resolve(m);
      });
    });
  return next().then((m) => {
    if (m.type !== 'ready') {
      void worker.terminate();
      throw new Error(`the RCON worker did not start: ${m.type === 'failed' ? m.message : m.type}`);
    }
    let closing: Promise<void> | null = null;
    return {
      renew: () => worker.postMessage({ type: 'renew' }),
      close() {
        closing ??= (async () => {
          const closed = next().catch(() => undefined);
          worker.postMessage({ type: 'close' });
          await closed;
          await worker.terminate();
        })();
        return closing;
      },
    };
  });
}
