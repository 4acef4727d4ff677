// A server's population per step from its sessions: the peak of each step, the count carried
// through steps with no join or leave, sessions open at the start, a leave and a join at the same
// moment counted once; who may ask, and what is refused.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, signIn, signInStranger, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
let owner: string;
let serviceId: string;
/** A round moment an hour ago, so steps of 60 s fall on whole minutes from it. */
const T0 = Math.floor(Date.now() / 1000 / 3600) * 3600 - 3600;

beforeAll(async () => {
  t = await startTestServer();
  owner = (await signIn(t.base)).access_token;
  // A server of its own with no sessions but these.
  serviceId = t.demo.servers[2].serviceId;
  await t.server.db.query('DELETE FROM player_sessions WHERE service_id = $1', [serviceId]);
  const players = await t.server.db.query<{ player_id: string }>(
    `INSERT INTO players (name) SELECT 'Counted ' || n FROM generate_series(1, 4) n RETURNING player_id`,
  );
  const [a, b, c, d] = players.rows.map((r) => r.player_id);
  const at = (s: number) => T0 + s;
  // a: on before the start, leaves at +150. b: +30 to +90. c: joins at +150 as a leaves, stays.
  // d: on before the start, still on.
  for (const [p, from, to] of [
    [a, at(-500), at(150)],
    [b, at(30), at(90)],
    [c, at(150), null],
    [d, at(-100), null],
  ] as const)
    await t.server.db.query(
      `INSERT INTO player_sessions (player_id, service_id, connect_time, disconnect_time)
       VALUES ($1, $2, to_timestamp($3), CASE WHEN $4::float8 IS NULL THEN NULL ELSE to_timestamp($4) END)`,
      [p, serviceId, from, to],
    );
});
afterAll(() => t?.close());

const ask = (token: string, query: string) =>
  call(t.base, token, 'GET', `/sentinel/services/${serviceId}/population?${query}`);

it('counts the most on at once per step, carries the count through quiet steps, and counts a swap once', async () => {
  const r = await ask(owner, `since=${T0}&step=60`);
  expect(r.status).toBe(200);
  expect(r.body).toMatchObject({ serviceId, since: T0, step: 60 });
  const players = r.body.points.map((p: { players: number }) => p.players);
  // 0–60: a and d, then b joins at +30: 3. 60–120: b leaves at +90: 3 at most. 120–180: a leaves as
  // c joins at +150: never 3. Then c and d, carried to now.
  expect(players.slice(0, 5)).toEqual([3, 3, 2, 2, 2]);
  expect(players.at(-1)).toBe(2);
  expect(r.body.points[1].time).toBe(T0 + 60);
  expect(r.body.points).toHaveLength(Math.ceil((Math.floor(Date.now() / 1000) - T0) / 60));
});

it('refuses what cannot be answered, and what the caller cannot see', async () => {
  expect((await ask(owner, 'step=30')).body).toMatchObject({
    code: 'validation',
    details: { field: 'step' },
  });
  expect((await ask(owner, `since=${T0}&step=60.5`)).status).toBe(400);
  expect((await ask(owner, `since=${Math.floor(Date.now() / 1000) + 60}`)).body.details).toEqual({
    field: 'since',
  });
  expect((await ask(owner, 'since=soon')).status).toBe(400);
  // 90 days in minutes is more points than an answer holds.
  const far = Math.floor(Date.now() / 1000) - 89 * 86_400;
  expect((await ask(owner, `since=${far}&step=60`)).body.details).toEqual({ field: 'step' });
  const stranger = await signInStranger(t);
  expect((await ask(stranger, `since=${T0}`)).status).toBe(404);
});

it('starts no earlier than the server keeps history', async () => {
  const long = Math.floor(Date.now() / 1000) - 10 * 365 * 86_400;
  const r = await ask(owner, `since=${long}&step=86400`);
  expect(r.status).toBe(200);
  expect(r.body.since).toBeGreaterThan(long + 300 * 86_400);
});
