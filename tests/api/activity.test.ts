// The activity trail: every kind of write leaves exactly one entry naming who, what, target and
// outcome; the entry commits with the change or not at all; who may read a server's or group's
// trail; and no route changes or deletes an entry.

import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ActivityEntry } from '../../src/domain/activity.ts';
import { Perm } from '../../src/domain/permissions.ts';
import { hashPassword } from '../../src/server/crypto.ts';
import {
  call,
  DEMO,
  linkGameServers,
  signIn,
  signInStranger,
  startTestServer,
  type TestServer,
} from './helpers.ts';

let t: TestServer;
let owner: string;
let moderator: string;
let manager: string;
let newcomerId: string;
let stranger: string;
let sim: Awaited<ReturnType<typeof linkGameServers>>;
let serviceId: string;
let groupId: string;
const EOS = `0002${'ab'.repeat(14)}`;

beforeAll(async () => {
  t = await startTestServer();
  serviceId = t.demo.servers[0].serviceId;
  groupId = t.demo.groupId;
  // A member of the demo group holding ManageUsers, which the group also grants on the first server.
  const made = await t.server.db.query<{ user_id: string }>(
    `INSERT INTO users (username, email, password_hash)
     VALUES ('Manager', 'manager@palisade.local', $1), ('Newcomer', 'newcomer@palisade.local', $1)
     RETURNING user_id`,
    [await hashPassword(DEMO.password)],
  );
  const managerId = made.rows[0].user_id;
  newcomerId = made.rows[1].user_id;
  await t.server.db.query('INSERT INTO group_users (group_id, user_id, permissions) VALUES ($1, $2, $3)', [
    groupId,
    managerId,
    Perm.Membership | Perm.ManageUsers,
  ]);
  await t.server.db.query(
    'UPDATE group_services SET permissions_mask = permissions_mask | $3 WHERE group_id = $1 AND service_id = $2',
    [groupId, serviceId, Perm.ManageUsers],
  );
  const player = await t.server.db.query<{ player_id: string }>(
    `INSERT INTO players (name) VALUES ('Griefer') RETURNING player_id`,
  );
  await t.server.db.query(
    `INSERT INTO player_identifiers (player_id, provider, identifier, name) VALUES ($1, 'EOS', $2, 'Griefer')`,
    [player.rows[0].player_id, EOS],
  );
  [owner, moderator, manager, stranger] = await Promise.all([
    signIn(t.base).then((x) => x.access_token),
    signIn(t.base, t.demo.moderator.email, DEMO.password).then((x) => x.access_token),
    signIn(t.base, 'manager@palisade.local', DEMO.password).then((x) => x.access_token),
    signInStranger(t),
  ]);
  sim = await linkGameServers(t, t.demo.servers.slice(0, 1));
});
afterAll(async () => {
  await sim?.stop();
  await t?.close();
});

/** The caller's own trail, newest first. */
async function own(token: string): Promise<ActivityEntry[]> {
  const r = await call(t.base, token, 'GET', '/sentinel/activity?pageSize=250');
  expect(r.status).toBe(200);
  return r.body.results;
}

/** Runs a write and returns the one entry it left in the caller's own trail. */
async function oneEntry(token: string, write: () => Promise<{ status: number }>): Promise<ActivityEntry> {
  const before = new Set((await own(token)).map((e) => e.activityId));
  const r = await write();
  const added = (await own(token)).filter((e) => !before.has(e.activityId));
  expect({ status: r.status, added: added.length }).toMatchObject({ added: 1 });
  return added[0];
}

const trailOf = async (token: string, query: string) =>
  call(t.base, token, 'GET', `/sentinel/activity?${query}&pageSize=250`);

