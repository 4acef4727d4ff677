// Console-like clients: each of N clients waits a think time drawn from an exponential
// distribution (mean 1/rate seconds), sends one request, waits for its answer, and so on, over
// keep-alive connections of its own. autocannon models the other extreme, every connection
// sending its next request the instant the last one returns; its rate options send each second's
// requests in one burst at the top of the second, which measures the burst rather than the
// clients.
import { Worker } from 'node:worker_threads';
import { maximum, percentile, round } from '../lib/stats.mjs';

/** @typedef {{ p50Ms: number, p99Ms: number, maxMs: number, requestsPerSecond: number, requests: number, errors: number }} ClientFigures */

/**
 * The figures of answered requests' latencies over `seconds` of clients.
 * @returns {ClientFigures}
 */
export const summarize = (latencies, seconds, errors) => ({
  p50Ms: round(percentile(latencies, 0.5)),
  p99Ms: round(percentile(latencies, 0.99)),
  maxMs: round(maximum(latencies)),
  // Per second of the run: the clients still thinking when it ends do not stretch it.
  requestsPerSecond: round(latencies.length / seconds),
  requests: latencies.length,
  errors,
});

/**
 * The clients' paths are drawn for this many seconds of requests at most. A phase that lasts until
 * some work ends is given forty phases' length (lib/phases.mjs): drawn for all of it, its 240,000
 * paths held by the clients' thread tripled that thread's garbage collection (110–130 collections
 * and about 550 ms of pauses in a 35-s phase, 70–90 of them over 2 ms, against 40, 40 ms and 1–5
 * in a phase of paths for its 35 s), and every answer that came in during a pause was timed late:
 * the bans bench charged that to its imports.
 */
const PATHS_SECONDS = 30;

/**
 * `latencies`, when given, also gets every answered request's latency (to pool several runs).
 * `tokens`, when given, are the clients' own (client i sends tokens[i % length]), else all send `token`.
 * `until`, when given, ends the clients once it settles (`seconds` is then the most they run).
 * The clients run on a thread of their own (clientsThread.mjs), asking `path()`'s paths, drawn
 * before they start, in turn.
 * @param {{ url: string, token: string, tokens?: string[], path: () => string, clients: number, ratePerClient: number, seconds: number, until?: Promise<unknown>, latencies?: number[] }} o
 * @returns {Promise<ClientFigures & { seconds: number }>}
 */
export async function runClients(o) {
  // Twice the requests the clients are expected to send in PATHS_SECONDS at most: more are asked
  // again from the first.
  const expected = Math.ceil(o.clients * o.ratePerClient * Math.min(o.seconds, PATHS_SECONDS));
  const paths = Array.from({ length: 2 * expected + o.clients }, () => o.path());
  const { latencies, errors, seconds } = await new Promise((resolve, reject) => {
    const thread = new Worker(new URL('./clientsThread.mjs', import.meta.url), {
      workerData: {
        url: o.url,
        tokens: o.tokens?.length ? o.tokens : [o.token],
        paths,
        clients: o.clients,
        ratePerClient: o.ratePerClient,
        seconds: o.seconds,
      },
    });
    thread.once('message', resolve);
    thread.once('error', reject);
    const stop = () => thread.postMessage('stop');
    o.until?.then(stop, stop);
  });
  o.latencies?.push(...latencies);
  return { ...summarize(latencies, seconds, errors), seconds };
}
