// The script engine end to end against the simulator: a Simple script answering chat, a
// JavaScript script taking every action type (each reaching the game and changing it), slash and
// script commands typed by players, webhooks, menu items, subroutines now and later, cron once a
// minute, and a hostile script contained while the API keeps answering. Every run leaves its
// Service log line.

import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { hashPassword } from '../../src/server/crypto.ts';
import { queueWebhook, webhookSignature } from '../../src/server/routes/webhook.ts';
import { handlersFor } from '../../src/server/scripts/handlers.ts';
import type { SimServer } from '../../src/sim/index.ts';
import {
  call,
  linkGameServers,
  signIn,
  signInStranger,
  startTestServer,
  type TestServer,
  until,
} from './helpers.ts';

let t: TestServer;
let owner: string;
let sim: Awaited<ReturnType<typeof linkGameServers>>;
let game: SimServer;
let serviceId: string;
let bucketId: string;
let hook: Server;
let hookUrl: string;
const posted: string[] = [];

interface LogLine {
  message: string;
  metadata: Record<string, unknown>;
  event_name: string;
}

/** The scriptRun lines of a script, oldest first. */
async function runsOf(scriptName: string): Promise<LogLine[]> {
  const { rows } = await t.server.db.query<LogLine>(
    `SELECT message, metadata, event_name FROM log_messages
      WHERE event_name = 'scriptRun' AND metadata->>'scriptName' = $1 ORDER BY time, message_id`,
    [scriptName],
  );
  return rows;
}
/** The nth run of a script (by one trigger, when given). */
const nthRun = (scriptName: string, n = 1, trigger?: string) =>
  until(`run ${n} of ${scriptName}`, async () => {
    const rows = (await runsOf(scriptName)).filter((r) => !trigger || r.metadata.trigger === trigger);
    return rows.length >= n ? rows[n - 1] : undefined;
  });

async function attach(name: string, events: unknown[], extra: Record<string, unknown> = {}) {
  const made = await call(t.base, owner, 'POST', '/sentinel/scripts', { name, events, ...extra });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  const scriptId = made.body.created[0].scriptId;
  const attached = await call(t.base, owner, 'POST', '/sentinel/serviceScripts', {
    serviceId,
    scriptId,
    parameterValues: extra.parameterValues ?? {},
  });
  expect(attached.status, JSON.stringify(attached.body)).toBe(200);
  return scriptId as string;
}

beforeAll(async () => {
  hook = createHttpServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      posted.push(body);
      // A slow community: it answers after 600 ms.
      if (req.url === '/slow') setTimeout(() => res.writeHead(204).end(), 600);
      else res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
  hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
  t = await startTestServer({
    scripts: { manualCron: true, queuePollMs: 100 },
    scriptReviewers: ['admin@palisade.local'],
  });
  owner = (await signIn(t.base)).access_token;
  const [island] = t.demo.servers;
  serviceId = island.serviceId;
  sim = await linkGameServers(t, [island]);
  game = sim.servers[0];
  const bucket = await call(t.base, owner, 'POST', '/sentinel/buckets', { name: 'Script bucket' });
  bucketId = bucket.body.created[0].bucketId;
}, 60_000);
afterAll(async () => {
  await sim?.stop();
  await t?.close();
  hook?.close();
});

it('runs a Simple script on chat: conditions, placeholders, chat with source Script, a log line', async () => {
  await attach('Greeter', [
    {
      language: 'Simple',
      context: 'chat',
      code: JSON.stringify({
        match: 'all',
        conditions: [
          { field: 'message', operator: 'beginsWith', value: 'hello' },
          { field: 'serviceId', operator: 'equals', value: serviceId },
        ],
        actions: [
          { type: 'sendChat', options: { message: 'Welcome, {playerName}!', senderName: 'Greeter' } },
        ],
      }),
    },
  ]);
  game.type('good morning');
  const who = game.type('Hello everyone');
  const run = await nthRun('Greeter');
  expect(run.metadata).toMatchObject({
    trigger: 'chat',
    outcome: 'success',
    actions: [{ type: 'sendChat', ok: true }],
  });
  expect(run.message).toMatch(/^Script Greeter \(chat\) took sendChat in \d+ ms\.$/);
  const name = game.world.population.find((p) => p.playerId === who.playerId)?.name;
  const chat = await until('the script’s chat line', async () => {
    const { rows } = await t.server.db.query<{ metadata: Record<string, unknown> }>(
      `SELECT metadata FROM log_messages WHERE event_name = 'chat' AND metadata->>'source' = 'Script'`,
    );
    return rows[0];
  });
  expect(chat.metadata).toMatchObject({ originalMessage: `Welcome, ${name}!`, senderName: 'Greeter' });
  // "good morning" matched no condition: one run only.
  expect(await runsOf('Greeter')).toHaveLength(1);
});

