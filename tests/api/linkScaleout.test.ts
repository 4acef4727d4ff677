// SENTINEL-API §6's reconnect grace with two server processes on one PostgreSQL: a game server
// whose link drops on one process and comes back through the other within the grace period leaves
// no trace in the log, since the outage's line is found from the database, not a process's memory.

import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunningServer } from '../../src/server/app.ts';
import { LINK_PATH } from '../../src/server/game/link/linkServer.ts';
import { type SeedResult, seedDemo } from '../../src/server/seed.ts';
import { call, DEMO, signIn } from './helpers.ts';
import { startTwoServers, type TwoServers } from './twoServers.ts';

let servers: TwoServers;
let a: RunningServer;
let b: RunningServer;
let demo: SeedResult;
let token: string;

/** A game server's link to `server`, once welcomed. */
async function linkTo(server: RunningServer, accessKey: string): Promise<WebSocket> {
  const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}${LINK_PATH}`);
  await once(ws, 'open');
  ws.send(JSON.stringify({ type: 'hello', accessKey, protocol: 1 }));
  const [welcome] = await once(ws, 'message');
  expect(JSON.parse(welcome.toString())).toMatchObject({ type: 'welcome' });
  return ws;
}

async function drop(ws: WebSocket, serviceId: string): Promise<void> {
  ws.close();
  await once(ws, 'close');
  for (const end = Date.now() + 5000; Date.now() < end; ) {
    const { rows } = await a.db.query<{ c: boolean }>(
      'SELECT is_connected AS c FROM services WHERE service_id = $1',
      [serviceId],
    );
    if (!rows[0].c) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('disconnect not recorded within 5 s');
}

const outageLines = async (serviceId: string) =>
  (
    await call(
      `${a.url}/v4`,
      token,
      'GET',
      `/sentinel/logMessages?serviceId=${serviceId}&eventName=serverConnected,serverDisconnected`,
    )
  ).body.results.map((m: { eventName: string }) => m.eventName);

describe('reconnect grace across two server processes', () => {
  beforeAll(async () => {
    servers = await startTwoServers('linkscale');
    ({ a, b } = servers);
    demo = await seedDemo(a.db, { ...DEMO, servers: 1 });
    token = (await signIn(`${a.url}/v4`)).access_token;
  });

  afterAll(async () => {
    await servers?.close();
  });

  it('removes the disconnect B recorded when the server comes back through A', async () => {
    const island = demo.servers[0];
    await drop(await linkTo(b, island.accessKey), island.serviceId);
    expect(await outageLines(island.serviceId)).toEqual(['serverDisconnected', 'serverConnected']);

    const back = await linkTo(a, island.accessKey);
    expect(a.links.isConnected(island.serviceId)).toBe(true);
    expect(await outageLines(island.serviceId)).toEqual(['serverConnected']);
    await drop(back, island.serviceId);
  });
});
