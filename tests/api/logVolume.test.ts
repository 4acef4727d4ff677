// The log volume chart's counts: lines per level per step under the log list's own filters (a
// level, an event, words), only of servers the caller may read, a group-wide line once, and what
// is refused.

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, signIn, signInStranger, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
let owner: string;
let serviceId: string;
/** A round moment far before the demo's own lines, so the span holds only these. */
const T0 = 1_600_000_000;

beforeAll(async () => {
  t = await startTestServer();
  owner = (await signIn(t.base)).access_token;
  serviceId = t.demo.servers[0].serviceId;
  // step 0 (T0…T0+60): two Informational joins and a Warning; step 2: an Error; a line at the
  // span's end is outside it; a group-wide line's repeat is not counted.
  for (const [at, level, event, message, repeat] of [
    [5, 'Informational', 'playerJoined', 'Bob joined the server', false],
    [59, 'Informational', 'playerJoined', 'Ann joined the server', false],
    [30, 'Warning', 'serverStatus', 'the saves are slow', false],
    [150, 'Error', 'serverStatus', 'the saves failed', false],
    [150, 'Error', 'serverStatus', 'the saves failed', true],
    [180, 'Error', 'serverStatus', 'after the end', false],
  ] as const)
    await t.server.db.query(
      `INSERT INTO log_messages (message_id, service_id, event_name, type, level, time, metadata, message, group_repeat)
       VALUES ($1, $2, $3, 'Service', $4, to_timestamp($5), '{}', $6, $7)`,
      [randomUUID(), serviceId, event, level, T0 + at, message, repeat],
    );
});
afterAll(() => t?.close());

const ask = (token: string, query: string) =>
  call(t.base, token, 'GET', `/sentinel/logMessages/volume?serviceId=${serviceId}&${query}`);

it('counts lines per level per step, least severe first, the end excluded', async () => {
  const r = await ask(owner, `since=${T0}&until=${T0 + 180}&step=60`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body).toEqual({
    since: T0,
    until: T0 + 180,
    step: 60,
    levels: [
      { level: 'Informational', counts: [2, 0, 0] },
      { level: 'Warning', counts: [1, 0, 0] },
      { level: 'Error', counts: [0, 0, 1] },
    ],
  });
});

it('applies the list’s filters: level, event, words', async () => {
  const span = `since=${T0}&until=${T0 + 180}&step=60`;
  expect((await ask(owner, `${span}&level=Error`)).body.levels).toEqual([
    { level: 'Error', counts: [0, 0, 1] },
  ]);
  expect((await ask(owner, `${span}&eventName=playerJoined`)).body.levels).toEqual([
    { level: 'Informational', counts: [2, 0, 0] },
  ]);
  expect(
    (await ask(owner, `${span}&message=saves`)).body.levels.map((l: { level: string }) => l.level),
  ).toEqual(['Warning', 'Error']);
});

it('picks a step of about 120 bars when none is asked', async () => {
  const r = await ask(owner, `since=${T0}&until=${T0 + 86_400}`);
  expect(r.body.step).toBe(900);
  expect(r.body.levels[0].counts).toHaveLength(96);
});

it('counts nothing of a server the caller cannot read', async () => {
  const stranger = await signInStranger(t);
  const r = await ask(stranger, `since=${T0}&until=${T0 + 180}&step=60`);
  expect(r.status).toBe(200);
  expect(r.body.levels).toEqual([]);
});

it('refuses a span it cannot count', async () => {
  const field = async (q: string) => (await ask(owner, q)).body.details?.field;
  expect(await field('until=5')).toBe('since');
  expect(await field(`since=${T0}&until=${T0}`)).toBe('since');
  expect(await field(`since=${T0}&until=-1`)).toBe('until');
  expect(await field(`since=${T0}&until=${T0 + 60}&step=0.5`)).toBe('step');
  expect(await field(`since=${T0}&until=${T0 + 86_400}&step=1`)).toBe('step');
  expect((await ask(owner, `since=${T0}&until=${T0 + 86_400}&step=1`)).body.message).toBe(
    'That step is too small for the span: at most 2000 steps.',
  );
});