it('takes every action type from JavaScript, each reaching the game and changing it', async () => {
  const dino = [...game.world.dinos.values()].find((d) => d.status === 'Deployed');
  await attach(
    'Everything',
    [
      {
        language: 'JavaScript',
        context: 'slashCommand',
        keyword: 'everything',
        arguments: [],
        code: `
          const e = beacon.eventData;
          const stone = '/Game/Items/Stone.Stone_C';
          beacon.sendChat('Doing everything for ' + e.playerName);
          beacon.giveItem(e.characterId, stone, 5);
          beacon.giveCustomItem({ characterId: e.characterId, itemPath: '/Game/Items/Helmet.Helmet_C', armor: 50 });
          beacon.setBucketValue(beacon.params.bucket, 'seen', e.playerName, e.playerId);
          console.log('bucket', beacon.getBucketValue(beacon.params.bucket, 'seen', e.playerId));
          beacon.setBucketValue(beacon.params.bucket, 'temp', 'x');
          beacon.clearBucketValue(beacon.params.bucket, 'temp');
          beacon.renameSurvivor(e.characterId, 'Scripted Sam');
          beacon.runAdminCommand('saveworld');
          beacon.createDino(e.characterId, '/Game/Dinos/Raptor/Raptor_Character_BP.Raptor_Character_BP_C', 'Scripty', 10);
          beacon.teleportSurvivor(e.characterId, 10, 20, 30, true);
          if (e.args['0']) beacon.teleportDino(e.args['0'], 1, 2, 3);
          beacon.toggleBuff(e.characterId, 'add', 'Well Fed');
          beacon.destroyInventoryItem(stone);
          beacon.killSurvivor(e.characterId);
          beacon.giveLoot(e.characterId, 'Survivor', JSON.stringify([{ itemPath: '/Game/PrimalEarth/CoreBlueprints/Resources/PrimalItemResource_MetalIngot.PrimalItemResource_MetalIngot', quantity: 3, chance: 1 }]));
          beacon.notifyChatCommunity('Everything done on ' + beacon.serviceName, ${JSON.stringify(hookUrl)});
          beacon.runSubroutine('afterwards');
          beacon.kickPlayer(e.playerId);
          beacon.banPlayer(e.playerId, 'Testing bans', undefined, 1);
        `,
      },
      {
        language: 'Simple',
        context: 'subroutine',
        keyword: 'afterwards',
        arguments: [],
        code: JSON.stringify({
          actions: [{ type: 'runAdminCommand', options: { adminCommand: 'listplayers' } }],
        }),
      },
    ],
    { parameters: [{ name: 'bucket', type: 'String', default: '' }], parameterValues: { bucket: bucketId } },
  );
  const who = game.type(`/everything ${dino?.dinoId ?? ''}`);
  const survivor = game.world.survivors.get(who.playerId)!;
  const before = { ...survivor.pos };
  const name = survivor.player.name;
  const run = await nthRun('Everything', 1, 'slashCommand');
  expect(run.metadata.error).toBeNull();
  const actions = run.metadata.actions as { type: string; ok: boolean; error?: string }[];
  expect(actions.filter((a) => !a.ok)).toEqual([]);
  expect(new Set(actions.map((a) => a.type)).size).toBe(dino ? 18 : 17);
  expect(run.metadata.output).toBe(`bucket ${name}`);

  // The game changed.
  const eos = survivor.player.eosId.toLowerCase();
  expect(game.world.banned.has(eos)).toBe(true);
  expect(game.world.online.has(who.playerId)).toBe(false);
  expect(survivor.player.name).toBe('Scripted Sam');
  expect(survivor.buffs).toContain('Well Fed');
  expect([...survivor.inventory]).toEqual([
    [
      '/Game/PrimalEarth/CoreBlueprints/Resources/PrimalItemResource_MetalIngot.PrimalItemResource_MetalIngot',
      3,
    ],
  ]);
  expect(survivor.pos).toEqual({ x: before.x + 10, y: before.y + 20, z: before.z + 30 });
  if (dino) expect(dino.pos).toEqual({ x: 1, y: 2, z: 3 });
  expect([...game.world.dinos.values()].some((d) => d.name === 'Scripty')).toBe(true);
  expect(JSON.parse(posted[0])).toEqual({ content: 'Everything done on Island PvE' });
  // The server recorded the ban, and the bucket holds the player's value but not the cleared one.
  const bans = await t.server.db.query('SELECT comments FROM service_bans WHERE service_id = $1', [
    serviceId,
  ]);
  expect(bans.rows).toEqual([{ comments: 'Testing bans' }]);
  const values = await t.server.db.query('SELECT key FROM bucket_values WHERE bucket_id = $1', [bucketId]);
  expect(values.rows).toEqual([{ key: 'seen' }]);
  // The subroutine ran as a run of its own.
  expect((await nthRun('Everything', 1, 'subroutine')).metadata).toMatchObject({
    keyword: 'afterwards',
    actions: [{ type: 'runAdminCommand', ok: true }],
  });
});

