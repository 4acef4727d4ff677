// The consoles of bench/api/clients.mjs, on a thread of their own: a bench's other work (building
// a 30,000-line ban list, a flood of tests, 500 game servers) ran on the thread that timed the
// consoles' answers, and its turns were counted as the server's latency.
import { Agent, request } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

/** @type {{ url: string, tokens: string[], paths: string[], clients: number, ratePerClient: number, seconds: number }} */
const o = workerData;
const agent = new Agent({ keepAlive: true, maxSockets: o.clients });
const target = new URL(o.url);
const latencies = [];
let errors = 0;
let sent = 0;
const started = Date.now();
let end = started + o.seconds * 1000;
// A phase that lasts as long as some work is stopped by its starter: the clients still thinking
// send nothing more.
parentPort.on('message', (m) => {
  if (m === 'stop') end = Date.now();
});
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
        path: o.paths[sent++ % o.paths.length],
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
    const token = o.tokens[i % o.tokens.length];
    for (;;) {
      await think();
      if (Date.now() >= end) return;
      await once(token);
    }
  }),
);
agent.destroy();
// The seconds the clients were sending for: not the think times of the last ones, after it.
parentPort.postMessage({ latencies, errors, seconds: (end - started) / 1000 });
parentPort.close();
