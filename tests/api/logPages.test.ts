// A log page asked again (ListSource.version, http/keptPages.ts): answered from the kept page only
// while the database says its lines are as they were, so a new, changed or removed line, or a
// renamed server, shows at once, and a reader who may not see the server sees nothing of it.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogMessage, Page } from '../../src/domain/api.ts';
import type { Queryable } from '../../src/server/db/db.ts';
import { call, recording, signIn, signInStranger, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
let owner: string;

// 2001-09-09: before anything the seed or the server writes, so these lines are the page's.
const T0 = 1_000_000_000;
const uuid = (n: number) => `00000000-0000-7000-8000-${n.toString(16).padStart(12, '0')}`;
const server = () => t.demo.servers[0].serviceId;

async function insert(n: number, message: string, on = server(), db: Queryable = t.server.db) {
  await db.query(
    `INSERT INTO log_messages (message_id, service_id, event_name, type, level, time, metadata, message)
     VALUES ($1, $2, 'chat', 'Gameplay', 'Informational', to_timestamp($3::float8), '{}', $4)`,
    [uuid(n), on, T0 + n, message],
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

/** Lines from here on are the searches' (the pages above end before them). */
const S = 2000;

/** The page of lines with `word` from S on; of the demo group's servers, or of the first one. */
const searchPage = async (word: string, filter: Record<string, string> = { serviceId: server() }) => {
  const q = new URLSearchParams({
    ...filter,
    message: word,
    since: String(T0 + S),
    until: String(T0 + S + 1000),
  });
  const r = await call(t.base, owner, 'GET', `/sentinel/logMessages?${q}`);
  expect(r.status).toBe(200);
  return r.body as Page<LogMessage>;
};

const search = async (word: string, filter?: Record<string, string>) =>
  messages(await searchPage(word, filter));

describe('a search page asked again', () => {
  it('is checked by the lines written since, so a line without the word leaves it kept', async () => {
    await insert(S + 1, 'ember by the volcano');
    await insert(S + 2, 'cold swamp');
    expect(await search('volcano')).toEqual(['ember by the volcano']);
    await insert(S + 3, 'a line about nothing');
    const ran = await recording(t.server.db, async () => {
      expect(await search('volcano')).toEqual(['ember by the volcano']);
    });
    expect(ran.some((sql) => sql.includes('pg_visible_in_snapshot'))).toBe(true);
    expect(ran.filter((sql) => sql.includes('json_agg'))).toEqual([]);
  });

  it('shows a new line with the word, one changed to hold it, one removed, and a renamed server', async () => {
    expect(await search('volcano')).toEqual(['ember by the volcano']);
    await insert(S + 4, 'another volcano');
    const ran = await recording(t.server.db, async () => {
      expect(await search('volcano')).toEqual(['another volcano', 'ember by the volcano']);
    });
    // Written from its own lines and the new one, not by walking the log to it again.
    const written = ran.filter((sql) => sql.includes('json_agg'));
    expect(written).toHaveLength(1);
    expect(written[0]).toContain('pg_visible_in_snapshot');

    await t.server.db.query(
      `UPDATE log_messages SET message = 'cold swamp by the volcano' WHERE message_id = $1`,
      [uuid(S + 2)],
    );
    expect(await search('volcano')).toEqual([
      'another volcano',
      'cold swamp by the volcano',
      'ember by the volcano',
    ]);

    await t.server.db.query(`UPDATE log_messages SET message = 'ember gone cold' WHERE message_id = $1`, [
      uuid(S + 1),
    ]);
    expect(await search('volcano')).toEqual(['another volcano', 'cold swamp by the volcano']);

    await t.server.db.query('DELETE FROM log_messages WHERE message_id = $1', [uuid(S + 4)]);
    expect(await search('volcano')).toEqual(['cold swamp by the volcano']);

    // One removed and one added at once: its own lines are not as they were, so it is walked to.
    await t.server.db.query('DELETE FROM log_messages WHERE message_id = $1', [uuid(S + 2)]);
    await insert(S + 7, 'volcano again');
    expect(await search('volcano')).toEqual(['volcano again']);
    await insert(S + 2, 'cold swamp by the volcano');
    expect(await search('volcano')).toEqual(['volcano again', 'cold swamp by the volcano']);

    await t.server.db.query(`UPDATE services SET nickname = 'Volcanic Island' WHERE service_id = $1`, [
      server(),
    ]);
    const names = (await searchPage('volcano')).results.map((m) => m.serviceDisplayName);
    expect(names).toEqual(['Volcanic Island', 'Volcanic Island']);
  });

  it('shows a line whose transaction was open when the page was kept, once it commits', async () => {
    expect(await search('lava')).toEqual([]);
    await t.server.db.transaction(async (tx) => {
      await insert(S + 5, 'lava flows', server(), tx);
      // Asked while it is open, twice: the second check moves the page on to a newer snapshot.
      expect(await search('lava')).toEqual([]);
      expect(await search('lava')).toEqual([]);
    });
    expect(await search('lava')).toEqual(['lava flows']);
  });

  it("of a group shows a server's line once the server joins the group", async () => {
    const { rows } = await t.server.db.query<{ service_id: string }>(
      `SELECT service_id FROM services WHERE user_id = (SELECT user_id FROM groups WHERE group_id = $1)
          AND service_id NOT IN (SELECT service_id FROM group_services WHERE group_id = $1) LIMIT 1`,
      [t.demo.groupId],
    );
    const outside = rows[0].service_id;
    await insert(S + 6, 'geyser erupts', outside);
    expect(await search('geyser', { groupId: t.demo.groupId })).toEqual([]);
    await t.server.db.query(
      'INSERT INTO group_services (group_id, service_id, permissions_mask) VALUES ($1, $2, 1)',
      [t.demo.groupId, outside],
    );
    expect(await search('geyser', { groupId: t.demo.groupId })).toEqual(['geyser erupts']);
  });
});
