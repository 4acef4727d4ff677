// The dino list's query paths at fleet scale (migration 015, model/dino.ts): each filter sorted by
// display name returns, page after page, exactly the rows of the plain query the list ran before
// (the services joined as a set, the species searched row by row), for a caller who sees every
// server and for one who sees fewer.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/server/crypto.ts';
import { call, signIn, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
let ownerId: string;
let owner: string;
let viewerId: string;
let viewer: string;
let tribes: string[];
let services: string[];

const ROWS = 1500;
const PAGE = 100;
const SPECIES = ['Rex', 'Tek Rex', 'Raptor', 'Dodo', 'DodoRex', 'Alpha T-Rex', 'Giant Bee', 'Bees'];
const NAMES = [
  'Rexy',
  'rexy',
  'Bob',
  'Bobby',
  'Bob the Builder',
  'ZED',
  'Ärger',
  'Under_score',
  '100%',
  'Runs',
];

beforeAll(async () => {
  t = await startTestServer();
  const db = t.server.db;
  services = t.demo.servers.map((s) => s.serviceId);
  ownerId = (await db.query<{ id: string }>('SELECT user_id AS id FROM users LIMIT 1')).rows[0].id;
  viewerId = (
    await db.query<{ id: string }>(
      `INSERT INTO users (username, email, password_hash) VALUES ('Viewer', 'viewer@palisade.local', $1) RETURNING user_id AS id`,
      [await hashPassword('viewer-pass')],
    )
  ).rows[0].id;
  // The viewer sees the demo group's servers only (not every one of the owner's).
  await db.query('INSERT INTO group_users (group_id, user_id, permissions) VALUES ($1, $2, 1)', [
    t.demo.groupId,
    viewerId,
  ]);
  await db.query(
    `INSERT INTO tribes (service_id, tribe_number, name)
     SELECT ($1::uuid[])[1 + i % cardinality($1::uuid[])], i, 'Tribe ' || i FROM generate_series(0, 8) AS i`,
    [services],
  );
  tribes = (
    await db.query<{ id: string }>('SELECT tribe_id AS id FROM tribes ORDER BY tribe_number')
  ).rows.map((r) => r.id);
  // Names that tie, differ in case only, are empty (the species shows), carry LIKE's wildcards;
  // deleted rows; dinos without a tribe.
  await db.query(
    `INSERT INTO dinos (service_id, tribe_id, dino_number64, name, species, species_path, status, deleted)
     SELECT ($1::uuid[])[1 + i % cardinality($1::uuid[])],
            CASE WHEN i % 7 = 0 THEN NULL ELSE ($2::uuid[])[1 + (i % cardinality($1::uuid[])) + cardinality($1::uuid[]) * ((i / 5) % 3)] END,
            i, CASE WHEN i % 3 = 0 THEN '' ELSE ($3::text[])[1 + (i * 7) % cardinality($3::text[])] END,
            ($4::text[])[1 + (i * 5) % cardinality($4::text[])], '/Game/X',
            (ARRAY['Deployed','Frozen','Uploaded','Dead'])[1 + (i * 3) % 4], i % 41 = 0
       FROM generate_series(1, $5::int) AS i`,
    [services, tribes, NAMES, SPECIES, ROWS],
  );
  [owner, viewer] = await Promise.all([
    signIn(t.base).then((x) => x.access_token),
    signIn(t.base, 'viewer@palisade.local', 'viewer-pass').then((x) => x.access_token),
  ]);
});
afterAll(() => t?.close());

const DISPLAY = `coalesce(nullif(d.name, ''), d.species)`;
const searchOf = (e: string) =>
  `(to_tsvector('english', coalesce(${e}, '')) @@ websearch_to_tsquery('english', $2) OR ${e} ILIKE '%' || replace(replace(replace($2, '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%')`;

/** The list as it was queried before migration 015: ids in display-name order, or `order`'s. */
async function plainRows(
  userId: string,
  condition: string,
  value: string,
  dir: 'ASC' | 'DESC',
  order = `lower(${DISPLAY})`,
) {
  const { rows } = await t.server.db.query<{ id: string }>(
    `SELECT d.dino_id AS id FROM dinos d
       JOIN service_permissions sp ON sp.service_id = d.service_id AND sp.user_id = $1::uuid
       JOIN services s ON s.service_id = d.service_id AND NOT s.deleted
       LEFT JOIN tribes t ON t.tribe_id = d.tribe_id
      WHERE NOT d.deleted AND ${condition} AND $2::text IS NOT NULL
      ORDER BY ${order} ${dir}, d.dino_id ${dir}`,
    [userId, value],
  );
  return rows.map((r) => r.id);
}

/** Every page of the list, as the console pages it. */
async function listed(token: string, query: string) {
  const ids: string[] = [];
  for (let page = 1; ; page++) {
    const r = await call(t.base, token, 'GET', `/sentinel/dinos?${query}&pageSize=${PAGE}&page=${page}`);
    expect(r.status).toBe(200);
    ids.push(...r.body.results.map((x: { dinoId: string }) => x.dinoId));
    if (r.body.results.length < PAGE) return { ids, total: r.body.totalResults };
  }
}

type Case = [filter: string, value: () => string, condition: string];
const CASES: Case[] = [
  ['dinoSpecies', () => 'rex', searchOf('d.species')],
  ['dinoSpecies', () => 'Bee', searchOf('d.species')],
  ['dinoSpecies', () => 'Tek Rex', searchOf('d.species')],
  ['dinoSpecies', () => 'Wyvern', searchOf('d.species')],
  ['dinoStatus', () => 'Deployed,Frozen,Uploaded', `d.status = ANY(string_to_array($2, ','))`],
  ['dinoStatus', () => 'Dead', `d.status = $2`],
  ['tribeId', () => tribes[4], 'd.tribe_id = $2::uuid'],
  ['serviceId', () => services[1], 'd.service_id = $2::uuid'],
  ['tribeName', () => 'tribe 4', searchOf('t.name')],
  ['dinoName', () => 'bob', searchOf(DISPLAY)],
  ['dinoName', () => 'Runs', searchOf(DISPLAY)],
  ['dinoName', () => '100%', searchOf(DISPLAY)],
  ['dinoName', () => 'under_', searchOf(DISPLAY)],
  ['dinoDisplayName', () => 'dodo', searchOf(DISPLAY)],
  ['dinoName', () => 'qqq', searchOf(DISPLAY)],
];

describe('dino list at scale: the same rows as before', () => {
  for (const [filter, value, condition] of CASES)
    it(`${filter}: ${condition.slice(0, 40)}…`, async () => {
      for (const [token, userId] of [
        [owner, ownerId],
        [viewer, viewerId],
      ] as const)
        for (const dir of ['ASC', 'DESC'] as const) {
          const expected = await plainRows(userId, condition, value(), dir);
          const q = `${filter}=${encodeURIComponent(value())}&sortedColumn=dinoDisplayName&sortDirection=${dir === 'ASC' ? 'ascending' : 'descending'}`;
          const got = await listed(token, q);
          expect(got.ids).toEqual(expected);
          expect(got.total).toBe(expected.length);
        }
    });

  it('finds something in most cases, so the comparisons are not of empty lists', async () => {
    const sizes = await Promise.all(CASES.map(([, v, c]) => plainRows(ownerId, c, v(), 'ASC')));
    expect(sizes.filter((s) => s.length > PAGE).length).toBeGreaterThanOrEqual(6);
    // English words: `Bee` finds `Bees` by its stem as well as `Giant Bee` by substring.
    expect(sizes[CASES.findIndex(([, v]) => v() === 'Bee')].length).toBeGreaterThan(0);
  });

  it('combines a filter with the name search and the unfiltered list, as before', async () => {
    const cond = `d.service_id = $2::uuid AND ${searchOf(DISPLAY).replaceAll('$2', "'rex'")}`;
    expect((await listed(owner, `serviceId=${services[0]}&dinoName=rex`)).ids).toEqual(
      await plainRows(ownerId, cond, services[0], 'ASC'),
    );
    expect((await listed(viewer, 'sortedColumn=dinoName')).ids).toEqual(
      await plainRows(viewerId, 'true', '', 'ASC'),
    );
  });
});

describe('searches resolved to species and names', () => {
  it('pages a search naming several species in another sort as the plain query does', async () => {
    // `rex` names four species, each walked on its own; the tribe sort is not the walks' index order.
    for (const dir of ['ASC', 'DESC'] as const) {
      const q = `dinoSpecies=rex&sortedColumn=tribeName&sortDirection=${dir === 'ASC' ? 'ascending' : 'descending'}`;
      expect((await listed(viewer, q)).ids).toEqual(
        await plainRows(viewerId, searchOf('d.species'), 'rex', dir, 'lower(t.name)'),
      );
    }
  });

  it('finds a dino by a name it was given or renamed to since', async () => {
    const db = t.server.db;
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO dinos (service_id, dino_number64, name, species, species_path)
       VALUES ($1, 900001, 'Quillback', 'Rex', '/Game/X') RETURNING dino_id AS id`,
      [services[0]],
    );
    expect((await listed(owner, 'dinoName=quillb')).ids).toEqual([rows[0].id]);
    await db.query(`UPDATE dinos SET name = 'Thornmane' WHERE dino_id = $1`, [rows[0].id]);
    expect((await listed(owner, 'dinoName=thornm')).ids).toEqual([rows[0].id]);
    // The old name is still known, and matches no dino.
    expect((await listed(owner, 'dinoName=quillba')).ids).toEqual([]);
  });

  it('reads more names than it walks one by one as one set, in the same order', async () => {
    const names = Array.from({ length: 20 }, (_, i) => `Manyname${String(i).padStart(2, '0')}`);
    await t.server.db.query(
      `INSERT INTO dinos (service_id, dino_number64, name, species, species_path)
       SELECT ($1::uuid[])[1 + i % cardinality($1::uuid[])], 910000 + i, ($2::text[])[1 + i % 20], 'Dodo', '/Game/X'
         FROM generate_series(0, 299) AS i`,
      [services, names],
    );
    const got = await listed(owner, 'dinoName=manyname');
    expect(got.ids).toHaveLength(300);
    expect(got.ids).toEqual(await plainRows(ownerId, searchOf(DISPLAY), 'manyname', 'ASC'));
  });
});
