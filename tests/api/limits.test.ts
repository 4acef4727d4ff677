// The limits of docs/api.md "Limits and input validation", tried as an attacker would (issue 11):
// no request holds the server (a gzip bomb, an oversized or bulk body), and no input reaches the
// database to come back as a 500 (NUL and other control characters, unpaired surrogates, names of
// Object.prototype members, numbers out of range, deep nesting): each is a 400 or 413 naming it.

import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_BYTES_MAX, BULK_OBJECTS_MAX, JSON_DEPTH_MAX, TEXT_LIMITS } from '../../src/domain/limits.ts';
import { call, signIn, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
let owner: string;
let playerId: string;
let bucketId: string;
const island = () => t.demo.servers[0].serviceId;

beforeAll(async () => {
  t = await startTestServer();
  owner = (await signIn(t.base)).access_token;
  const { rows } = await t.server.db.query<{ id: string }>(
    `INSERT INTO players (name) VALUES ('Limit Tester') RETURNING player_id AS id`,
  );
  playerId = rows[0].id;
  bucketId = (await call(t.base, owner, 'POST', '/sentinel/buckets', { name: 'Limits' })).body.created[0]
    .bucketId;
});
afterAll(() => t?.close());

/** Milliseconds a promise took, with its value. */
async function timed<T>(p: Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await p;
  return { ms: performance.now() - start, value };
}

/** A cheap authenticated read that needs the database: what every other console is doing. */
const probe = () => call(t.base, owner, 'GET', `/sentinel/services/${island()}`);

describe('no single request holds the server', () => {
  it('refuses a gzip bomb to /v4/login with 413 without inflating it whole, and keeps answering others', async () => {
    // 1,024 gzip members of 1 MiB of zeros each: about 1 MB sent, 1 GiB once inflated.
    const member = gzipSync(Buffer.alloc(1024 * 1024));
    const bomb = Buffer.concat(Array.from({ length: 1024 }, () => member));
    expect(bomb.length).toBeLessThan(BODY_BYTES_MAX);
    await probe(); // warm

    const sent = timed(
      fetch(`${t.base}/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
        body: bomb,
      }),
    );
    await new Promise((r) => setTimeout(r, 20));
    const other = await timed(probe());
    const refused = await sent;

    expect(refused.value.status).toBe(413);
    expect(await refused.value.json()).toMatchObject({ type: 'beacon.error', code: 'payloadTooLarge' });
    console.info(
      `gzip bomb refused in ${refused.ms.toFixed(0)} ms; a read meanwhile took ${other.ms.toFixed(0)} ms`,
    );
    expect(refused.ms).toBeLessThan(1500);
    expect(other.value.status).toBe(200);
    expect(other.ms).toBeLessThan(750);
  });

  it('refuses a body larger than the limit as sent, with 413', async () => {
    const res = await fetch(`${t.base}/sentinel/playerNotes`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${owner}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ playerId, content: 'x'.repeat(BODY_BYTES_MAX) }),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ type: 'beacon.error', code: 'payloadTooLarge' });
  });

  it(`caps a bulk write at ${BULK_OBJECTS_MAX} objects, and the largest allowed one leaves others answered`, async () => {
    const groups = (n: number, tag: string) => Array.from({ length: n }, (_, i) => ({ name: `${tag} ${i}` }));
    const over = await call(t.base, owner, 'POST', '/sentinel/groups', groups(BULK_OBJECTS_MAX + 1, 'Over'));
    expect(over.status).toBe(413);
    expect(over.body).toMatchObject({
      type: 'beacon.error',
      code: 'tooManyObjects',
      message: `Send at most ${BULK_OBJECTS_MAX} objects per request; this one had ${BULK_OBJECTS_MAX + 1}.`,
    });
    const made = (await call(t.base, owner, 'GET', '/sentinel/groups?name=Over')).body.totalResults;
    expect(made).toBe(0);
    const commands = Array.from({ length: BULK_OBJECTS_MAX + 1 }, () => ({
      type: 'admin',
      serviceId: island(),
      command: 'saveworld',
    }));
    const flood = await call(t.base, owner, 'POST', '/sentinel/gameCommands', commands);
    expect([flood.status, flood.body.code]).toEqual([413, 'tooManyObjects']);

    let done = false;
    const bulk = timed(
      call(t.base, owner, 'POST', '/sentinel/groups', groups(BULK_OBJECTS_MAX, 'Bulk')),
    ).finally(() => {
      done = true;
    });
    const reads: number[] = [];
    while (!done) {
      const other = await timed(probe());
      expect(other.value.status).toBe(200);
      reads.push(other.ms);
      await new Promise((r) => setTimeout(r, 25));
    }
    const written = await bulk;
    expect(written.value.status).toBe(200);
    expect(written.value.body.created).toHaveLength(BULK_OBJECTS_MAX);
    console.info(
      `bulk of ${BULK_OBJECTS_MAX} groups took ${written.ms.toFixed(0)} ms; ${reads.length} reads meanwhile, slowest ${Math.max(...reads).toFixed(0)} ms`,
    );
  });

  it('holds text fields to their maximum length, naming the field', async () => {
    const cases: [string, string, unknown, string, number][] = [
      ['POST', '/sentinel/playerNotes', { playerId, content: 'n'.repeat(10_001) }, 'content', 10_000],
      [
        'POST',
        '/sentinel/bucketValues',
        { bucketId, key: 'k', value: 'v'.repeat(TEXT_LIMITS.value + 1) },
        'value',
        TEXT_LIMITS.value,
      ],
      ['POST', '/sentinel/groups', { name: 'g'.repeat(TEXT_LIMITS.name + 1) }, 'name', TEXT_LIMITS.name],
    ];
    for (const [method, path, body, field, max] of cases) {
      const r = await call(t.base, owner, method, path, body);
      expect([r.status, r.body.code, r.body.message, r.body.details], path).toEqual([
        400,
        'tooLong',
        `${field} can be at most ${max} characters.`,
        { field },
      ]);
    }
    const big = {
      gameSpecific: { blob: 'x'.repeat(9_000), more: 'y'.repeat(9_000), rest: 'z'.repeat(50_000) },
    };
    const r = await call(t.base, owner, 'PATCH', `/sentinel/services/${island()}`, big);
    expect([r.status, r.body.code, r.body.details]).toEqual([400, 'tooLong', { field: 'gameSpecific' }]);
  });
});

describe('bad input is a 400 naming the field, never a 500', () => {
  it('refuses a NUL, other control characters and unpaired surrogates in every text field', async () => {
    const scriptEvent = (code: string) => ({ language: 'JavaScript', context: 'playerJoined', code });
    const fields: [string, string, (bad: string) => unknown, string][] = [
      ['POST', '/sentinel/playerNotes', (x) => ({ playerId, content: `note ${x}` }), 'content'],
      ['POST', '/sentinel/buckets', (x) => ({ name: `b${x}` }), 'name'],
      ['POST', '/sentinel/bucketValues', (x) => ({ bucketId, key: `k${x}`, value: 'v' }), 'key'],
      ['POST', '/sentinel/bucketValues', (x) => ({ bucketId, key: 'k', value: `v${x}` }), 'value'],
      ['POST', '/sentinel/groups', (x) => ({ name: `Group ${x}` }), 'name'],
      [
        'POST',
        '/sentinel/groupBans',
        (x) => ({ groupId: t.demo.groupId, playerId, comments: `grief ${x}` }),
        'comments',
      ],
      ['POST', '/sentinel/scripts', (x) => ({ name: `Script ${x}` }), 'name'],
      ['POST', '/sentinel/scripts', (x) => ({ name: 'S', events: [scriptEvent(`a${x}`)] }), 'events[0].code'],
      ['PATCH', `/sentinel/services/${island()}`, (x) => ({ nickname: `Nick ${x}` }), 'nickname'],
      ['PATCH', `/sentinel/services/${island()}`, (x) => ({ gameSpecific: { a: x } }), 'gameSpecific.a'],
      ['POST', '/sentinel/chat', (x) => ({ serviceId: island(), message: `hi ${x}` }), 'message'],
    ];
    for (const bad of ['\u0000', '\u001b[2J', '\u009b31m', '\ud800', 'x\udc00y']) {
      for (const [method, path, body, field] of fields) {
        const r = await call(t.base, owner, method, path, body(bad));
        expect([r.status, r.body.code, r.body.details], `${path} ${field} ${JSON.stringify(bad)}`).toEqual([
          400,
          'badCharacter',
          { field },
        ]);
        expect(r.body.message.startsWith(`${field} contains`)).toBe(true);
      }
    }
    const key = await call(t.base, owner, 'PATCH', `/sentinel/services/${island()}`, {
      gameSpecific: { 'a\u0000': 1 },
    });
    expect([key.status, key.body.code, key.body.message]).toEqual([
      400,
      'badCharacter',
      'A property name in gameSpecific contains a control character (U+0000).',
    ]);
  });

  it('refuses a NUL in any filter, naming it', async () => {
    for (const [path, field] of [
      ['/sentinel/players?name=a%00b', 'name'],
      ['/sentinel/logMessages?message=%00', 'message'],
      ['/sentinel/groups?%00=1', 'A query parameter name'],
    ]) {
      const r = await call(t.base, owner, 'GET', path);
      expect([r.status, r.body.code], path).toEqual([400, 'badCharacter']);
      expect(r.body.message.startsWith(`${field} contains`)).toBe(true);
    }
  });

  it('looks up filters and sort columns as declared names only, never Object.prototype members', async () => {
    for (const path of [
      '/sentinel/services?sortedColumn=constructor',
      '/sentinel/services?sortedColumn=__proto__',
      '/sentinel/services?toString=1',
      '/sentinel/services?hasOwnProperty|constructor=1',
      '/sentinel/groups?__proto__=x&sortedColumn=toString',
    ]) {
      const r = await call(t.base, owner, 'GET', path);
      // Unknown sort columns and filters are ignored (SENTINEL-API §3.0), these among them.
      expect(r.status, path).toBe(200);
      expect(r.body.totalResults).toBeGreaterThan(0);
    }
    const logs = await call(t.base, owner, 'GET', '/sentinel/logMessages?sortedColumn=valueOf&constructor=1');
    expect(logs.status).toBe(200);
  });

  it('refuses numbers out of range, naming the field', async () => {
    const cases: [string, string][] = [
      ['/sentinel/services?page=40000000000000000', 'page'],
      ['/sentinel/services?pageSize=0', 'pageSize'],
      ['/sentinel/logMessages?since=-1e308', 'since'],
      ['/sentinel/logMessages?until=99999999999999999999', 'until'],
      [
        `/sentinel/tribes?serviceId=${t.demo.servers[0].serviceId}&tribeNumber=99999999999999999999`,
        'tribeNumber',
      ],
      [
        `/sentinel/characters?serviceId=${t.demo.servers[0].serviceId}&specimenId=-99999999999999999999`,
        'specimenId',
      ],
    ];
    for (const [path, field] of cases) {
      const r = await call(t.base, owner, 'GET', path);
      expect([r.status, r.body.type, r.body.details?.field], path).toEqual([400, 'beacon.error', field]);
      expect(r.body.message.startsWith(`${field} must be`)).toBe(true);
    }
    const ban = await call(t.base, owner, 'POST', '/sentinel/groupBans', {
      groupId: t.demo.groupId,
      playerId,
      comments: 'forever and then some',
      expiration: 1e300,
    });
    expect([ban.status, ban.body.details]).toEqual([400, { field: 'expiration' }]);
    // JSON.parse reads 1e400 as Infinity.
    const infinite = await fetch(`${t.base}/sentinel/groupBans`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${owner}`, 'Content-Type': 'application/json' },
      body: `{"groupId":"${t.demo.groupId}","playerId":"${playerId}","comments":"x","expiration":1e400}`,
    });
    expect([infinite.status, (await infinite.json()).details]).toEqual([400, { field: 'expiration' }]);
  });

  it(`refuses JSON nested deeper than ${JSON_DEPTH_MAX} levels before anything recursive reads it`, async () => {
    const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    const bodies: [string, string, string][] = [
      ['PATCH', `/sentinel/services/${island()}`, `{"gameSpecific":${deep(5000)}}`],
      [
        'POST',
        '/sentinel/gameCommands',
        `{"type":"admin","serviceId":"${island()}","command":"x","extra":${deep(5000)}}`,
      ],
      // A forbidden write echoes its body in the error: that must not recurse either.
      [
        'POST',
        '/sentinel/groupBans',
        `{"groupId":"00000000-0000-4000-8000-000000000000","x":${deep(100_000)}}`,
      ],
    ];
    for (const [method, path, body] of bodies) {
      const res = await fetch(`${t.base}${path}`, {
        method,
        headers: { Authorization: `Bearer ${owner}`, 'Content-Type': 'application/json' },
        body,
      });
      expect([res.status, (await res.json()).code], path).toEqual([400, 'tooDeep']);
    }
    // The body, gameSpecific and 30 more objects: the deepest allowed.
    const nested = (n: number): object => (n === 0 ? {} : { a: nested(n - 1) });
    const fine = await call(t.base, owner, 'PATCH', `/sentinel/services/${island()}`, {
      gameSpecific: nested(JSON_DEPTH_MAX - 2),
    });
    expect(fine.status).toBe(200);
  });
});
