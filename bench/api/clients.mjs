// Console-like clients: each of N clients waits a think time drawn from an exponential
// distribution (mean 1/rate seconds), sends one request, waits for its answer, and so on, over
// keep-alive connections of its own. autocannon models the other extreme, every connection
// sending its next request the instant the last one returns; its rate options send each second's
// requests in one burst at the top of the second, which measures the burst rather than the
// clients.
import { Agent, request } from 'node:http';
import { percentile, round } from '../lib/stats.mjs';

/** @typedef {{ p50Ms: number, p99Ms: number, maxMs: number, requestsPerSecond: number, requests: number, errors: number }} ClientFigures */

/**
 * The figures of answered requests' latencies over `seconds` of clients.
 * @returns {ClientFigures}
 */
export const summarize = (latencies, seconds, errors) => ({
  p50Ms: round(percentile(latencies, 0.5)),
  p99Ms: round(percentile(latencies, 0.99)),
  maxMs: round(Math.max(0, ...latencies)),
  // Per second of the run: the clients still thinking when it ends do not stretch it.
  requestsPerSecond: round(latencies.length / seconds),
  requests: latencies.length,
  errors,
});

/**
 * `latencies`, when given, also gets every answered request's latency (to pool several runs).
 * `tokens`, when given, are the clients' own (client i sends tokens[i % length]), else all send `token`.
 * @param {{ url: string, token: string, tokens?: string[], path: () => string, clients: number, ratePerClient: number, seconds: number, latencies?: number[] }} o
 * @returns {Promise<ClientFigures>}
 */
export async function runClients(o) {
  const agent = new Agent({ keepAlive: true, maxSockets: o.clients });
  const target = new URL(o.url);
  const latencies = [];
  let errors = 0;
  const end = Date.now() + o.seconds * 1000;
  const think = () =>
    new Promise((r) => setTimeout(r, (-Math.log(1 - Math.random()) / o.ratePerClient) * 1000));
  const once = (token) =>
    new Promise((resolve) => {
      const t0 = performance.now();
      const req = request(
        {
          agent,
          host: target.hostname,
          port: target.port,
          path: o.path(),
          headers: { authorization: `Bearer ${token}` },
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            if (res.statusCode === 200) latencies.push(performance.now() - t0);
            else errors += 1;
            resolve();
          });
        },
      );
      req.on('error', () => {
        errors += 1;
        resolve();
      });
      req.end();
    });
  await Promise.all(
    Array.from({ length: o.clients }, async (_, i) => {
      const token = o.tokens?.length ? o.tokens[i % o.tokens.length] : o.token;
      for (;;) {
        await think();
        if (Date.now() >= end) return;
        await once(token);
      }
    }),
  );
  agent.destroy();
  o.latencies?.push(...latencies);
  return summarize(latencies, o.seconds, errors);
}
