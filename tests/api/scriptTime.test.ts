// Script time and the queue (src/server/scripts/sandbox/budget.ts, engine.ts): an account whose
// runs used up its time has its queued runs wait for time to come back, not refused one by one.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { queueWebhook } from '../../src/server/routes/webhook.ts';
import { handlersFor } from '../../src/server/scripts/handlers.ts';
import { call, signIn, startTestServer, type TestServer, until } from './helpers.ts';

let t: TestServer;
let owner: string;
let serviceId: string;

beforeAll(async () => {
  // 0.3 s saved at most, earned at 6 s a minute: 3 s after a cut before a run may start again.
  t = await startTestServer({ scripts: { queuePollMs: 50, burstSeconds: 0.3 } });
  owner = (await signIn(t.base)).access_token;
  serviceId = t.demo.servers[0]!.serviceId;
}, 60_000);
afterAll(() => t?.close());

async function attachWebhook(name: string, keyword: string, code: string): Promise<void> {
  const made = await call(t.base, owner, 'POST', '/sentinel/scripts', {
    name,
    events: [{ language: 'JavaScript', context: 'webhook', keyword, arguments: [], code }],
  });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  const attached = await call(t.base, owner, 'POST', '/sentinel/serviceScripts', {
    serviceId,
    scriptId: made.body.created[0].scriptId,
    parameterValues: {},
  });
  expect(attached.status, JSON.stringify(attached.body)).toBe(200);
}

const queue = async (keyword: string) =>
  queueWebhook(
    t.server.db,
    serviceId,
    await handlersFor(t.server.db, serviceId, { context: 'webhook', keyword }),
    {},
  );

/** The first run of a script: its log line's metadata and when it was written (ms). */
const firstRun = (scriptName: string) =>
  until(`a run of ${scriptName}`, async () => {
    const { rows } = await t.server.db.query<{ metadata: Record<string, unknown>; at: number }>(
      `SELECT metadata, extract(epoch FROM time) * 1000 AS at FROM log_messages
        WHERE event_name = 'scriptRun' AND metadata->>'scriptName' = $1 ORDER BY time LIMIT 1`,
      [scriptName],
    );
    return rows[0];
  });

it("keeps an out-of-time account's queued runs queued until it has time again, then runs them", async () => {
  await attachWebhook('Looper', 'loop', 'while (true) {}');
  await attachWebhook('Hello', 'hello', "console.log('hello')");
  await queue('loop');
  const cut = await firstRun('Looper');
  expect(cut.metadata.error).toMatch(/^Scripts run for this account have used their running time/);
  await queue('hello');
  const hello = await firstRun('Hello');
  // Not refused: it waited in the queue for the account's time, and ran.
  expect(hello.metadata).toMatchObject({ outcome: 'success', output: 'hello' });
  expect(Number(hello.at) - Number(cut.at)).toBeGreaterThanOrEqual(2_500);
});
