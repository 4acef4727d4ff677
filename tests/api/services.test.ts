// /sentinel/services: paging, sorting, filters, permissions by role, PATCH rules; channel auth; and
// the SQL permission views agreeing with resolvePermissions().

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { BAD_ACCESS_KEY_CLOSE } from '../../src/domain/link.ts';
import { ALL_PERMISSIONS, Perm, resolvePermissions } from '../../src/domain/permissions.ts';
import { hashPassword, hashToken, randomToken } from '../../src/server/crypto.ts';
import { hmacHex } from '../../src/server/realtime/signing.ts';
import { GROUP_SERVICE_MASK, MODERATOR_BITS } from '../../src/server/seed.ts';
import { call, DEMO, signIn, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
let owner: string;
let moderator: string;
let stranger: string;
let strangerId: string;

beforeAll(async () => {
  t = await startTestServer();
  const { rows } = await t.server.db.query<{ user_id: string }>(
    `INSERT INTO users (username, email, password_hash) VALUES ('Stranger', 'stranger@palisade.local', $1)
     RETURNING user_id`,
    [await hashPassword('stranger-pass')],
  );
  strangerId = rows[0].user_id;
  [owner, moderator, stranger] = await Promise.all([
    signIn(t.base).then((x) => x.access_token),
    signIn(t.base, t.demo.moderator.email, DEMO.password).then((x) => x.access_token),
    signIn(t.base, 'stranger@palisade.local', 'stranger-pass').then((x) => x.access_token),
  ]);
});
afterAll(() => t?.close());

const names = (body: { results: { name: string }[] }) => body.results.map((s) => s.name);

describe('listing services', () => {
  it('pages and sorts by displayName (default), nickname or name', async () => {
    const all = await call(t.base, owner, 'GET', '/sentinel/services');
    expect(all.body).toMatchObject({ totalResults: 3, pageSize: 250, pages: 1, page: 1 });
    expect(names(all.body)).toEqual(['Aberration Cluster', 'Island PvE', 'Scorched PvP']);

    const page2 = await call(t.base, owner, 'GET', '/sentinel/services?pageSize=2&page=2');
    expect(page2.body).toMatchObject({ totalResults: 3, pageSize: 2, pages: 2, page: 2 });
    expect(names(page2.body)).toEqual(['Scorched PvP']);
    expect((await call(t.base, owner, 'GET', '/sentinel/services?pageSize=9999')).body.pageSize).toBe(250);

    const desc = await call(
      t.base,
      owner,
      'GET',
      '/sentinel/services?sortedColumn=name&sortDirection=descending',
    );
    expect(names(desc.body)).toEqual(['Scorched PvP', 'Island PvE', 'Aberration Cluster']);
  });

  it('filters by searchable name, OR keys, id lists, access key and exact fields', async () => {
    const [island, scorched] = t.demo.servers;
    const search = await call(t.base, owner, 'GET', '/sentinel/services?searchableName=scorch');
    expect(names(search.body)).toEqual(['Scorched PvP']);
    const fts = await call(t.base, owner, 'GET', '/sentinel/services?searchableName=islands');
    expect(names(fts.body)).toEqual(['Island PvE']);

    const or = await call(t.base, owner, 'GET', '/sentinel/services?name|nickname=pvp');
    expect(names(or.body)).toEqual(['Scorched PvP']);

    const ids = await call(
      t.base,
      owner,
      'GET',
      `/sentinel/services?serviceId[]=${island.serviceId}&serviceId[]=${scorched.serviceId}`,
    );
    expect(names(ids.body)).toEqual(['Island PvE', 'Scorched PvP']);

    const key = await call(
      t.base,
      owner,
      'GET',
      `/sentinel/services?accessKey=${encodeURIComponent(island.accessKey)}`,
    );
    expect(names(key.body)).toEqual(['Island PvE']);
    expect(key.body.results[0].accessKeyHash).toBe(hashToken(island.accessKey));

    expect((await call(t.base, owner, 'GET', '/sentinel/services?platform=Xbox')).body.totalResults).toBe(0);
    expect((await call(t.base, owner, 'GET', '/sentinel/services?gameId=ArkSA')).body.totalResults).toBe(3);
  });

  it('shows each caller only what they may see, with their resolved bits', async () => {
    const own = await call(t.base, owner, 'GET', '/sentinel/services');
    expect(own.body.results.every((s: { permissions: number }) => s.permissions === ALL_PERMISSIONS)).toBe(
      true,
    );

    const mod = await call(t.base, moderator, 'GET', '/sentinel/services');
    expect(names(mod.body)).toEqual(['Island PvE', 'Scorched PvP']);
    expect(mod.body.results[0].permissions).toBe(GROUP_SERVICE_MASK & MODERATOR_BITS);

    expect((await call(t.base, stranger, 'GET', '/sentinel/services')).body.totalResults).toBe(0);
    expect((await call(t.base, null, 'GET', '/sentinel/services')).status).toBe(401);
  });

  it('GET one is 404 objectNotFound for a caller who cannot see it', async () => {
    const aberration = t.demo.servers[2].serviceId;
    const own = await call(t.base, owner, 'GET', `/sentinel/services/${aberration}`);
    expect(own.body).toMatchObject({
      serviceId: aberration,
      displayName: 'Aberration Cluster',
      miniDisplayName: 'Aberration Cluster',
      color: 'None',
      gameSpecific: {},
      languages: ['en'],
      maxPlayers: -1,
      clusterId: '00000000-0000-0000-0000-000000000000',
      difficulty: 5,
      kickUntrackedPlayers: true,
    });
    for (const who of [moderator, stranger]) {
      const res = await call(t.base, who, 'GET', `/sentinel/services/${aberration}`);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('objectNotFound');
    }
  });
});

describe('changing services', () => {
  it('PATCH changes only editable fields and needs EditServices', async () => {
    const id = t.demo.servers[0].serviceId;
    const res = await call(t.base, owner, 'PATCH', `/sentinel/services/${id}`, {
      nickname: 'The Island',
      color: 'Teal',
      name: 'Renamed?',
      currentPlayers: 99,
      gameSpecific: { mapName: 'TheIsland' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Island PvE',
      nickname: 'The Island',
      displayName: 'The Island',
      color: 'Teal',
      currentPlayers: 0,
      gameSpecific: { mapName: 'TheIsland' },
    });

    const denied = await call(t.base, moderator, 'PATCH', `/sentinel/services/${id}`, { nickname: 'Mine' });
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ code: 'forbidden', details: { nickname: 'Mine' } });
    const hidden = await call(t.base, stranger, 'PATCH', `/sentinel/services/${id}`, { nickname: 'Mine' });
    expect(hidden.status).toBe(404);
  });

  it('validates with the domain messages', async () => {
    const id = t.demo.servers[1].serviceId;
    const lang = await call(t.base, owner, 'PATCH', `/sentinel/services/${id}`, { languages: ['en', 'xx'] });
    expect(lang.status).toBe(400);
    expect(lang.body).toMatchObject({
      code: 'validation',
      message: 'Palisade does not support language xx.',
    });
    const nick = await call(t.base, owner, 'PATCH', `/sentinel/services/${id}`, { nickname: 'n'.repeat(65) });
    expect(nick.body.message).toBe('The nickname can be at most 64 characters.');
    const color = await call(t.base, owner, 'PATCH', `/sentinel/services/${id}`, { color: 'Chartreuse' });
    expect(color.body.code).toBe('validation');
    const text = await fetch(`${t.base}/sentinel/services/${id}`, {
      method: 'PATCH',
      headers: { Authorization: `Bearer ${owner}`, 'Content-Type': 'text/plain' },
      body: '{}',
    });
    expect((await text.json()).code).toBe('badContentType');
  });

  it('bulk POST creates within the subscription and updates; DELETE is soft and owner-only', async () => {
    const res = await call(t.base, owner, 'POST', '/sentinel/services', [
      { gameId: 'ArkSA', name: 'Fjordur PvE', platform: 'PC', languages: ['en'] },
      { serviceId: t.demo.servers[1].serviceId, miniName: 'SE' },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.created[0]).toMatchObject({ name: 'Fjordur PvE', userId: t.demo.userId });
    expect(res.body.created[0].accessKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.body.updated[0].miniDisplayName).toBe('SE');

    const missing = await call(t.base, owner, 'POST', '/sentinel/services', { gameId: 'ArkSA' });
    expect(missing.body).toMatchObject({
      code: 'missingProperties',
      message: 'Missing properties name, platform and languages.',
    });
    const overLimit = await call(t.base, stranger, 'POST', '/sentinel/services', {
      gameId: 'ArkSA',
      name: 'Nope',
      platform: 'PC',
      languages: ['en'],
    });
    expect(overLimit.body).toMatchObject({ code: 'tooManyResources', details: { used: 0, allowed: 0 } });

    const created = res.body.created[0].serviceId;
    const modDelete = await call(
      t.base,
      moderator,
      'DELETE',
      `/sentinel/services/${t.demo.servers[0].serviceId}`,
    );
    expect(modDelete.status).toBe(403);
    expect((await call(t.base, owner, 'DELETE', `/sentinel/services/${created}`)).status).toBe(204);
    expect((await call(t.base, owner, 'GET', `/sentinel/services/${created}`)).status).toBe(404);
    const row = await t.server.db.query<{ deleted: boolean }>(
      'SELECT deleted FROM services WHERE service_id = $1',
      [created],
    );
    expect(row.rows[0].deleted).toBe(true);
  });
});

/** A game server's link: resolves with its first answer and, later, its close code. */
async function helloWith(accessKey: string) {
  const ws = new WebSocket(`${t.server.url.replace('http', 'ws')}/v4/sentinel/link`);
  const closed = new Promise<number>((r) => ws.on('close', (code) => r(code)));
  const first = new Promise<{ type: string; code?: string }>((r) =>
    ws.once('message', (d) => r(JSON.parse(d.toString()))),
  );
  await new Promise((r) => ws.once('open', r));
  ws.send(JSON.stringify({ type: 'hello', accessKey, protocol: 1 }));
  return { first: await first, closed, ws };
}

describe('access keys', () => {
  it('are shown to the owner and to editors of the server, to nobody else', async () => {
    const island = t.demo.servers[0];
    const own = await call(t.base, owner, 'GET', `/sentinel/services/${island.serviceId}`);
    expect(own.body.accessKey).toBe(island.accessKey);
    const mod = await call(t.base, moderator, 'GET', `/sentinel/services/${island.serviceId}`);
    expect(mod.status).toBe(200);
    expect(mod.body.accessKey).toBeNull();
    const list = await call(t.base, moderator, 'GET', '/sentinel/services');
    expect(list.body.results.map((s: { accessKey: unknown }) => s.accessKey)).toEqual([null, null]);

    // An editor through a group (EditServices granted to the moderator there) does see it.
    const editing = await t.server.db.query<{ permissions: number }>(
      'UPDATE group_users SET permissions = permissions | $2 WHERE user_id = $1 RETURNING permissions',
      [t.demo.moderator.userId, Perm.EditServices],
    );
    try {
      expect(editing.rows.length).toBe(1);
      const editor = await call(t.base, moderator, 'GET', `/sentinel/services/${island.serviceId}`);
      expect(editor.body.accessKey).toBe(island.accessKey);
    } finally {
      await t.server.db.query('UPDATE group_users SET permissions = $2 WHERE user_id = $1', [
        t.demo.moderator.userId,
        MODERATOR_BITS,
      ]);
    }
  });

  it('regenerating one closes the link that used the old key; only editors may', async () => {
    const scorched = t.demo.servers[1];
    const path = `/sentinel/services/${scorched.serviceId}/accessKey`;
    expect((await call(t.base, moderator, 'POST', path)).status).toBe(403);
    expect((await call(t.base, stranger, 'POST', path)).status).toBe(404);
    const link = await helloWith(scorched.accessKey);
    expect(link.first.type).toBe('welcome');

    const res = await call(t.base, owner, 'POST', path);
    expect(res.status).toBe(200);
    expect(res.body.serviceId).toBe(scorched.serviceId);
    expect(res.body.accessKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.body.accessKey).not.toBe(scorched.accessKey);
    // Told as the game would be at its next hello: the key no longer holds.
    expect(await link.closed).toBe(BAD_ACCESS_KEY_CLOSE);

    const stale = await helloWith(scorched.accessKey);
    expect(stale.first).toMatchObject({ type: 'error', code: 'badAccessKey' });
    const fresh = await helloWith(res.body.accessKey);
    expect(fresh.first.type).toBe('welcome');
    fresh.ws.close();
    await fresh.closed;
  });
});

describe('channel auth', () => {
  const auth = (token: string, channel: string) =>
    fetch(`${t.base}/pusher/channelAuth`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ socket_id: '123.456', channel_name: channel }),
    });

  it('signs allowed channels with key:user:HMAC for the built-in endpoint, naming whom it granted', async () => {
    const channel = `private-sentinel.services.${t.demo.servers[0].serviceId}`;
    for (const [token, userId] of [
      [owner, t.demo.userId],
      [moderator, t.demo.moderator.userId],
    ]) {
      const res = await auth(token, channel);
      expect(res.status).toBe(200);
      const { key, secret } = t.server.config.pusher;
      expect(await res.json()).toEqual({
        auth: `${key}:${userId}:${hmacHex(secret, `123.456:${channel}:${userId}`)}`,
      });
    }
    expect((await auth(owner, `private-users.${t.demo.userId}`)).status).toBe(200);
    expect((await auth(stranger, 'private-sentinel.players.anything')).status).toBe(200);
    expect((await auth(owner, `private-sentinel.groups.${t.demo.groupId}`)).status).toBe(200);
    expect((await auth(moderator, `private-sentinel.groups.${t.demo.groupId}`)).status).toBe(200);
  });

  it('refuses with 403 for another user and 404 naming the id otherwise', async () => {
    expect((await auth(moderator, `private-users.${t.demo.userId}`)).status).toBe(403);
    const aberration = t.demo.servers[2].serviceId;
    const res = await auth(moderator, `private-sentinel.services.${aberration}`);
    expect(res.status).toBe(404);
    expect((await res.json()).details).toEqual({ serviceId: aberration });
    expect((await auth(stranger, `private-sentinel.groups.${t.demo.groupId}`)).status).toBe(404);
    const odd = await auth(owner, 'private-projects.123');
    expect((await odd.json()).details).toEqual({ prefix: 'private-projects' });
  });
});