it('runs every same-named webhook with its defaults overlaid by the parameters', async () => {
  const webhook = (greeting: string) => ({
    language: 'JavaScript',
    context: 'webhook',
    keyword: 'announce',
    arguments: [
      { name: 'text', type: 'String', default: 'nothing', required: false },
      { name: 'times', type: 'Number', default: 1, required: false },
    ],
    code: `beacon.sendChat('${greeting} ' + beacon.params.text + ' x' + beacon.params.times);`,
  });
  await attach('Hook one', [webhook('one:')]);
  await attach('Hook two', [webhook('two:')]);
  const body = JSON.stringify({ webhook: 'announce', parameters: { text: 'restart soon' } });
  const res = await fetch(`${t.base}/sentinel/services/${serviceId}/webhook`, {
    method: 'POST',
    headers: { Authorization: `HmacSHA256 ${webhookSignature(t.demo.servers[0].accessKey, 'POST', body)}` },
    body,
  });
  expect(res.status).toBe(204);
  for (const name of ['Hook one', 'Hook two'])
    expect((await nthRun(name, 1, 'webhook')).metadata).toMatchObject({
      keyword: 'announce',
      outcome: 'success',
    });
  const chats = await until('the restart warnings', async () => {
    const { rows } = await t.server.db.query<{ m: string }>(
      `SELECT metadata->>'originalMessage' AS m FROM log_messages WHERE event_name = 'chat'
          AND metadata->>'originalMessage' LIKE '%restart soon%' ORDER BY 1`,
    );
    return rows.length === 2 ? rows.map((r) => r.m) : undefined;
  });
  expect(chats).toEqual(['one: restart soon x1', 'two: restart soon x1']);
});

it('runs a survivor menu item with its target and arguments', async () => {
  await attach('Menu heal', [
    {
      language: 'Simple',
      context: 'characterScriptRun',
      keyword: 'Give berries',
      arguments: [{ name: 'count', type: 'Number', default: 3, required: false }],
      code: JSON.stringify({
        actions: [
          {
            type: 'giveItem',
            options: { characterId: '{characterId}', itemPath: '/Game/Items/Berry.Berry_C', quantity: 7 },
          },
        ],
      }),
    },
  ]);
  const who = game.type('hi there', game.world.candidates()[0]?.playerId);
  const characterId = await until('the survivor', async () => {
    const { rows } = await t.server.db.query<{ id: string }>(
      'SELECT character_id AS id FROM characters WHERE character_id = $1',
      [who.characterId],
    );
    return rows[0]?.id;
  });
  const items = await call(
    t.base,
    owner,
    'GET',
    `/sentinel/scriptMenuItems?serviceId=${serviceId}&context=characterScriptRun`,
  );
  const item = items.body.find((i: { menuText: string }) => i.menuText === 'Give berries');
  expect(
    (await call(t.base, owner, 'POST', `/sentinel/scriptMenuItems/${item.scriptEventId}`, { serviceId })).body
      .code,
  ).toBe('missingProperties');
  const run = await call(t.base, owner, 'POST', `/sentinel/scriptMenuItems/${item.scriptEventId}`, {
    serviceId,
    characterId,
  });
  expect(run.status).toBe(204);
  expect((await nthRun('Menu heal')).metadata).toMatchObject({
    trigger: 'characterScriptRun',
    actions: [{ type: 'giveItem', ok: true }],
  });
  expect(game.world.survivors.get(who.playerId)?.inventory.get('/Game/Items/Berry.Berry_C')).toBe(7);
});