it('keeps one entry per write with who, what, target and outcome, for every kind of write', async () => {
  const who = { userId: t.demo.userId, username: 'Demo Admin' };
  const cases: [string, () => Promise<{ status: number }>, Partial<ActivityEntry>][] = [
    [
      'game command',
      () =>
        call(t.base, owner, 'POST', '/sentinel/gameCommands', {
          type: 'admin',
          command: 'saveworld',
          serviceId,
        }),
      {
        kind: 'gameCommands',
        action: 'run',
        target: serviceId,
        serviceIds: [serviceId],
        summary: 'Type: admin, Command: saveworld',
      },
    ],
    [
      'game command to a group',
      () =>
        call(t.base, owner, 'POST', '/sentinel/gameCommands', { type: 'broadcast', message: 'all', groupId }),
      { kind: 'gameCommands', action: 'run', target: groupId, serviceIds: [], groupIds: [groupId] },
    ],
    [
      'chat',
      () => call(t.base, owner, 'POST', '/sentinel/chat', { message: 'hello trail', serviceId }),
      { kind: 'chat', action: 'send', serviceIds: [serviceId], summary: 'Message: hello trail' },
    ],
    [
      'ban',
      () =>
        call(t.base, owner, 'POST', '/sentinel/serviceBans', {
          serviceId,
          playerId: EOS,
          comments: 'griefing',
        }),
      { kind: 'serviceBans', action: 'create', target: EOS, serviceIds: [serviceId] },
    ],
    [
      'settings',
      () => call(t.base, owner, 'PATCH', `/sentinel/services/${serviceId}`, { nickname: 'Isle' }),
      {
        kind: 'services',
        action: 'update',
        target: serviceId,
        serviceIds: [serviceId],
        summary: 'Nickname: Isle',
      },
    ],
    [
      'group membership',
      () =>
        call(t.base, owner, 'POST', '/sentinel/groupUsers', {
          groupId,
          userId: newcomerId,
          permissions: Perm.Membership,
        }),
      { kind: 'groupUsers', action: 'create', target: newcomerId, groupIds: [groupId] },
    ],
  ];
  for (const [name, write, expected] of cases) {
    const e = await oneEntry(owner, write);
    expect({ name, ...e }).toMatchObject({ name, ...who, outcome: 'ok', ...expected });
  }
});

it('records bans removed by id, permission changes, notes and script attachments with their scope', async () => {
  const ban = await call(t.base, owner, 'GET', `/sentinel/serviceBans?serviceId=${serviceId}`);
  const banId = ban.body.results[0].serviceBanId;
  const removed = await oneEntry(owner, () =>
    call(t.base, owner, 'DELETE', `/sentinel/serviceBans/${banId}`),
  );
  expect(removed).toMatchObject({
    kind: 'serviceBans',
    action: 'delete',
    target: banId,
    serviceIds: [serviceId],
    outcome: 'ok',
  });

  const members = await call(
    t.base,
    owner,
    'GET',
    `/sentinel/groupUsers?groupId=${groupId}&userId=${t.demo.moderator.userId}`,
  );
  const groupUserId = members.body.results[0].groupUserId;
  const bits = await oneEntry(owner, () =>
    call(t.base, owner, 'PATCH', `/sentinel/groupUsers/${groupUserId}`, {
      permissions: Perm.Membership | Perm.ControlServices | Perm.ManageBans,
    }),
  );
  expect(bits).toMatchObject({
    kind: 'groupUsers',
    action: 'update',
    target: groupUserId,
    groupIds: [groupId],
    outcome: 'ok',
  });

  const players = await call(t.base, owner, 'GET', `/sentinel/players?identifier=${EOS}`);
  const playerId = players.body.results[0].playerId;
  const note = await oneEntry(owner, () =>
    call(t.base, owner, 'POST', '/sentinel/playerNotes', { playerId, content: 'watch him' }),
  );
  expect(note).toMatchObject({
    kind: 'playerNotes',
    action: 'create',
    target: playerId,
    outcome: 'ok',
    serviceIds: [],
    groupIds: [],
  });

  const script = await call(t.base, owner, 'POST', '/sentinel/scripts', {
    name: 'Trail test',
    preview: 'x',
    events: [],
  });
  const scriptId = script.body.created[0].scriptId;
  const attached = await oneEntry(owner, () =>
    call(t.base, owner, 'POST', '/sentinel/serviceScripts', { serviceId, scriptId, parameterValues: {} }),
  );
  expect(attached).toMatchObject({
    kind: 'serviceScripts',
    target: scriptId,
    serviceIds: [serviceId],
    outcome: 'ok',
  });
});

