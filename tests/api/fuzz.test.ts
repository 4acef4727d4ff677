// Hostile and random bodies against every write route and every payload validator: never a 500,
// never a crash, always a clear error (a beacon.error with a message) or a success. Bounded runs.

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as v from '../../src/domain/validate.ts';
import { call, signIn, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
let owner: string;
const ids: Record<string, string> = {};

const hostileString = fc.oneof(
  fc.string(),
  fc.constantFrom(
    "'; DROP TABLE users; --",
    '\u0000',
    '\u001b]52;c;aGk=\u0007',
    '%_\\',
    '../../etc/passwd',
    'a'.repeat(5000),
  ),
);
const value = fc.oneof(hostileString, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.uuid());
const hostileObject = fc.dictionary(
  fc.oneof(
    fc.constantFrom(
      'name',
      'key',
      'value',
      'bucketId',
      'groupId',
      'serviceId',
      'scriptId',
      'userId',
      'permissions',
      'permissionsMask',
      'events',
      'parameters',
      'itemPath',
      'quantity',
      'dinoPath',
      'stats',
      'colors',
      'characterId',
      'liked',
      'isFemale',
      'parameterValues',
      'revisionId',
      '__proto__',
    ),
    fc.string(),
  ),
  fc.oneof(value, fc.array(value, { maxLength: 3 }), fc.dictionary(fc.string(), value, { maxKeys: 3 })),
  { maxKeys: 6 },
);
const body = fc.oneof(hostileObject, fc.array(hostileObject, { maxLength: 3 }), value, fc.constant([]));

beforeAll(async () => {
  t = await startTestServer();
  owner = (await signIn(t.base)).access_token;
  const db = t.server.db;
  const one = async (sql: string, p: unknown[]) => (await db.query<{ id: string }>(sql, p)).rows[0].id;
  ids.bucket = await one(`INSERT INTO buckets (user_id, name) VALUES ($1, 'F') RETURNING bucket_id AS id`, [
    t.demo.userId,
  ]);
  ids.script = await one(`INSERT INTO scripts (user_id, name) VALUES ($1, 'F') RETURNING script_id AS id`, [
    t.demo.userId,
  ]);
  const player = await one(`INSERT INTO players (name) VALUES ('P') RETURNING player_id AS id`, []);
  ids.character = await one(
    'INSERT INTO characters (service_id, player_id, specimen_id, name) VALUES ($1, $2, 1, $3) RETURNING character_id AS id',
    [t.demo.servers[0].serviceId, player, 'C'],
  );
  ids.dino = await one(
    `INSERT INTO dinos (service_id, dino_number64, species, species_path) VALUES ($1, 1, 'R', '/R') RETURNING dino_id AS id`,
    [t.demo.servers[0].serviceId],
  );
});
afterAll(() => t?.close());

const ROUTES: [string, (i: Record<string, string>) => string][] = [
  ['POST', () => '/sentinel/groups'],
  ['PATCH', () => '/sentinel/groupUsers'],
  ['POST', () => '/sentinel/groupServices'],
  ['POST', () => '/sentinel/groupBuckets'],
  ['POST', () => '/sentinel/groupScripts'],
  ['POST', () => '/sentinel/serviceScripts'],
  ['POST', () => '/sentinel/buckets'],
  ['POST', () => '/sentinel/bucketValues'],
  ['DELETE', () => '/sentinel/bucketValues'],
  ['POST', () => '/sentinel/scripts'],
  ['PUT', (i) => `/sentinel/scripts/${i.script}`],
  ['PATCH', (i) => `/sentinel/scripts/${i.script}`],
  ['PUT', (i) => `/sentinel/buckets/${i.bucket}`],
  ['PUT', (i) => `/sentinel/scripts/${i.script}/like`],
  ['POST', () => '/sentinel/scriptTests'],
  ['POST', (i) => `/sentinel/scriptMenuItems/${i.script}`],
  ['POST', (i) => `/sentinel/characters/${i.character}/giveItem`],
  ['POST', (i) => `/sentinel/characters/${i.character}/giveDino`],
  ['POST', (i) => `/sentinel/dinos/${i.dino}/edit`],
  ['POST', (i) => `/sentinel/dinos/${i.dino}/restore`],
  ['POST', () => '/sentinel/services'],
  ['POST', () => '/sentinel/gameCommands'],
  ['POST', () => '/sentinel/chat'],
  ['POST', () => '/sentinel/groupBans'],
  ['POST', () => '/sentinel/playerNotes'],
  ['PATCH', (i) => `/sentinel/dinos/${i.dino}`],
];

describe('write routes answer hostile bodies with a clear error, never a 500', () => {
  it.each(ROUTES)('%s %s', async (method, path) => {
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        const r = await call(t.base, owner, method, path(ids), b);
        expect(r.status, JSON.stringify({ b, body: r.body })).toBeLessThan(500);
        if (r.status >= 400) {
          expect(r.body.type).toBe('beacon.error');
          expect(typeof r.body.message).toBe('string');
          expect(r.body.message.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 8 },
    );
  });

  it('the signed webhook refuses anything unsigned the same way', async () => {
    await fc.assert(
      // Header values must be printable ASCII, or fetch itself refuses them.
      fc.asyncProperty(hostileString, fc.stringMatching(/^[ -~]{0,80}$/), async (text, sig) => {
        const res = await fetch(`${t.base}/sentinel/services/${t.demo.servers[0].serviceId}/webhook`, {
          method: 'POST',
          headers: { Authorization: `HmacSHA256 ${sig}` },
          body: text,
        });
        expect(res.status).toBe(404);
        expect(await res.json()).toEqual({
          type: 'beacon.error',
          code: 'notFound',
          message: 'No webhook matches this request.',
          details: null,
        });
      }),
      { numRuns: 20 },
    );
  });
});

describe('validators return null or a problem with a code and a message, and never throw', () => {
  const validators: [string, (x: never) => unknown][] = [
    ['giveItemPayload', v.giveItemPayload],
    ['giveDinoPayload', v.giveDinoPayload],
    ['editDinoPayload', v.editDinoPayload],
    ['bucketValuePayload', v.bucketValuePayload],
    ['scriptSave', v.scriptSave],
  ];
  it.each(validators)('%s', (_name, validate) => {
    fc.assert(
      fc.property(hostileObject, (o) => {
        const p = validate(o as never) as v.Problem | null;
        if (p !== null) {
          expect(p.code).toMatch(/^[a-zA-Z]+$/);
          expect(p.message.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 300 },
    );
  });
  it('name validators and cron take anything', () => {
    fc.assert(
      fc.property(value, (x) => {
        for (const p of [v.groupNamePayload(x), v.bucketName(x), v.scriptParameters(x), v.scriptEvent(x)])
          if (p) expect(p.message.length).toBeGreaterThan(0);
        if (typeof x === 'string') expect(typeof v.cronExpression(x)).toBe('boolean');
      }),
      { numRuns: 300 },
    );
  });
  it('accepts what it should', () => {
    expect(v.cronExpression('*/5 0-6,22 * * 1-5')).toBe(true);
    expect(v.cronExpression('60 * * * *')).toBe(false);
    expect(v.cronExpression('* * *')).toBe(false);
    expect(
      v.giveItemPayload({ itemPath: '/Game/A/B.B_C', quantity: 99999, quality: 100, minRandomQuality: 0 }),
    ).toBeNull();
    expect(v.giveItemPayload({ itemPath: '/Game/A/B.B_C', quantity: 100000 })?.code).toBe('invalidQuantity');
    expect(
      v.giveDinoPayload({
        dinoPath: '/Game/Rex',
        colors: [0, 1, 2, 3, 4, 5],
        stats: { 11: 255 },
        imprint: 1,
      }),
    ).toBeNull();
  });
});