it('sends chat to one survivor: the game logs it for them alone, and refuses one not online', async () => {
  await attach('Whisper', [
    {
      language: 'Simple',
      context: 'chat',
      code: JSON.stringify({
        conditions: [{ field: 'message', operator: 'equals', value: 'whisper to me' }],
        actions: [
          {
            type: 'sendChat',
            options: { message: 'Just for you', recipientType: 'Survivor', recipient: '{characterId}' },
          },
          {
            type: 'sendChat',
            options: { message: 'Nobody hears', recipientType: 'Survivor', recipient: crypto.randomUUID() },
          },
        ],
      }),
    },
  ]);
  const who = game.type('whisper to me');
  const run = await nthRun('Whisper');
  expect(run.metadata.actions).toEqual([
    { type: 'sendChat', ok: true },
    { type: 'sendChat', ok: false, error: expect.stringMatching(/not online/) },
  ]);
  const line = await until('the line for one player', async () => {
    const { rows } = await t.server.db.query<{ metadata: Record<string, unknown> }>(
      `SELECT metadata FROM log_messages WHERE event_name = 'chat' AND metadata->>'originalMessage' = 'Just for you'`,
    );
    return rows[0];
  });
  const survivor = game.world.survivors.get(who.playerId)!;
  expect(line.metadata).toMatchObject({
    source: 'Script',
    scope: 'Local',
    recipientType: 'Survivor',
    recipientId: survivor.characterId,
  });
});

it('runs a subroutine after its delay', async () => {
  await attach('Delayed', [
    {
      language: 'Simple',
      context: 'scriptCommand',
      keyword: 'later',
      arguments: [],
      code: JSON.stringify({
        actions: [{ type: 'runSubroutine', options: { subroutineName: 'tick', delay: 400 } }],
      }),
    },
    {
      language: 'Simple',
      context: 'subroutine',
      keyword: 'tick',
      arguments: [],
      code: JSON.stringify({
        actions: [{ type: 'sendChat', options: { message: 'tock on {serviceName}' } }],
      }),
    },
  ]);
  game.type('cheat scriptcommand later');
  const first = await nthRun('Delayed', 1, 'scriptCommand');
  const { rows } = await t.server.db.query<{ at: Date }>(
    `SELECT time AS at FROM log_messages WHERE event_name = 'scriptRun' AND metadata->>'scriptName' = 'Delayed'`,
  );
  // Waiting in the database, not in this process's memory: a restart meanwhile does not lose it.
  const queued = `SELECT event_data->>'keyword' AS keyword FROM service_event_queue WHERE event_data->>'event' = 'subroutine'`;
  expect((await t.server.db.query(queued)).rows).toEqual([{ keyword: 'tick' }]);
  const second = await nthRun('Delayed', 1, 'subroutine');
  expect((await t.server.db.query(queued)).rows).toEqual([]);
  const times = await t.server.db.query<{ ms: number }>(
    `SELECT (extract(epoch FROM max(time) - min(time)) * 1000)::float8 AS ms FROM log_messages
      WHERE event_name = 'scriptRun' AND metadata->>'scriptName' = 'Delayed'`,
  );
  expect(first.metadata.actions).toEqual([{ type: 'runSubroutine', ok: true }]);
  expect(rows.length).toBeGreaterThanOrEqual(1);
  expect(second.message).toMatch(/took sendChat/);
  expect(times.rows[0].ms).toBeGreaterThanOrEqual(300);
});

it('runs each cron schedule once per minute, and not in other minutes', async () => {
  await attach('Cron saver', [
    {
      language: 'Simple',
      context: 'cron',
      keyword: '*/15 * * * *',
      arguments: [],
      code: JSON.stringify({
        actions: [{ type: 'runAdminCommand', options: { adminCommand: 'saveworld' } }],
      }),
    },
  ]);
  const minute = new Date('2030-01-01T10:15:00Z');
  expect(await t.server.scripts.cronTick(minute)).toBe(1);
  expect(await t.server.scripts.cronTick(minute)).toBe(0);
  expect(await t.server.scripts.cronTick(new Date('2030-01-01T10:16:00Z'))).toBe(0);
  expect((await runsOf('Cron saver')).map((r) => r.metadata.trigger)).toEqual(['cron']);
});

