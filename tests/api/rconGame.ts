// What the RCON tests share: a simulated game server answering RCON, a chat line said in it,
// adding a server over RCON, and what the database has of that server.

import { expect } from 'vitest';
import type { LinkEvent } from '../../src/domain/link.ts';
import type { Db } from '../../src/server/db/db.ts';
import { plainChat } from '../../src/sim/events.ts';
import { type Simulator, startSimulator } from '../../src/sim/index.ts';
import type { SimServer } from '../../src/sim/server.ts';
import { call } from './helpers.ts';

/** One simulated game server with no link, answering RCON on a free port, its world standing still. */
export async function startRconGame(
  name: string,
  password: string,
): Promise<{ sim: Simulator; game: SimServer }> {
  const sim = startSimulator({
    linkUrl: 'ws://127.0.0.1:1/unused',
    servers: [{ accessKey: null, name, rcon: { port: 0, password } }],
    tickMs: 3_600_000,
  });
  const game = sim.servers[0];
  await game.rcon!.start();
  return { sim, game };
}

/** `text` said in the game's chat by a survivor, for `game.play`. */
export const chatLine = (text: string): LinkEvent[] => [plainChat('Tester', text)];

/** The node holding the server's connection, or null while it is not connected. */
export async function connectedNode(db: Db, serviceId: string): Promise<string | null> {
  const { rows } = await db.query<{ node: string }>(
    'SELECT connected_to AS node FROM services WHERE service_id = $1 AND is_connected',
    [serviceId],
  );
  return rows[0]?.node ?? null;
}

/** The chat lines stored for the server, oldest first. */
export async function chatStored(db: Db, serviceId: string): Promise<string[]> {
  const { rows } = await db.query<{ m: string }>(
    `SELECT metadata->>'originalMessage' AS m FROM log_messages
      WHERE service_id = $1 AND event_name = 'chat' ORDER BY time`,
    [serviceId],
  );
  return rows.map((r) => r.m);
}

/** Adds a server connected over RCON to 127.0.0.1:`port`, as the console does; its created object. */
export async function addRconServer(
  base: string,
  token: string,
  name: string,
  port: number,
  password: string,
): Promise<Record<string, unknown> & { serviceId: string }> {
  const res = await call(base, token, 'POST', '/sentinel/services', {
    gameId: 'ArkSA',
    name,
    platform: 'PC',
    languages: ['en'],
    connectionKind: 'rcon',
    rconHost: '127.0.0.1',
    rconPort: port,
    rconPassword: password,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.created[0];
}