describe('permission views', () => {
  it('service_permissions agrees with resolvePermissions for any group setup', async () => {
    const db = t.server.db;
    const { rows } = await db.query<{ service_id: string }>(
      `INSERT INTO services (user_id, game_id, name, platform, access_key, access_key_hash)
       VALUES ($1, 'Ark', 'Perm Probe', 'PC', 'k', $2) RETURNING service_id`,
      [t.demo.userId, randomToken()],
    );
    const serviceId = rows[0].service_id;
    const bits = fc.integer({ min: 0, max: 16383 }).map((b) => b | Perm.Membership);
    const grant = fc.record({ mask: bits, userBits: fc.option(bits, { nil: null }) });
    await fc.assert(
      fc.asyncProperty(fc.array(grant, { minLength: 0, maxLength: 3 }), async (grants) => {
        await db.query('DELETE FROM groups WHERE name LIKE $1', ['probe-%']);
        for (const [i, g] of grants.entries()) {
          // A null userBits means the stranger owns the group.
          const ownerId = g.userBits === null ? strangerId : t.demo.userId;
          const { rows: gr } = await db.query<{ group_id: string }>(
            'INSERT INTO groups (user_id, name) VALUES ($1, $2) RETURNING group_id',
            [ownerId, `probe-${i}`],
          );
          await db.query(
            'INSERT INTO group_services (group_id, service_id, permissions_mask) VALUES ($1, $2, $3)',
            [gr[0].group_id, serviceId, g.mask],
          );
          if (g.userBits !== null)
            await db.query('INSERT INTO group_users (group_id, user_id, permissions) VALUES ($1, $2, $3)', [
              gr[0].group_id,
              strangerId,
              g.userBits,
            ]);
        }
        const view = await db.query<{ permissions: number }>(
          'SELECT permissions FROM service_permissions WHERE service_id = $1 AND user_id = $2',
          [serviceId, strangerId],
        );
        const expected = resolvePermissions(
          false,
          grants.map((g) => ({ linkMask: g.mask, userBits: g.userBits })),
        );
        expect(view.rows[0]?.permissions ?? 0).toBe(expected);
      }),
      { numRuns: 40 },
    );
    await db.query('DELETE FROM groups WHERE name LIKE $1', ['probe-%']);
  });
});