it('ends a hostile script by its limit while the API keeps answering', async () => {
  await attach('Spinner', [
    {
      language: 'JavaScript',
      context: 'slashCommand',
      keyword: 'spin',
      arguments: [],
      code: 'while (true) {}',
    },
  ]);
  game.type('/spin');
  // While the script spins in its thread, the API answers at once.
  await new Promise((r) => setTimeout(r, 300));
  const started = Date.now();
  expect((await call(t.base, owner, 'GET', '/sentinel/services')).status).toBe(200);
  expect(Date.now() - started).toBeLessThan(1_000);
  const run = await nthRun('Spinner');
  expect(run.metadata).toMatchObject({
    outcome: 'failure',
    error: 'The script ran longer than its limit of 2000 ms.',
  });
  expect(run.message).toMatch(/^Script Spinner \(slashCommand spin\) failed: The script ran longer/);
});

it('runs the last approved revision while a newer one waits for review', async () => {
  const approved = {
    language: 'Simple',
    context: 'slashCommand',
    keyword: 'version',
    arguments: [],
    code: JSON.stringify({ actions: [{ type: 'sendChat', options: { message: 'approved version' } }] }),
  };
  const scriptId = await attach('Reviewed', [approved]);
  const v1 = (await call(t.base, owner, 'GET', `/sentinel/scripts/${scriptId}`)).body.latestRevisionId;
  const v2 = await call(t.base, owner, 'PATCH', `/sentinel/scripts/${scriptId}`, {
    events: [
      { ...approved, language: 'JavaScript', code: "beacon.sendChat('hash ' + beacon.hash('md5', 'x'))" },
    ],
  });
  expect(v2.body.approvalStatus).toBe('Needs Review');
  game.type('/version');
  const run = await nthRun('Reviewed');
  expect(run.metadata).toMatchObject({ revisionId: v1, actions: [{ type: 'sendChat', ok: true }] });

  // Only a reviewer sees what waits and decides; approved, the new revision runs.
  const moderator = (await signIn(t.base, t.demo.moderator.email, 'palisade-demo')).access_token;
  expect((await call(t.base, moderator, 'GET', '/sentinel/scriptReviews')).status).toBe(403);
  const waiting = await call(t.base, owner, 'GET', '/sentinel/scriptReviews');
  expect(waiting.body.revisions).toEqual([
    expect.objectContaining({ scriptId, revisionId: v2.body.latestRevisionId }),
  ]);
  const review = (status: string) =>
    call(
      t.base,
      owner,
      'POST',
      `/sentinel/scripts/${scriptId}/revisions/${v2.body.latestRevisionId}/review`,
      {
        approvalStatus: status,
      },
    );
  expect((await review('Approved')).body).toEqual({
    revisionId: v2.body.latestRevisionId,
    approvalStatus: 'Approved',
  });
  game.type('/version');
  expect((await nthRun('Reviewed', 2)).metadata).toMatchObject({
    revisionId: v2.body.latestRevisionId,
    error: null,
  });

  // Rejected, the approved revision before it runs again, and the script cannot be shared.
  await review('Rejected');
  game.type('/version');
  expect((await nthRun('Reviewed', 3)).metadata).toMatchObject({ revisionId: v1 });
  expect((await call(t.base, owner, 'POST', `/sentinel/scripts/${scriptId}/publish`)).body.code).toBe(
    'scriptRejected',
  );
});

it("does not answer a script's own chat, so chat answering chat cannot loop", async () => {
  await attach('Echo', [
    {
      language: 'Simple',
      context: 'chat',
      code: JSON.stringify({
        conditions: [{ field: 'message', operator: 'contains', value: 'echo' }],
        actions: [{ type: 'sendChat', options: { message: 'echo echo' } }],
      }),
    },
  ]);
  game.type('echo please');
  await nthRun('Echo');
  // The script's "echo echo" came back as chat with source Script, and started nothing.
  await until('the echo', async () => {
    const { rows } = await t.server.db.query(
      `SELECT 1 FROM log_messages WHERE event_name = 'chat' AND metadata->>'originalMessage' = 'echo echo'`,
    );
    return rows[0];
  });
  await new Promise((r) => setTimeout(r, 500));
  expect(await runsOf('Echo')).toHaveLength(1);
});

it('counts the time a run waits on the server against its limit, and logs a run cut by it as such', async () => {
  const slowUrl = hookUrl.replace(/\/hook$/, '/slow');
  await attach('Slow community', [
    {
      language: 'JavaScript',
      context: 'chat',
      code: `
        if (beacon.eventData.message === 'tell the slow community') {
          for (let i = 0; i < 5; i++) beacon.notifyChatCommunity('call ' + i, ${JSON.stringify(slowUrl)});
          console.log('all five sent');
        }
      `,
    },
  ]);
  game.type('tell the slow community');
  // Five calls of 600 ms each are 3 s of waiting: past the 2 s a run may take, whoever spends it.
  const run = await nthRun('Slow community', 1);
  expect(run.metadata).toMatchObject({
    outcome: 'failure',
    error: 'The script ran longer than its limit of 2000 ms.',
  });
  // The calls still queued at the limit were not made.
  expect((run.metadata.actions as unknown[]).length).toBeLessThan(5);
});

