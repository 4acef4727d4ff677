// totalResults is exact up to a limit (the log list's LOG_EXACT_COUNT) and the planner's estimate
// beyond, flagged totalIsEstimate, so a page of a million log lines does not cost a count of a
// million rows; a page that is not full is the last one and tells the exact total itself.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { LOG_EXACT_COUNT } from '../../src/server/routes/logMessages.ts';
import { call, recording as recordingOf, signIn, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
let token: string;
const EXTRA = 2_100;

beforeAll(async () => {
  t = await startTestServer();
  token = (await signIn(t.base)).access_token;
  const [big, small] = t.demo.servers;
  // Far in the past, so the simulator-free test server's own lines stay apart.
  await t.server.db.query(
    `INSERT INTO log_messages (message_id, service_id, event_name, type, level, time, metadata, message)
     SELECT gen_random_uuid(), $1, 'customMessage', 'Gameplay', 'Informational',
            to_timestamp(1000000000 + n), '{}'::jsonb, 'line ' || n
       FROM generate_series(1, $2::int) AS n`,
    [big.serviceId, LOG_EXACT_COUNT + EXTRA],
  );
  await t.server.db.query(
    `INSERT INTO log_messages (message_id, service_id, event_name, type, level, time, metadata, message)
     SELECT gen_random_uuid(), $1, 'customMessage', 'Gameplay', 'Warning', to_timestamp(1000000000 + n), '{}'::jsonb, 'x'
       FROM generate_series(1, 7) AS n`,
    [small.serviceId],
  );
  await t.server.db.query('ANALYZE log_messages');
});
afterAll(() => t?.close());

const list = (query: string) => call(t.base, token, 'GET', `/sentinel/logMessages?${query}`);

const recording = (fn: () => Promise<void>) => recordingOf(t.server.db, fn);

it('counts exactly while the matches are few', async () => {
  const r = await list(`serviceId=${t.demo.servers[1].serviceId}&level=Warning&pageSize=5`);
  expect(r.status).toBe(200);
  expect(r.body.totalResults).toBe(7);
  expect(r.body.pages).toBe(2);
  expect(r.body.totalIsEstimate).toBeUndefined();
});

it('estimates past the limit, never below what it counted, and still pages', async () => {
  const r = await list(`serviceId=${t.demo.servers[0].serviceId}&pageSize=250&page=3`);
  expect(r.status).toBe(200);
  expect(r.body.totalIsEstimate).toBe(true);
  expect(r.body.totalResults).toBeGreaterThan(LOG_EXACT_COUNT);
  // The planner's figure after ANALYZE is close to the truth.
  expect(r.body.totalResults).toBeGreaterThan((LOG_EXACT_COUNT + EXTRA) * 0.5);
  expect(r.body.totalResults).toBeLessThan((LOG_EXACT_COUNT + EXTRA) * 2);
  expect(r.body.pages).toBe(Math.ceil(r.body.totalResults / 250));
  expect(r.body.results).toHaveLength(250);
});

it('takes the exact total from a last page that is not full, past the limit too', async () => {
  const all = LOG_EXACT_COUNT + EXTRA;
  const last = Math.ceil(all / 250);
  const r = await list(`serviceId=${t.demo.servers[0].serviceId}&pageSize=250&page=${last}`);
  expect(r.body.results).toHaveLength(all - (last - 1) * 250);
  expect(r.body.totalResults).toBe(all);
  expect(r.body.pages).toBe(last);
  expect(r.body.totalIsEstimate).toBeUndefined();
});

it('does not count a list the planner expects far past the limit, and says the total is an estimate', async () => {
  const [, , third] = t.demo.servers;
  const many = LOG_EXACT_COUNT * 12;
  await t.server.db.query(
    `INSERT INTO log_messages (message_id, service_id, event_name, type, level, time, metadata, message)
     SELECT gen_random_uuid(), $1, 'customMessage', 'Gameplay', 'Notice', to_timestamp(1100000000 + n), '{}'::jsonb, 'many'
       FROM generate_series(1, $2::int) AS n`,
    [third.serviceId, many],
  );
  await t.server.db.query('ANALYZE log_messages');
  const ran = await recording(async () => {
    const r = await list(`serviceId=${third.serviceId}&pageSize=50`);
    expect(r.body.totalIsEstimate).toBe(true);
    expect(r.body.totalResults).toBeGreaterThan(many * 0.5);
    expect(r.body.totalResults).toBeLessThan(many * 2);
    expect(r.body.results).toHaveLength(50);
  });
  expect(ran.some((sql) => sql.startsWith('EXPLAIN'))).toBe(true);
  expect(ran.filter((sql) => /count\(\*\)/.test(sql) && !sql.includes('json_agg'))).toEqual([]);
});

it('counts a dino list before asking the planner, which it asks only past the limit', async () => {
  await t.server.db.query(
    `INSERT INTO dinos (service_id, dino_number64, name, species, species_path, status)
     SELECT $1, 900000 + i, 'Counted ' || i, 'Rex', '/Game/X', 'Deployed' FROM generate_series(1, 5) AS i`,
    [t.demo.servers[0].serviceId],
  );
  const ran = await recording(async () => {
    const r = await call(t.base, token, 'GET', '/sentinel/dinos?dinoName=Counted&pageSize=2');
    expect(r.status).toBe(200);
    expect(r.body.results).toHaveLength(2);
    expect(r.body.totalResults).toBe(5);
    expect(r.body.totalIsEstimate).toBeUndefined();
  });
  expect(ran.filter((sql) => /count\(\*\)/.test(sql) && !sql.includes('json_agg'))).toHaveLength(1);
  expect(ran.some((sql) => sql.startsWith('EXPLAIN'))).toBe(false);
});

it("asks the planner about a list once, not again for the next readers' same page", async () => {
  const query = `serviceId=${t.demo.servers[0].serviceId}&level=Informational&pageSize=3`;
  const first = await recording(async () => {
    expect((await list(query)).status).toBe(200);
  });
  const again = await recording(async () => {
    expect((await list(query)).status).toBe(200);
  });
  expect(first.filter((sql) => sql.startsWith('EXPLAIN'))).toHaveLength(1);
  expect(again.filter((sql) => sql.startsWith('EXPLAIN'))).toEqual([]);
});
