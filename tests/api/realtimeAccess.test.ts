// Live subscriptions follow access: a member removed from a group stops hearing the group's
// channel and its servers' at once, not at their next reload, while a member still in it goes on
// hearing them. The grant names its user; a grant for another socket or user is refused.

import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { channelFor, userChannel } from '../../src/domain/api.ts';
import { Perm } from '../../src/domain/permissions.ts';
import { call, signIn, startTestServer, type TestServer, until } from './helpers.ts';

let t: TestServer;
let owner: string;
let member: string;
let memberId: string;

beforeAll(async () => {
  t = await startTestServer();
  owner = (await signIn(t.base)).access_token;
  member = (await signIn(t.base, t.demo.moderator.email, 'palisade-demo')).access_token;
  memberId = t.demo.moderator.userId;
});
afterAll(() => t?.close());

/** A pusher-js-like socket on the built-in endpoint that subscribes with the console's channel auth. */
async function socketOf(token: string) {
  const frames: { event: string; channel?: string; data: string }[] = [];
  const ws = new WebSocket(`${t.server.url.replace(/^http/, 'ws')}/app/palisade?protocol=7`);
  ws.on('message', (d) => frames.push(JSON.parse(d.toString())));
  await until(
    'the socket open',
    () => frames.some((f) => f.event === 'pusher:connection_established'),
    15_000,
  );
  const socketId = JSON.parse(frames[0].data).socket_id as string;
  const subscribe = async (channel: string, auth?: string) => {
    const grant =
      auth ??
      (
        (await (
          await fetch(`${t.base}/pusher/channelAuth`, {
            method: 'POST',
            headers: {
              Authorization: `Bearer ${token}`,
              'Content-Type': 'application/x-www-form-urlencoded',
            },
            body: new URLSearchParams({ socket_id: socketId, channel_name: channel }),
          })
        ).json()) as { auth: string }
      ).auth;
    const before = frames.length;
    ws.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel, auth: grant } }));
    await until(
      `the answer to subscribing ${channel}`,
      () =>
        frames
          .slice(before)
          .some(
            (f) =>
              f.channel === channel &&
              (f.event === 'pusher_internal:subscription_succeeded' ||
                f.event === 'pusher:subscription_error'),
          ),
      15_000,
    );
    return frames.slice(before).some((f) => f.event === 'pusher_internal:subscription_succeeded');
  };
  return { ws, frames, socketId, subscribe };
}

/**
 * Whether a socket hears `channel` now: a probe is published on it and then a marker on the
 * user's own channel, which the socket always hears; delivery is in order, so once the marker
 * is in, the probe would be too.
 */
async function hears(s: Awaited<ReturnType<typeof socketOf>>, userId: string, channel: string) {
  const n = `${Date.now()}-${Math.random()}`;
  await t.server.publisher.publish([channel], 'probe', { n });
  await t.server.publisher.publish([userChannel(userId)], 'marker', { n });
  await until('the marker', () => s.frames.some((f) => f.event === 'marker' && f.data.includes(n)), 15_000);
  return s.frames.some((f) => f.event === 'probe' && f.data.includes(n));
}

it('stops a removed member hearing the group and its servers, and keeps the others hearing them', async () => {
  const made = await call(t.base, owner, 'POST', '/sentinel/groups', { name: 'Night Shift' });
  const groupId = made.body.created[0].groupId as string;
  const serviceId = t.demo.servers[2].serviceId;
  await call(t.base, owner, 'POST', '/sentinel/groupServices', {
    groupId,
    serviceId,
    permissionsMask: Perm.Membership | Perm.ControlServices,
  });
  const added = await call(t.base, owner, 'POST', '/sentinel/groupUsers', {
    groupId,
    userId: memberId,
    permissions: Perm.Membership,
  });
  expect(added.status).toBe(200);
  const ownerId = (await call(t.base, owner, 'GET', '/user')).body.userId as string;

  const mine = await socketOf(member);
  const theirs = await socketOf(owner);
  const channels = [channelFor('groups', groupId), channelFor('services', serviceId)];
  for (const s of [mine, theirs]) {
    expect(await s.subscribe(userChannel(s === mine ? memberId : ownerId))).toBe(true);
    for (const ch of channels) expect(await s.subscribe(ch)).toBe(true);
  }
  for (const ch of channels) expect(await hears(mine, memberId, ch)).toBe(true);

  const removed = await call(
    t.base,
    owner,
    'DELETE',
    `/sentinel/groupUsers/${added.body.created[0].groupUserId}`,
  );
  expect(removed.status).toBe(204);
  for (const ch of channels)
    await until(`${ch} taken back`, async () => !(await hears(mine, memberId, ch)), 15_000);
  // The owner still holds the group and the server.
  for (const ch of channels) expect(await hears(theirs, ownerId, ch)).toBe(true);
  // Asked again, the channel is refused.
  expect(await mine.subscribe(channels[0])).toBe(false);
  mine.ws.close();
  theirs.ws.close();
});

it('refuses a grant made for another socket, or one that names another user', async () => {
  const a = await socketOf(member);
  const b = await socketOf(member);
  const channel = userChannel(memberId);
  const grant = (
    (await (
      await fetch(`${t.base}/pusher/channelAuth`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${member}`, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ socket_id: a.socketId, channel_name: channel }),
      })
    ).json()) as { auth: string }
  ).auth;
  expect(grant.split(':')[1]).toBe(memberId);
  expect(await b.subscribe(channel, grant)).toBe(false);
  const [key, , sig] = grant.split(':');
  expect(await a.subscribe(channel, `${key}:00000000-0000-4000-8000-000000000000:${sig}`)).toBe(false);
  expect(await a.subscribe(channel, grant)).toBe(true);
  a.ws.close();
  b.ws.close();
});