it("runs another owner's queued run at once while one owner's looping runs wait their turn", async () => {
  // Another owner, with a server of their own and a one-line webhook script.
  const user = await t.server.db.query<{ user_id: string }>(
    `INSERT INTO users (username, email, password_hash) VALUES ('Other Owner', 'other.owner@example.com', $1)
     RETURNING user_id`,
    [await hashPassword('other-pass')],
  );
  await t.server.db.query(
    `INSERT INTO subscriptions (user_id, customer_email, product_id, product_name, product_game_id, expiration, units_allowed)
     VALUES ($1, 'other.owner@example.com', gen_random_uuid(), 'Plan', 'Sentinel', now() + interval '30 days', 5)`,
    [user.rows[0]!.user_id],
  );
  const other = (await signIn(t.base, 'other.owner@example.com', 'other-pass')).access_token;
  const made = await call(t.base, other, 'POST', '/sentinel/services', {
    gameId: 'ArkSA',
    name: 'Other island',
    platform: 'PC',
    languages: ['en'],
  });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  const otherService = made.body.created[0].serviceId;
  const hello = await call(t.base, other, 'POST', '/sentinel/scripts', {
    name: 'Quick hello',
    events: [
      {
        language: 'JavaScript',
        context: 'webhook',
        keyword: 'hello',
        arguments: [],
        code: "console.log('hello')",
      },
    ],
  });
  await call(t.base, other, 'POST', '/sentinel/serviceScripts', {
    serviceId: otherService,
    scriptId: hello.body.created[0].scriptId,
    parameterValues: {},
  });
  const looper = await attach('Looper', [
    { language: 'JavaScript', context: 'webhook', keyword: 'loop', arguments: [], code: 'while (true) {}' },
  ]);
  // Eight runs of 2 s each queued first, then the other owner's.
  const loops = await handlersFor(t.server.db, serviceId, { context: 'webhook', keyword: 'loop' });
  for (let i = 0; i < 8; i++) await queueWebhook(t.server.db, serviceId, loops, {});
  await queueWebhook(
    t.server.db,
    otherService,
    await handlersFor(t.server.db, otherService, { context: 'webhook', keyword: 'hello' }),
    {},
  );
  const quick = await nthRun('Quick hello', 1);
  expect(quick.metadata).toMatchObject({ outcome: 'success', output: 'hello' });
  // It did not wait for the eight (16 s of looping one after another).
  expect((await runsOf('Looper')).length).toBeLessThan(8);
  // No looping runs are left for the tests after this one: detached, the claimed ones find nothing.
  await t.server.db.query('DELETE FROM service_event_queue WHERE service_id = $1', [serviceId]);
  await t.server.db.query('DELETE FROM service_scripts WHERE script_id = $1', [looper]);
});