it('puts a group ban in the trail of every server of the group, naming the player', async () => {
  const players = await call(t.base, owner, 'GET', `/sentinel/players?identifier=${EOS}`);
  const playerId = players.body.results[0].playerId;
  const entry = await oneEntry(owner, () =>
    call(t.base, owner, 'POST', '/sentinel/groupBans', {
      groupId,
      playerId,
      comments: 'griefing the cluster',
    }),
  );
  expect(entry).toMatchObject({
    kind: 'groupBans',
    action: 'create',
    target: playerId,
    targetName: 'Griefer',
  });
  const servers = await call(t.base, owner, 'GET', `/sentinel/groupServices?groupId=${groupId}`);
  const serviceIds = servers.body.results.map((r: { serviceId: string }) => r.serviceId);
  expect(serviceIds.length).toBeGreaterThan(1);
  for (const id of serviceIds) {
    const trail = await trailOf(owner, `serviceId=${id}`);
    expect(trail.body.results.map((e: ActivityEntry) => e.activityId)).toContain(entry.activityId);
  }
});

it('records a refused write with its outcome in the trail of the server it aimed at', async () => {
  const refused = await oneEntry(moderator, () =>
    call(t.base, moderator, 'PATCH', `/sentinel/services/${serviceId}`, { nickname: 'Mine' }),
  );
  expect(refused).toMatchObject({ userId: t.demo.moderator.userId, kind: 'services', outcome: 'forbidden' });
  const trail = await trailOf(owner, `serviceId=${serviceId}&outcome=forbidden`);
  expect(trail.body.results.map((e: ActivityEntry) => e.activityId)).toContain(refused.activityId);
  // Malformed input changes nothing and names nobody's rights: no entry.
  const before = (await own(owner)).length;
  expect((await call(t.base, owner, 'POST', '/sentinel/chat', { serviceId })).status).toBe(400);
  expect((await own(owner)).length).toBe(before);
});

it("writes the entry in the change's own transaction: a rolled-back write leaves none", async () => {
  const before = (await own(owner)).length;
  const bulk = await call(t.base, owner, 'POST', '/sentinel/groups', [{ name: 'Kept?' }, { name: 'ab' }]);
  expect(bulk.status).toBe(400);
  expect((await call(t.base, owner, 'GET', '/sentinel/groups?name=Kept')).body.totalResults).toBe(0);
  expect((await own(owner)).length).toBe(before);

  // And the other way round: an entry that cannot be written takes the change with it.
  await t.server.db.exec(`ALTER TABLE activity ADD CONSTRAINT no_group_entries CHECK (kind <> 'groups')`);
  try {
    const lost = await call(t.base, owner, 'POST', '/sentinel/groups', { name: 'Never made' });
    expect(lost.status).toBe(400);
    expect((await call(t.base, owner, 'GET', '/sentinel/groups?name=Never')).body.totalResults).toBe(0);
  } finally {
    await t.server.db.exec('ALTER TABLE activity DROP CONSTRAINT no_group_entries');
  }
  expect((await own(owner)).length).toBe(before);
  const made = await oneEntry(owner, () =>
    call(t.base, owner, 'POST', '/sentinel/groups', { name: 'Made now' }),
  );
  expect(made).toMatchObject({
    kind: 'groups',
    action: 'create',
    outcome: 'ok',
    groupIds: [expect.any(String)],
  });
});

it('lets the owner and holders of ManageUsers read a trail, nobody else', async () => {
  for (const scope of [`serviceId=${serviceId}`, `groupId=${groupId}`]) {
    const matrix = {
      owner: (await trailOf(owner, scope)).status,
      withBit: (await trailOf(manager, scope)).status,
      lackingBit: (await trailOf(moderator, scope)).status,
      stranger: (await trailOf(stranger, scope)).status,
      anonymous: (await call(t.base, null, 'GET', `/sentinel/activity?${scope}`)).status,
    };
    expect({ scope, ...matrix }).toEqual({
      scope,
      owner: 200,
      withBit: 200,
      lackingBit: 403,
      stranger: 403,
      anonymous: 401,
    });
  }
  const refused = await trailOf(moderator, `serviceId=${serviceId}`);
  expect(refused.body).toMatchObject({ code: 'forbidden', details: { serviceId } });
  const seen = await trailOf(manager, `groupId=${groupId}`);
  expect(seen.body.results.some((e: ActivityEntry) => e.kind === 'groupUsers')).toBe(true);
  // Without a scope, the caller's own writes only (and sign-ins, which are theirs).
  expect((await own(stranger)).filter((e) => e.kind !== 'signIn').length).toBe(0);
});

