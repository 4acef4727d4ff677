// POST /sentinel/gameCommands against the simulator: per-target results, group fan-out, the
// all-bits permission check, every body error of SPEC §8 "Run command", and disconnected targets.

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Msg } from '../../src/domain/messages.ts';
import type { Simulator } from '../../src/sim/index.ts';
import {
  call,
  DEMO,
  linkGameServers,
  signIn,
  signInStranger,
  startTestServer,
  type TestServer,
  until,
} from './helpers.ts';

let t: TestServer;
let sim: Simulator;
let owner: string;
let moderator: string;
let stranger: string;

const island = () => t.demo.servers[0];
const scorched = () => t.demo.servers[1];
const aberration = () => t.demo.servers[2];

beforeAll(async () => {
  t = await startTestServer();
  stranger = await signInStranger(t);
  [owner, moderator] = await Promise.all([
    signIn(t.base).then((x) => x.access_token),
    signIn(t.base, t.demo.moderator.email, DEMO.password).then((x) => x.access_token),
  ]);
  // The group's two servers play; Aberration stays disconnected. No ticks: only commands act.
  sim = await linkGameServers(t, [island(), scorched()]);
});
afterAll(async () => {
  await sim?.stop();
  await t?.close();
});

const run = (token: string, body: unknown) => call(t.base, token, 'POST', '/sentinel/gameCommands', body);

describe('sending commands', () => {
  it('answers with what the server replied, and logs the admin command', async () => {
    const r = await run(owner, { type: 'admin', serviceId: island().serviceId, command: 'listplayers' });
    expect(r.status).toBe(200);
    expect(r.body.results).toEqual([
      {
        serviceId: island().serviceId,
        serviceDisplayName: 'Island PvE',
        type: 'admin',
        ok: true,
        result: 'No Players Connected',
      },
    ]);
    const logs = await call(
      t.base,
      owner,
      'GET',
      `/sentinel/logMessages?serviceId=${island().serviceId}&eventName=adminCommand`,
    );
    expect(logs.body.results[0]).toMatchObject({
      message: 'Executed `listplayers`',
      metadata: { command: 'listplayers' },
    });
  });

  it('fans a group target out to each of its servers, logged once for the group', async () => {
    const r = await run(moderator, { type: 'admin', groupId: t.demo.groupId, command: 'saveworld' });
    expect(r.status).toBe(200);
    expect(
      r.body.results.map((x: { serviceDisplayName: string; ok: boolean }) => [x.serviceDisplayName, x.ok]),
    ).toEqual([
      ['Island PvE', true],
      ['Scorched PvP', true],
    ]);
    const logs = await call(
      t.base,
      owner,
      'GET',
      '/sentinel/logMessages?eventName=adminCommand&message=saveworld',
    );
    expect(logs.body.totalResults).toBe(1);
  });

  it('takes an array of commands, each with its own target', async () => {
    const r = await run(owner, [
      { type: 'admin', serviceId: island().serviceId, command: 'listplayers' },
      { type: 'broadcast', serviceId: scorched().serviceId, message: 'Restart in 5' },
    ]);
    expect(r.status).toBe(200);
    expect(r.body.results.map((x: { type: string }) => x.type)).toEqual(['admin', 'broadcast']);
  });

  it('reports a disconnected server per target, and 412 when no target was connected', async () => {
    const single = await run(owner, {
      type: 'admin',
      serviceId: aberration().serviceId,
      command: 'listplayers',
    });
    expect(single.status).toBe(412);
    expect(single.body).toMatchObject({
      code: 'serviceNotConnected',
      message: 'The server is disconnected. Try again once the server has connected.',
    });
    expect(single.body.details.results[0]).toMatchObject({ ok: false, code: 'serviceNotConnected' });

    const mixed = await run(owner, [
      { type: 'admin', serviceId: island().serviceId, command: 'listplayers' },
      { type: 'admin', serviceId: aberration().serviceId, command: 'listplayers' },
    ]);
    expect(mixed.status).toBe(200);
    expect(mixed.body.results.map((x: { ok: boolean; code?: string }) => x.code ?? x.ok)).toEqual([
      true,
      'serviceNotConnected',
    ]);
  });
});