it('runs a shared script with the rights of whoever attached it, never its author’s', async () => {
  // The author from the test above shares a script that writes the chat into a bucket of theirs.
  const author = (await signIn(t.base, 'other.owner@example.com', 'other-pass')).access_token;
  const theirs = await call(t.base, author, 'POST', '/sentinel/buckets', { name: 'Author bucket' });
  const authorBucket = theirs.body.created[0].bucketId;
  const made = await call(t.base, author, 'POST', '/sentinel/scripts', {
    name: 'Siphon',
    parameters: [{ name: 'bucket', type: 'String', default: authorBucket }],
    events: [
      {
        language: 'JavaScript',
        context: 'chat',
        code: `if (beacon.eventData.message.startsWith('siphon')) {
                 beacon.setBucketValue(beacon.params.bucket, 'heard', beacon.eventData.message);
               }`,
      },
      {
        language: 'JavaScript',
        context: 'webhook',
        keyword: 'take',
        arguments: [{ name: 'command', type: 'String', default: 'saveworld', required: false }],
        code: `beacon.runAdminCommand(beacon.params.command);`,
      },
    ],
  });
  const scriptId = made.body.created[0].scriptId;
  expect((await call(t.base, author, 'POST', `/sentinel/scripts/${scriptId}/publish`)).status).toBe(200);
  // The server's owner adds it from the Workshop, keeping the author's default.
  const attached = await call(t.base, owner, 'POST', '/sentinel/serviceScripts', {
    serviceId,
    scriptId,
    parameterValues: {},
  });
  expect(attached.status, JSON.stringify(attached.body)).toBe(200);

  game.type('siphon this chat');
  const run = await nthRun('Siphon', 1, 'chat');
  expect(run.metadata.error).toBe(`Whoever attached the script cannot change bucket ${authorBucket}.`);
  const leaked = await t.server.db.query('SELECT 1 FROM bucket_values WHERE bucket_id = $1', [authorBucket]);
  expect(leaked.rows).toEqual([]);

  // The author's own webhook reaches only servers the author attached it to: none here.
  const hook = await call(t.base, author, 'POST', `/sentinel/scripts/${scriptId}/webhooks`, {
    purpose: 'Remote control',
  });
  const body = JSON.stringify({ webhook: 'take', parameters: { command: 'destroywilddinos' } });
  const res = await fetch(hook.body.url.replace(/^.*\/v4/, t.base), {
    method: 'POST',
    headers: { Authorization: `HmacSHA256 ${webhookSignature(hook.body.secret, 'POST', body)}` },
    body,
  });
  expect(res.status).toBe(404);
  const { rows } = await t.server.db.query(
    `SELECT 1 FROM service_event_queue WHERE service_id = $1 AND event_data->>'scriptId' = $2`,
    [serviceId, scriptId],
  );
  expect(rows).toEqual([]);
  expect((await runsOf('Siphon')).filter((r) => r.metadata.trigger === 'webhook')).toEqual([]);
});

it("lets a webhook call set only the arguments its handler declares, never the attachment's values", async () => {
  await attach(
    'Declared only',
    [
      {
        language: 'JavaScript',
        context: 'webhook',
        keyword: 'declared',
        arguments: [{ name: 'note', type: 'String', default: 'none', required: false }],
        code: `console.log(beacon.params.note + ' / ' + beacon.params.target + ' / ' + beacon.params.extra);`,
      },
    ],
    { parameters: [{ name: 'target', type: 'String', default: '' }], parameterValues: { target: 'mine' } },
  );
  const handlers = await handlersFor(t.server.db, serviceId, { context: 'webhook', keyword: 'declared' });
  await queueWebhook(t.server.db, serviceId, handlers, { note: 'hi', target: 'theirs', extra: 'x' });
  const run = await nthRun('Declared only', 1, 'webhook');
  expect(run.metadata.output).toBe('hi / mine / undefined');
});

it("keeps someone else's script updated only as far as its attacher accepted", async () => {
  const author = (await signIn(t.base, 'other.owner@example.com', 'other-pass')).access_token;
  const event = (version: string) => ({
    language: 'JavaScript',
    context: 'chat',
    code: `if (beacon.eventData.message === 'which version') console.log('${version}');`,
  });
  const made = await call(t.base, author, 'POST', '/sentinel/scripts', {
    name: 'Versioned',
    events: [event('v1')],
  });
  const scriptId = made.body.created[0].scriptId;
  await call(t.base, author, 'POST', `/sentinel/scripts/${scriptId}/publish`);
  const v1 = (await call(t.base, author, 'GET', `/sentinel/scripts/${scriptId}`)).body.latestRevisionId;
  // The server's owner keeps it updated (no version pinned).
  const attached = await call(t.base, owner, 'POST', '/sentinel/serviceScripts', {
    serviceId,
    scriptId,
    parameterValues: {},
  });
  const attachmentId = attached.body.created[0].serviceScriptId;
  expect(attached.body.created[0]).toMatchObject({
    revisionId: null,
    acceptedRevisionId: v1,
    pendingRevisionId: null,
  });

  // The author's new version waits for the attacher; the old one runs.
  const v2 = (await call(t.base, author, 'PATCH', `/sentinel/scripts/${scriptId}`, { events: [event('v2')] }))
    .body.latestRevisionId;
  expect(v2).not.toBe(v1);
  const link = async () =>
    (await call(t.base, owner, 'GET', `/sentinel/serviceScripts/${attachmentId}`)).body;
  expect(await link()).toMatchObject({ acceptedRevisionId: v1, pendingRevisionId: v2 });
  game.type('which version');
  expect((await nthRun('Versioned', 1)).metadata).toMatchObject({ revisionId: v1, output: 'v1' });

  // The attacher reads what changed, even once the script leaves the Workshop; others cannot.
  await call(t.base, author, 'DELETE', `/sentinel/scripts/${scriptId}/publish`);
  const content = await call(t.base, owner, 'GET', `/sentinel/scripts/${scriptId}/revisions/${v2}`);
  expect(content.body.events).toEqual([expect.objectContaining({ context: 'chat', code: event('v2').code })]);
  const stranger = await signInStranger(t);
  expect((await call(t.base, stranger, 'GET', `/sentinel/scripts/${scriptId}/revisions/${v2}`)).status).toBe(
    404,
  );

  // Accepted, it runs; the author cannot accept for them, nor may a version of another script.
  const forAuthor = await call(t.base, author, 'PATCH', `/sentinel/serviceScripts/${attachmentId}`, {
    acceptedRevisionId: v2,
  });
  expect([403, 404]).toContain(forAuthor.status);
  const otherScript = (await call(t.base, owner, 'POST', '/sentinel/scripts', { name: 'Elsewhere' })).body
    .created[0];
  const wrong = await call(t.base, owner, 'PATCH', `/sentinel/serviceScripts/${attachmentId}`, {
    acceptedRevisionId: otherScript.latestRevisionId,
  });
  expect(wrong.body.code).toBe('notFound');
  const accepted = await call(t.base, owner, 'PATCH', `/sentinel/serviceScripts/${attachmentId}`, {
    acceptedRevisionId: v2,
  });
  expect(accepted.status).toBe(200);
  expect(await link()).toMatchObject({ acceptedRevisionId: v2, pendingRevisionId: null });
  game.type('which version');
  expect((await nthRun('Versioned', 2)).metadata).toMatchObject({ revisionId: v2, output: 'v2' });
});

