// The signed per-service webhook: a signature of the current (or previous) 30-second window runs
// every matching script event with its defaults overlaid; anything else is the same 404, which
// never contains the expected signature.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { SCRIPT_LIMITS } from '../../src/domain/scripts/limits.ts';
import { QUEUE_FULL } from '../../src/server/model/eventQueue.ts';
import { webhookSignature } from '../../src/server/routes/webhook.ts';
import { call, signIn, startTestServer, type TestServer, until } from './helpers.ts';

let t: TestServer;
let url: string;
let key: string;
let owner: string;
let scriptId: string;

beforeAll(async () => {
  t = await startTestServer();
  owner = (await signIn(t.base)).access_token;
  const [service] = t.demo.servers;
  key = service.accessKey;
  url = `${t.base}/sentinel/services/${service.serviceId}/webhook`;
  const script = await call(t.base, owner, 'POST', '/sentinel/scripts', {
    name: 'Hooked',
    events: [
      {
        language: 'JavaScript',
        context: 'webhook',
        code: 'console.log(JSON.stringify(beacon.params))',
        keyword: 'restart',
        arguments: [
          { name: 'delay', type: 'Number', default: 60, required: false },
          { name: 'reason', type: 'String', default: 'none', required: false },
        ],
      },
    ],
  });
  scriptId = script.body.created[0].scriptId;
  await call(t.base, owner, 'POST', '/sentinel/serviceScripts', {
    serviceId: service.serviceId,
    scriptId,
    parameterValues: {},
  });
});
afterAll(() => t?.close());

const post = (body: string, signature: string, header = 'Authorization') =>
  fetch(url, {
    method: 'POST',
    headers: { [header]: header === 'Authorization' ? `HmacSHA256 ${signature}` : signature },
    body,
  });