it('filters by user, kind and time', async () => {
  const byKind = await trailOf(owner, `serviceId=${serviceId}&kind=chat,gameCommands`);
  expect(byKind.body.results.map((e: ActivityEntry) => e.kind).sort()).toEqual(['chat', 'gameCommands']);
  const byUser = await trailOf(owner, `serviceId=${serviceId}&user=moder`);
  expect(byUser.body.results.length).toBeGreaterThan(0);
  expect(byUser.body.results.every((e: ActivityEntry) => e.userId === t.demo.moderator.userId)).toBe(true);
  const future = Math.floor(Date.now() / 1000) + 3600;
  expect((await trailOf(owner, `serviceId=${serviceId}&since=${future}`)).body.results).toEqual([]);
  expect((await trailOf(owner, `serviceId=${serviceId}&since=soon`)).body).toMatchObject({
    code: 'validation',
  });
});

it('has no route that changes or deletes an entry, and the table refuses it too', async () => {
  const [entry] = await own(owner);
  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
    expect(
      (await call(t.base, owner, method, '/sentinel/activity', { activityId: entry.activityId })).status,
    ).toBe(405);
    expect(
      (await call(t.base, owner, method, `/sentinel/activity/${entry.activityId}`, { outcome: 'ok' })).status,
    ).toBe(404);
  }
  await expect(t.server.db.query(`UPDATE activity SET outcome = 'forged'`)).rejects.toThrow(
    /cannot be changed/,
  );
  await expect(t.server.db.query('DELETE FROM activity')).rejects.toThrow(/cannot be changed/);
  expect((await own(owner)).find((e) => e.activityId === entry.activityId)).toEqual(entry);
});

it("puts an outsider's refused writes in their own trail only, never on a server or group they cannot see", async () => {
  const planted = [
    () => call(t.base, stranger, 'PATCH', `/sentinel/services/${serviceId}`, { nickname: '=HYPERLINK("x")' }),
    () => call(t.base, stranger, 'POST', '/sentinel/chat', { serviceId, message: '=cmd|calc' }),
    () =>
      call(t.base, stranger, 'POST', '/sentinel/gameCommands', { type: 'admin', command: 'x', serviceId }),
    () =>
      call(t.base, stranger, 'POST', '/sentinel/gameCommands', { type: 'broadcast', message: 'x', groupId }),
    () =>
      call(t.base, stranger, 'POST', '/sentinel/serviceBans', { serviceId, playerId: EOS, comments: '=x' }),
    () => call(t.base, stranger, 'PATCH', `/sentinel/groups/${groupId}`, { name: 'Taken over' }),
  ];
  const entries: ActivityEntry[] = [];
  for (const write of planted) {
    const before = new Set((await own(stranger)).map((e) => e.activityId));
    const r = await write();
    expect(r.status).toBeGreaterThanOrEqual(400);
    entries.push(...(await own(stranger)).filter((e) => !before.has(e.activityId)));
  }
  // Refused writes are still the caller's to see in their own trail.
  expect(entries.length).toBeGreaterThan(0);
  for (const e of entries) expect(e).toMatchObject({ outcome: 'forbidden', serviceIds: [], groupIds: [] });
  const ids = new Set(entries.map((e) => e.activityId));
  for (const scope of [`serviceId=${serviceId}`, `groupId=${groupId}`]) {
    const trail = await trailOf(owner, scope);
    expect(trail.status).toBe(200);
    expect(trail.body.results.filter((e: ActivityEntry) => ids.has(e.activityId))).toEqual([]);
  }
});