it('gives an attachment a webhook of its own, for its attacher alone, running there only', async () => {
  const author = (await signIn(t.base, 'other.owner@example.com', 'other-pass')).access_token;
  const made = await call(t.base, author, 'POST', '/sentinel/scripts', {
    name: 'Announcer',
    events: [
      {
        language: 'JavaScript',
        context: 'webhook',
        keyword: 'announce',
        arguments: [{ name: 'text', type: 'String', default: 'nothing', required: false }],
        code: `console.log('said ' + beacon.params.text + ' on ' + beacon.serviceName);`,
      },
    ],
  });
  const scriptId = made.body.created[0].scriptId;
  await call(t.base, author, 'POST', `/sentinel/scripts/${scriptId}/publish`);
  const attached = await call(t.base, owner, 'POST', '/sentinel/serviceScripts', {
    serviceId,
    scriptId,
    parameterValues: {},
  });
  const attachmentId = attached.body.created[0].serviceScriptId;

  // Only whoever manages the server makes it; the author cannot.
  expect(
    (await call(t.base, author, 'POST', `/sentinel/serviceScripts/${attachmentId}/webhook`)).status,
  ).toBe(404);
  const hook = await call(t.base, owner, 'POST', `/sentinel/serviceScripts/${attachmentId}/webhook`);
  expect(hook.body).toEqual({
    url: expect.stringMatching(`/v4/sentinel/attachmentWebhooks/${attachmentId}$`),
    secret: expect.any(String),
  });
  const fire = (secret: string, text: string) => {
    const body = JSON.stringify({ webhook: 'announce', parameters: { text } });
    return fetch(hook.body.url.replace(/^.*\/v4/, t.base), {
      method: 'POST',
      headers: { Authorization: `HmacSHA256 ${webhookSignature(secret, 'POST', body)}` },
      body,
    });
  };
  expect((await fire(hook.body.secret, 'restart soon')).status).toBe(204);
  const run = await nthRun('Announcer', 1, 'webhook');
  expect(run.metadata.output).toBe(`said restart soon on ${t.demo.servers[0].name}`);

  // Rotated, the old secret runs nothing.
  const rotated = await call(t.base, owner, 'POST', `/sentinel/serviceScripts/${attachmentId}/webhook`);
  expect(rotated.body.secret).not.toBe(hook.body.secret);
  expect((await fire(hook.body.secret, 'again')).status).toBe(404);
  expect((await fire(rotated.body.secret, 'again')).status).toBe(204);
  expect((await nthRun('Announcer', 2, 'webhook')).metadata.output).toBe(
    `said again on ${t.demo.servers[0].name}`,
  );
  // Removed, no secret works.
  expect(
    (await call(t.base, owner, 'DELETE', `/sentinel/serviceScripts/${attachmentId}/webhook`)).status,
  ).toBe(204);
  expect((await fire(rotated.body.secret, 'gone')).status).toBe(404);
});