describe('teleport', () => {
  // No ticks here, so the server has heard of nobody: a survivor of the simulated world is named.
  const survivor = async () => {
    const world = sim.servers[0].world;
    return world.survivor(world.population[0]);
  };

  it('moves a survivor to coordinates, then relative to where it stands', async () => {
    const s = await survivor();
    const at = (r: { body: { results: { result: { x: number; y: number; z: number } }[] } }) => {
      const { x, y, z } = r.body.results[0].result;
      return [x, y, z];
    };
    const target = { type: 'teleportCharacter', serviceId: island().serviceId, characterId: s.characterId };
    expect(at(await run(owner, { ...target, x: 100, y: 200, z: 300 }))).toEqual([100, 200, 300]);
    expect(at(await run(owner, { ...target, x: -50, z: 5, relative: true }))).toEqual([50, 200, 305]);
    expect(at(await run(owner, { ...target, y: 7 }))).toEqual([50, 7, 305]);
  });

  it.each([
    ['no values', {}],
    ['only blanks', { x: null, y: '', z: 'up' }],
    ['a relative flag that is not a boolean', { x: 1, relative: 'yes' }],
  ])('400 noValues for %s', async (_what, extra) => {
    const r = await run(owner, {
      type: 'teleportDino',
      serviceId: island().serviceId,
      dinoId: '6f1c7e8a-0000-4000-8000-000000000000',
      ...extra,
    });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'noValues' });
  });

  it('403 forbidden for a moderator-less stranger', async () => {
    const r = await run(stranger, {
      type: 'teleportCharacter',
      serviceId: island().serviceId,
      characterId: (await survivor()).characterId,
      x: 1,
    });
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ code: 'forbidden' });
  });
});

describe('errors', () => {
  it.each([
    ['a string', '"listplayers"', 'notObjectOrArray'],
    ['an empty array', [], 'noObjects'],
    ['a non-object member', [1], 'nonObjectMember'],
    ['no target', { type: 'admin', command: 'x' }, 'missingTargetId'],
    ['no type', { serviceId: '6f1c7e8a-0000-4000-8000-000000000000', command: 'x' }, 'missingType'],
    ['an unknown type', { type: 'nuke', serviceId: '6f1c7e8a-0000-4000-8000-000000000000' }, 'badType'],
    [
      'an admin command without text',
      { type: 'admin', serviceId: '6f1c7e8a-0000-4000-8000-000000000000' },
      'missingProperties',
    ],
  ])('400 for %s', async (_what, body, code) => {
    const r = await run(owner, body);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ type: 'beacon.error', code });
  });

  it('403 forbidden without every bit on every target, before anything is sent', async () => {
    const none = await run(stranger, {
      type: 'admin',
      serviceId: island().serviceId,
      command: 'listplayers',
    });
    expect(none.status).toBe(403);
    expect(none.body.message).toBe(
      `You do not have the correct permissions on service ${island().serviceId}.`,
    );

    // The moderator may control the group's servers but not Aberration, outside the group.
    const mixed = await run(moderator, [
      { type: 'admin', serviceId: island().serviceId, command: 'saveworld' },
      { type: 'admin', serviceId: aberration().serviceId, command: 'saveworld' },
    ]);
    expect(mixed.status).toBe(403);
    const logs = await call(
      t.base,
      owner,
      'GET',
      '/sentinel/logMessages?eventName=adminCommand&message=saveworld',
    );
    expect(logs.body.totalResults).toBe(1);

    const group = await run(stranger, { type: 'admin', groupId: t.demo.groupId, command: 'saveworld' });
    expect(group.status).toBe(403);
    expect(group.body.message).toContain(`group ${t.demo.groupId}`);
  });

  it('needs a token with sentinel:write', async () => {
    expect((await run('nope', { type: 'admin', serviceId: island().serviceId, command: 'x' })).status).toBe(
      401,
    );
  });
});

describe('kick', () => {
  const online = async () =>
    (
      await call(
        t.base,
        owner,
        'GET',
        `/sentinel/playerSessions?serviceId=${island().serviceId}&isConnected=true`,
      )
    ).body.results as { playerId: string; playerName: string }[];

  it('kicks a player named by player id with the id the server knows them by; the session ends', async () => {
    sim.servers[0].play((w) => w.join(w.population[0]));
    const [player] = await until('a player on the island', async () => {
      const on = await online();
      return on.length > 0 && on;
    });
    const r = await run(owner, {
      type: 'kickPlayer',
      serviceId: island().serviceId,
      playerId: player.playerId,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.results).toEqual([
      expect.objectContaining({ serviceDisplayName: 'Island PvE', type: 'kickPlayer', ok: true }),
    ]);
    expect(r.body.results[0].result).toMatch(/kicked$/);
    await until('the session ended', async () =>
      (await online()).every((s) => s.playerId !== player.playerId),
    );
  });

  it('says no server has seen a player it does not know, and refuses a kick without a player or the right', async () => {
    const unknown = { type: 'kickPlayer', serviceId: island().serviceId, playerId: randomUUID() };
    expect((await run(owner, unknown)).body.results).toEqual([
      expect.objectContaining({ ok: false, code: 'playerNotFound', message: Msg.kickUnknownPlayer }),
    ]);
    const missing = await run(owner, { type: 'kickPlayer', serviceId: island().serviceId });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 'missingProperties', details: { missing: ['playerId'] } });
    expect((await run(stranger, unknown)).status).toBe(403);
  });
});
