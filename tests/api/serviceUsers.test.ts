// /sentinel/serviceUsers: who holds bits on a service, with resolved permissions; the caller's own
// rows without a filter; a stable id usable for a single GET.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODERATOR_BITS } from '../../src/server/seed.ts';
import { call, DEMO, signIn, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
let owner: string;
let moderator: string;
beforeAll(async () => {
  t = await startTestServer();
  owner = (await signIn(t.base)).access_token;
  moderator = (await signIn(t.base, t.demo.moderator.email, DEMO.password)).access_token;
});
afterAll(() => t?.close());

describe('service users', () => {
  it('lists everyone with access to a service, sorted by full username', async () => {
    const island = t.demo.servers[0].serviceId;
    const r = await call(t.base, moderator, 'GET', `/sentinel/serviceUsers?serviceId=${island}`);
    expect(r.status).toBe(200);
    expect(r.body.results.map((u: { username: string }) => u.username)).toEqual(['Demo Admin', 'Moderator']);
    expect(r.body.results[1]).toMatchObject({
      serviceId: island,
      serviceDisplayName: 'Island PvE',
      userId: t.demo.moderator.userId,
      usernameFull: `Moderator#${t.demo.moderator.userId.slice(0, 8)}`,
      permissions: MODERATOR_BITS,
    });
    const one = await call(t.base, owner, 'GET', `/sentinel/serviceUsers/${r.body.results[1].serviceUserId}`);
    expect(one.body).toEqual(r.body.results[1]);
    const filtered = await call(
      t.base,
      owner,
      'GET',
      `/sentinel/serviceUsers?serviceId=${island}&username=mod`,
    );
    expect(filtered.body.totalResults).toBe(1);
  });

  it('shows nothing of services the caller cannot see, and only their own rows without a filter', async () => {
    const aberration = t.demo.servers[2].serviceId;
    const hidden = await call(t.base, moderator, 'GET', `/sentinel/serviceUsers?serviceId=${aberration}`);
    expect(hidden.body.totalResults).toBe(0);
    const mine = await call(t.base, moderator, 'GET', '/sentinel/serviceUsers');
    expect(mine.body.results.map((u: { userId: string }) => u.userId)).toEqual([
      t.demo.moderator.userId,
      t.demo.moderator.userId,
    ]);
    const sorted = await call(t.base, owner, 'GET', '/sentinel/serviceUsers?sortedColumn=serviceDisplayName');
    expect(sorted.body.results.map((u: { serviceDisplayName: string }) => u.serviceDisplayName)).toEqual([
      'Aberration Cluster',
      'Island PvE',
      'Scorched PvP',
    ]);
  });
});
