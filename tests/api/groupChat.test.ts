// Group chat (issue 12): a web line to a group reaches every server of it as WebGroup; with chat
// forwarding on, a tracked player's line on one server is relayed in game to the group's other
// servers with its origin, once, and never for an anonymous (opted-out) player.

import { afterAll, beforeAll, expect, it } from 'vitest';
import * as ev from '../../src/sim/events.ts';
import type { Simulator } from '../../src/sim/index.ts';
import { call, linkGameServers, signIn, startTestServer, type TestServer, until } from './helpers.ts';

let t: TestServer;
let sim: Simulator;
let owner: string;
const island = () => t.demo.servers[0];
const scorched = () => t.demo.servers[1];

beforeAll(async () => {
  t = await startTestServer();
  owner = (await signIn(t.base)).access_token;
  sim = await linkGameServers(t, [island(), scorched()]);
});
afterAll(async () => {
  await sim?.stop();
  await t?.close();
});

type Line = { messageId: string; metadata: Record<string, unknown>; serviceId: string };
const chatLines = async (serviceId: string): Promise<Line[]> =>
  (await call(t.base, owner, 'GET', `/sentinel/logMessages?serviceId=${serviceId}&eventName=chat`)).body
    .results;

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A player of the given opt-out state says `text` on the first simulated server (Island). */
async function playerSays(text: string, optedOut: boolean): Promise<void> {
  const { rows } = await t.server.db.query<{ player_id: string }>(
    'INSERT INTO players (name, opted_out) VALUES ($1, $2) RETURNING player_id',
    [optedOut ? 'Hidden' : 'Rexina', optedOut],
  );
  const server = sim.servers[0];
  server.queue.push(
    ev.chat({
      source: 'Game',
      senderName: optedOut ? 'Anonymous' : 'Rexina',
      language: 'en',
      translations: { en: text },
      scores: ev.moderationScores(server.world.rng),
      scope: 'Global',
      player: { playerId: rows[0].player_id, characterId: '00000000-0000-4000-8000-000000000000' },
    }),
  );
  server.link?.flush();
  await until(
    'the chat line',
    async () => {
      const l = await chatLines(island().serviceId);
      return l.some((x) => x.metadata.originalMessage === text) && l;
    },
    30_000,
  );
}

const forwarding = (on: boolean) =>
  call(t.base, owner, 'PATCH', `/sentinel/groups/${t.demo.groupId}`, { enableGroupChat: on });

it('sends a web line to every server of a group, marked as sent to the group', async () => {
  const r = await call(t.base, owner, 'POST', '/sentinel/chat', {
    groupId: t.demo.groupId,
    message: 'All hands',
  });
  expect(r.status).toBe(204);
  for (const s of [island(), scorched()]) {
    const lines = await until(
      'the chat line',
      async () => {
        const l = await chatLines(s.serviceId);
        return l.some((x) => x.metadata.originalMessage === 'All hands') && l;
      },
      30_000,
    );
    expect(lines.find((x) => x.metadata.originalMessage === 'All hands')?.metadata.source).toBe('WebGroup');
  }
});

it('relays nothing while chat forwarding is off', async () => {
  expect((await forwarding(false)).status).toBe(200);
  await playerSays('quiet on island', false);
  await pause(300);
  expect(
    (await chatLines(scorched().serviceId)).some((l) => l.metadata.originalMessage === 'quiet on island'),
  ).toBe(false);
});

it('relays a player’s line to the other servers with its origin, once', async () => {
  expect((await forwarding(true)).status).toBe(200);
  await playerSays('rex at the river', false);
  const relayed = await until(
    'the chat line',
    async () => {
      const l = await chatLines(scorched().serviceId);
      return l.some((x) => x.metadata.originalMessage === 'rex at the river') && l;
    },
    30_000,
  );
  expect(relayed.find((x) => x.metadata.originalMessage === 'rex at the river')?.metadata).toMatchObject({
    source: 'Game',
    senderName: 'Rexina',
    originName: 'Island PvE',
    originServiceId: island().serviceId,
  });
  await pause(300);
  // The relayed line is not relayed back: Island holds the player's own line only.
  const own = (await chatLines(island().serviceId)).filter(
    (l) => l.metadata.originalMessage === 'rex at the river',
  );
  expect(own).toHaveLength(1);
});

it('never relays an anonymous player', async () => {
  await playerSays('do not repeat me', true);
  await pause(300);
  expect(
    (await chatLines(scorched().serviceId)).some((l) => l.metadata.originalMessage === 'do not repeat me'),
  ).toBe(false);
});
