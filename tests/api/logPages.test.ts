// A log page asked again (ListSource.version, http/keptPages.ts): answered from the kept page only
// while the database says its lines are as they were, so a new, changed or removed line, or a
// renamed server, shows at once, and a reader who may not see the server sees nothing of it.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogMessage, Page } from '../../src/domain/api.ts';
import { call, recording, signIn, signInStranger, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
let owner: string;

// 2001-09-09: before anything the seed or the server writes, so these lines are the page's.
const T0 = 1_000_000_000;
const uuid = (n: number) => `00000000-0000-7000-8000-${n.toString(16).padStart(12, '0')}`;
const server = () => t.demo.servers[0].serviceId;

async function insert(n: number, message: string) {
  await t.server.db.query(
    `INSERT INTO log_messages (message_id, service_id, event_name, type, level, time, metadata, message)
     VALUES ($1, $2, 'chat', 'Gameplay', 'Informational', to_timestamp($3::float8), '{}', $4)`,
    [uuid(n), server(), T0 + n, message],
  );
}

const page = async (token = owner) => {
  const q = new URLSearchParams({ serviceId: server(), since: String(T0), until: String(T0 + 1000) });
  const r = await call(t.base, token, 'GET', `/sentinel/logMessages?${q}`);
  expect(r.status).toBe(200);
  return r.body as Page<LogMessage>;
};
const messages = (p: Page<LogMessage>) => p.results.map((m) => m.message);

beforeAll(async () => {
  t = await startTestServer();
  owner = (await signIn(t.base)).access_token;
  for (let n = 1; n <= 3; n++) await insert(n, `line ${n}`);
});
afterAll(() => t?.close());

describe('a log page asked again', () => {
  it('is answered from the kept page while its lines are unchanged, without writing it again', async () => {
    const first = await page();
    let again: Page<LogMessage> | undefined;
    const ran = await recording(t.server.db, async () => {
      again = await page();
    });
    expect(again).toEqual(first);
    expect(messages(first)).toEqual(['line 3', 'line 2', 'line 1']);
    // The check ran, the JSON was not written again.
    expect(ran.some((sql) => sql.includes('md5(string_agg'))).toBe(true);
    expect(ran.filter((sql) => sql.includes('json_agg'))).toEqual([]);
  });

  it('shows a new line, a changed one, a removed one and a renamed server at once', async () => {
    await page();
    await insert(4, 'line 4');
    expect(messages(await page())).toEqual(['line 4', 'line 3', 'line 2', 'line 1']);

    await t.server.db.query(
      `UPDATE log_messages SET translations = '{"en": "line two"}' WHERE message_id = $1`,
      [uuid(2)],
    );
    expect(messages(await page())).toEqual(['line 4', 'line 3', 'line two', 'line 1']);

    await t.server.db.query('DELETE FROM log_messages WHERE message_id = $1', [uuid(4)]);
    expect(messages(await page())).toEqual(['line 3', 'line two', 'line 1']);

    await t.server.db.query(`UPDATE services SET nickname = 'Renamed Island' WHERE service_id = $1`, [
      server(),
    ]);
    expect(new Set((await page()).results.map((m) => m.serviceDisplayName))).toEqual(
      new Set(['Renamed Island']),
    );
  });

  it('shows nothing of a kept page to a reader who may not see its server', async () => {
    expect((await page()).totalResults).toBe(3);
    const stranger = await page(await signInStranger(t));
    expect(stranger.results).toEqual([]);
    expect(stranger.totalResults).toBe(0);
  });
});
