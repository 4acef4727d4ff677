// A server shutting down takes no new game link. Games reconnect within a fraction of a second of
// being let go; a process still waiting for a store to finish took them, welcomed them, and then
// waited for their endless traffic too, so a restart stalled for a minute while every game queued.

import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createServer, type RunningServer } from '../../src/server/app.ts';
import { LINK_PATH } from '../../src/server/game/link/linkServer.ts';
import { seedDemo } from '../../src/server/seed.ts';
import { DEMO, dropSchema, testDatabaseUrl, until } from './helpers.ts';

const schema = `linkstop_${randomBytes(5).toString('hex')}`;
let server: RunningServer | undefined;
const locker = new pg.Client({ connectionString: testDatabaseUrl() });

afterAll(async () => {
  await locker.end().catch(() => {});
  await server?.close();
  await dropSchema(schema);
});

/** A game's side of the link: the frames it got, and the code its socket closed with. */
function game(url: string, accessKey: string) {
  const ws = new WebSocket(url);
  const frames: string[] = [];
  ws.on('message', (d) => frames.push(JSON.parse(d.toString()).type));
  ws.on('open', () => ws.send(JSON.stringify({ type: 'hello', accessKey, protocol: 1 })));
  const closed = new Promise<number>((r) => ws.on('close', (code) => r(code)));
  return { ws, frames, closed };
}

it('refuses a game that links while the server shuts down, and the shutdown ends', async () => {
  server = await createServer({
    databaseUrl: testDatabaseUrl(),
    dbSchema: schema,
    staticDir: '/nonexistent',
  });
  const demo = await seedDemo(server.db, { ...DEMO, servers: 3 });
  const url = `${server.url.replace(/^http/, 'ws')}${LINK_PATH}`;

  // The first game's event cannot be stored while another session holds the table: the shutdown
  // waits for that store, which is the window a reconnecting game used to slip through.
  const first = game(url, demo.servers[0].accessKey);
  await until('the first game welcomed', () => first.frames.includes('welcome'), 20_000);
  await locker.connect();
  await locker.query(`SET search_path TO ${schema}`);
  await locker.query('BEGIN');
  await locker.query('LOCK TABLE log_messages IN EXCLUSIVE MODE');
  first.ws.send(
    JSON.stringify({
      type: 'event',
      seq: 1,
      event: {
        eventName: 'chat',
        time: Date.now() / 1000,
        type: 'Chat',
        level: 'Informational',
        message: 'Hello',
        metadata: {},
      },
    }),
  );
  await until(
    'the store waiting',
    async () => {
      const { rows } = await locker.query(
        `SELECT 1 FROM pg_locks WHERE NOT granted AND relation = '${schema}.log_messages'::regclass`,
      );
      return rows.length > 0;
    },
    20_000,
  );
  const closing = server.close();
  expect(await first.closed).toBe(1001);

  const late = game(url, demo.servers[1].accessKey);
  expect(await late.closed).toBe(1001);
  expect(late.frames).not.toContain('welcome');

  await locker.query('COMMIT');
  await closing;
  server = undefined;
});