/** The script's first run, from its Service log line. */
async function firstRun(): Promise<Record<string, unknown>> {
  for (let i = 0; i < 200; i++) {
    const { rows } = await t.server.db.query<{ metadata: Record<string, unknown> }>(
      `SELECT metadata FROM log_messages WHERE event_name = 'scriptRun' ORDER BY time LIMIT 1`,
    );
    if (rows[0]) return rows[0].metadata;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the webhook did not run');
}

it('runs the webhook handler with its defaults overlaid by the parameters', async () => {
  const body = JSON.stringify({ webhook: 'restart', parameters: { reason: 'patch' } });
  const res = await post(` ${body}\n`, webhookSignature(key, 'POST', body));
  expect(res.status).toBe(204);
  expect(await firstRun()).toMatchObject({
    trigger: 'webhook',
    scriptName: 'Hooked',
    outcome: 'success',
    output: JSON.stringify({ delay: 60, reason: 'patch' }),
  });
});

/** How many script runs the Service log holds. */
async function runCount(): Promise<number> {
  const { rows } = await t.server.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM log_messages WHERE event_name = 'scriptRun'`,
  );
  return rows[0].n;
}

it('accepts X-Beacon-Token and the previous window, not older ones', async () => {
  const body = JSON.stringify({ webhook: 'restart' });
  const before = await runCount();
  expect((await post(body, webhookSignature(key, 'POST', body), 'X-Beacon-Token')).status).toBe(204);
  expect((await post(body, webhookSignature(key, 'POST', body, Date.now() - 30_000))).status).toBe(204);
  expect((await post(body, webhookSignature(key, 'POST', body, Date.now() - 90_000))).status).toBe(404);
  // Both accepted calls run; waiting for their lines keeps them out of the next test's count.
  await until('both runs written', async () => (await runCount()) >= before + 2);
  expect(await runCount()).toBe(before + 2);
});

it('answers a bad signature, an unknown server and an unknown webhook alike, leaking nothing', async () => {
  const body = JSON.stringify({ webhook: 'restart' });
  const expected = webhookSignature(key, 'POST', body);
  const bad = await post(body, webhookSignature('another-key', 'POST', body));
  const text = await bad.text();
  expect(bad.status).toBe(404);
  expect(text).not.toContain(expected);
  expect(JSON.parse(text)).toEqual({
    type: 'beacon.error',
    code: 'notFound',
    message: 'No webhook matches this request.',
    details: null,
  });
  const unknown = JSON.stringify({ webhook: 'nothing' });
  expect((await post(unknown, webhookSignature(key, 'POST', unknown))).status).toBe(404);
  const otherService = await fetch(url.replace(t.demo.servers[0].serviceId, t.demo.servers[2].serviceId), {
    method: 'POST',
    headers: { Authorization: `HmacSHA256 ${expected}` },
    body,
  });
  expect(otherService.status).toBe(404);
});

it('refuses a signed body that is not a webhook call', async () => {
  for (const body of ['not json', '[]', '{"webhook": 3}', '{"webhook":"restart","parameters":[]}']) {
    const res = await post(body, webhookSignature(key, 'POST', body));
    expect(res.status).toBe(400);
    expect((await res.json()).code).toBe('badRequestBody');
  }
});

it("runs a script's own webhook, signed with its secret, until the secret is rotated", async () => {
  const made = await call(t.base, owner, 'POST', `/sentinel/scripts/${scriptId}/webhooks`, {
    purpose: 'CI deploys',
  });
  expect(made.body).toMatchObject({ purpose: 'CI deploys', secret: expect.any(String) });
  expect(made.body.url).toBe(`${t.server.url}/v4/sentinel/scriptWebhooks/${made.body.webhookId}`);
  expect(
    (await call(t.base, owner, 'POST', `/sentinel/scripts/${scriptId}/webhooks`, { purpose: ' ' })).body.code,
  ).toBe('badPurpose');
  const body = JSON.stringify({ webhook: 'restart', parameters: { reason: 'deploy' } });
  const send = (secret: string) =>
    fetch(made.body.url, {
      method: 'POST',
      headers: { Authorization: `HmacSHA256 ${webhookSignature(secret, 'POST', body)}` },
      body,
    });
  const before = await runCount();
  expect((await send(made.body.secret)).status).toBe(204);
  let output: string | undefined;
  for (let i = 0; i < 100 && output === undefined; i++) {
    const { rows } = await t.server.db.query<{ output: string }>(
      `SELECT metadata->>'output' AS output FROM log_messages WHERE event_name = 'scriptRun' ORDER BY time`,
    );
    if (rows.length > before) output = rows.at(-1)?.output;
    else await new Promise((r) => setTimeout(r, 50));
  }
  expect(output).toBe(JSON.stringify({ delay: 60, reason: 'deploy' }));
  const rotated = await call(
    t.base,
    owner,
    'POST',
    `/sentinel/scripts/${scriptId}/webhooks/${made.body.webhookId}/secret`,
  );
  expect(rotated.body.secret).not.toBe(made.body.secret);
  expect((await send(made.body.secret)).status).toBe(404);
  expect((await send(rotated.body.secret)).status).toBe(204);
  const listed = await call(t.base, owner, 'GET', `/sentinel/scripts/${scriptId}/webhooks`);
  expect(listed.body.webhooks).toEqual([{ ...rotated.body }]);
});

it('refuses a call once the server has its most runs waiting, and takes one again when they have run', async () => {
  const [service] = t.demo.servers;
  // Runs due in an hour fill the queue: nothing drains them meanwhile.
  await t.server.db.query(
    `INSERT INTO service_event_queue (service_id, event_data, queue_time)
     SELECT $1, '{"event":"webhook"}', now() + interval '1 hour' FROM generate_series(1, $2)`,
    [service.serviceId, SCRIPT_LIMITS.queuedPerServer],
  );
  const body = JSON.stringify({ webhook: 'restart', parameters: {} });
  const refused = await post(body, webhookSignature(key, 'POST', body));
  expect(refused.status).toBe(429);
  expect(refused.headers.get('retry-after')).toBe('10');
  expect((await refused.json()).message).toBe(QUEUE_FULL);
  const { rows } = await t.server.db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM service_event_queue WHERE service_id = $1',
    [service.serviceId],
  );
  expect(rows[0].n).toBe(SCRIPT_LIMITS.queuedPerServer);

  await t.server.db.query("DELETE FROM service_event_queue WHERE queue_time > now() + interval '30 minutes'");
  expect((await post(body, webhookSignature(key, 'POST', body))).status).toBe(204);
});
