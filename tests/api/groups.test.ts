// /sentinel/groups and its link classes: create/patch/put/delete rules, bulk all-or-nothing, the
// group-name message, list authorisation of group links, granting bits, cluster groups.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { Perm } from '../../src/domain/permissions.ts';
import { call, DEMO, signIn, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
let owner: string;
let moderator: string;

beforeAll(async () => {
  t = await startTestServer();
  [owner, moderator] = await Promise.all([
    signIn(t.base).then((x) => x.access_token),
    signIn(t.base, t.demo.moderator.email, DEMO.password).then((x) => x.access_token),
  ]);
});
afterAll(() => t?.close());

it('creates groups in bulk all-or-nothing, with the spec message for short names', async () => {
  const bad = await call(t.base, owner, 'POST', '/sentinel/groups', [{ name: 'Fine name' }, { name: 'ab' }]);
  expect(bad).toMatchObject({
    status: 400,
    body: { code: 'validation', message: 'The group name should be at least 3 characters' },
  });
  expect((await call(t.base, owner, 'GET', '/sentinel/groups?name=Fine')).body.totalResults).toBe(0);
  const missing = await call(t.base, owner, 'POST', '/sentinel/groups', { color: 'Red' });
  expect(missing.body).toMatchObject({ code: 'missingProperties', message: 'Missing property name.' });
  expect((await call(t.base, owner, 'POST', '/sentinel/groups', [])).body.code).toBe('noObjects');

  const ok = await call(t.base, owner, 'POST', '/sentinel/groups', [
    { name: 'Alpha', color: 'Red' },
    { name: 'Beta' },
  ]);
  expect(ok.status).toBe(200);
  expect(ok.body.created.map((g: { name: string }) => g.name)).toEqual(['Alpha', 'Beta']);
  expect(ok.body.created[0]).toMatchObject({
    color: 'Red',
    permissions: 9007199254740991,
    isClusterGroup: false,
  });
  const dup = await call(t.base, owner, 'POST', '/sentinel/groups', { name: 'Alpha' });
  expect(dup.body.code).toBe('duplicate');

  const alpha = ok.body.created[0].groupId;
  const update = await call(t.base, owner, 'POST', '/sentinel/groups', { groupId: alpha, color: 'Blue' });
  expect(update.body.updated[0]).toMatchObject({ name: 'Alpha', color: 'Blue' });
  const replaced = await call(t.base, owner, 'PUT', `/sentinel/groups/${alpha}`, { name: 'Alpha' });
  expect(replaced).toMatchObject({ status: 200, body: { color: 'None' } });
  const made = await call(t.base, owner, 'PUT', '/sentinel/groups/0b7c3b5e-0000-4000-8000-000000000001', {
    name: 'Gamma',
  });
  expect(made.status).toBe(201);
  expect(
    (await call(t.base, owner, 'PATCH', '/sentinel/groups/0b7c3b5e-0000-4000-8000-000000000002', {})).status,
  ).toBe(404);
  expect((await call(t.base, owner, 'DELETE', `/sentinel/groups/${alpha}`)).status).toBe(204);
  expect((await call(t.base, owner, 'GET', `/sentinel/groups/${alpha}`)).body.code).toBe('objectNotFound');
});

it('lists the group links only through a group or resource the caller can see', async () => {
  const list = await call(t.base, moderator, 'GET', `/sentinel/groupServices?groupId=${t.demo.groupId}`);
  expect(list.body.results.map((s: { serviceDisplayName: string }) => s.serviceDisplayName)).toEqual([
    'Island PvE',
    'Scorched PvP',
  ]);
  expect(list.body.results[0]).toMatchObject({
    groupName: 'Demo Cluster',
    groupPermissions: Perm.Membership | Perm.ControlServices,
  });
  const unfiltered = await call(t.base, moderator, 'GET', '/sentinel/groupServices');
  expect(unfiltered).toMatchObject({ status: 403, body: { code: 'forbidden' } });
  const mine = await call(t.base, moderator, 'GET', '/sentinel/groupUsers');
  expect(mine.body.results.map((u: { userId: string }) => u.userId)).toEqual([t.demo.moderator.userId]);
});

it('a member who manages users cannot grant bits they lack', async () => {
  await t.server.db.query('UPDATE group_users SET permissions = $1 WHERE user_id = $2', [
    Perm.Membership | Perm.ManageUsers,
    t.demo.moderator.userId,
  ]);
  const { rows } = await t.server.db.query<{ id: string }>(
    `INSERT INTO users (username, email, password_hash) VALUES ('New', 'new@x.local', 'x') RETURNING user_id AS id`,
  );
  const add = (permissions: number) =>
    call(t.base, moderator, 'POST', '/sentinel/groupUsers', {
      groupId: t.demo.groupId,
      userId: rows[0].id,
      permissions,
    });
  expect((await add(Perm.Membership | Perm.EditGroup)).status).toBe(403);
  expect((await add(Perm.ManageUsers)).body.code).toBe('validation');
  const ok = await add(Perm.Membership | Perm.ManageUsers);
  expect(ok.body.created[0]).toMatchObject({
    username: 'New',
    permissions: Perm.Membership | Perm.ManageUsers,
  });
});

it('keeps a server in at most one cluster group', async () => {
  const g = await call(t.base, owner, 'POST', '/sentinel/groups', {
    name: 'Chat cluster',
    enableGroupChat: true,
  });
  const groupId = g.body.created[0].groupId;
  await call(t.base, owner, 'PATCH', `/sentinel/groups/${t.demo.groupId}`, { enableGroupChat: true });
  const clash = await call(t.base, owner, 'POST', '/sentinel/groupServices', {
    groupId,
    serviceId: t.demo.servers[0].serviceId,
    permissionsMask: 1,
  });
  expect(clash).toMatchObject({
    status: 400,
    body: { message: 'A server can be in only one cluster group.' },
  });
  const free = await call(t.base, owner, 'POST', '/sentinel/groupServices', {
    groupId,
    serviceId: t.demo.servers[2].serviceId,
    permissionsMask: 1,
  });
  expect(free.body.created[0]).toMatchObject({
    serviceDisplayName: 'Aberration Cluster',
    permissionsMask: 1,
  });
});

it('finds a user by email, full user id or username#discriminator, never an anonymous one', async () => {
  const lookup = (query: string) =>
    call(t.base, owner, 'GET', `/sentinel/userLookup?query=${encodeURIComponent(query)}`);
  const byEmail = await lookup(t.demo.moderator.email.toUpperCase());
  expect(byEmail.status).toBe(200);
  const { userId, usernameFull } = byEmail.body;
  expect(byEmail.body).toMatchObject({ userId: t.demo.moderator.userId, isAnonymous: false });
  expect((await lookup(userId)).body.userId).toBe(userId);
  expect((await lookup(usernameFull)).body.userId).toBe(userId);
  expect((await lookup('nobody@x.local')).body).toMatchObject({
    code: 'userNotFound',
    message: 'No user has that email, user id or username#discriminator.',
  });
  expect((await lookup('  ')).body.code).toBe('missingQuery');

  const { rows } = await t.server.db.query<{ user_id: string }>(
    `INSERT INTO users (username, email, password_hash, is_anonymous) VALUES ('Anon', 'anon@x.local', 'x', true)
     RETURNING user_id`,
  );
  expect((await lookup('anon@x.local')).body).toMatchObject({
    code: 'anonymousUser',
    message: 'Anonymous users cannot be added to a group.',
  });
  const added = await call(t.base, owner, 'POST', '/sentinel/groupUsers', {
    groupId: t.demo.groupId,
    userId: rows[0].user_id,
    permissions: 1,
  });
  expect(added).toMatchObject({ status: 400, body: { code: 'validation' } });
});

it('takes the chat community through every state: not linked, code requested, linked, unlinked', async () => {
  const made = await call(t.base, owner, 'POST', '/sentinel/groups', { name: 'Linkable' });
  const id = made.body.created[0].groupId;
  const patch = (body: unknown) => call(t.base, owner, 'PATCH', `/sentinel/groups/${id}`, body);
  expect((await patch({ discordLinkCode: 'abc' })).body).toMatchObject({
    code: 'validation',
    message: 'A link code is 6 characters of 349ACDEFHJKMNPQRTUVWXY.',
  });
  expect((await patch({ discordLinkCode: 'ACDEF9' })).body).toMatchObject({ discordLinkCode: 'ACDEF9' });
  await t.server.db.query(
    `UPDATE groups SET discord_link_code = NULL, discord_guild_id = '42', discord_guild_name = 'Tribe Hall'
      WHERE group_id = $1`,
    [id],
  );
  await patch({ discordLinkCode: null, discordGuildId: null, discordChatChannelId: null });
  const after = await call(t.base, owner, 'GET', `/sentinel/groups/${id}`);
  expect(after.body).toMatchObject({ discordLinkCode: null, discordGuildId: null, discordGuildName: null });
});

it('edits what a group may do on one of its servers: members’ bits there follow, a bad mask is refused', async () => {
  await t.server.db.query('UPDATE group_users SET permissions = $1 WHERE user_id = $2', [
    Perm.Membership | Perm.ControlServices,
    t.demo.moderator.userId,
  ]);
  const island = t.demo.servers[0].serviceId;
  const links = await call(
    t.base,
    owner,
    'GET',
    `/sentinel/groupServices?groupId=${t.demo.groupId}&serviceId=${island}`,
  );
  const link = links.body.results[0];
  const mask = (token: string, permissionsMask: number) =>
    call(t.base, token, 'PATCH', `/sentinel/groupServices/${link.groupServiceId}`, { permissionsMask });
  const moderatorBits = async () =>
    (await call(t.base, moderator, 'GET', `/sentinel/services/${island}`)).body.permissions as number;
  expect(await moderatorBits()).toBe(Perm.Membership | Perm.ControlServices);

  // Narrowed to membership: the moderator still sees the server, and can no longer control it.
  expect((await mask(owner, Perm.Membership)).body).toMatchObject({ permissionsMask: Perm.Membership });
  expect(await moderatorBits()).toBe(Perm.Membership);
  const command = await call(t.base, moderator, 'POST', '/sentinel/gameCommands', {
    type: 'admin',
    serviceId: island,
    command: 'saveworld',
  });
  expect(command).toMatchObject({ status: 403, body: { code: 'forbidden' } });

  // The API's rules for a mask, and who may change it.
  expect((await mask(owner, Perm.ControlServices)).body).toMatchObject({
    code: 'validation',
    message: 'permissionsMask must include Membership (1).',
  });
  expect((await mask(owner, 1.5)).body).toMatchObject({
    code: 'validation',
    message: 'permissionsMask must be a whole number of permission bits.',
  });
  expect(await mask(moderator, 16383)).toMatchObject({ status: 403, body: { code: 'forbidden' } });
  expect(await moderatorBits()).toBe(Perm.Membership);

  expect((await mask(owner, link.permissionsMask)).status).toBe(200);
  expect(await moderatorBits()).toBe(Perm.Membership | Perm.ControlServices);
});
