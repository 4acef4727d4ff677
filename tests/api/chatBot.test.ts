// The chat community link (SPEC §4, §5) through the bot's side of it: a group asks for a link code,
// the bot redeems it (linked), the community's chat reaches the group's servers and the group's
// chat reaches the community only with chat forwarding on, and unlinking ends both.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { ChatBot } from '../../src/sim/chatBot.ts';
import type { Simulator } from '../../src/sim/index.ts';
import { call, linkGameServers, signIn, startTestServer, type TestServer, until } from './helpers.ts';

let t: TestServer;
let sim: Simulator;
let owner: string;
let bot: ChatBot;
const island = () => t.demo.servers[0];

beforeAll(async () => {
  t = await startTestServer({ chatBotToken: 'bot-secret' });
  owner = (await signIn(t.base)).access_token;
  sim = await linkGameServers(t, [island(), t.demo.servers[1]]);
  bot = new ChatBot({ apiUrl: t.server.url, token: 'bot-secret', guildId: 'g-1', guildName: 'Tribe Hall' });
});
afterAll(async () => {
  await sim?.stop();
  await t?.close();
});

const group = () => call(t.base, owner, 'GET', `/sentinel/groups/${t.demo.groupId}`);
const patchGroup = (body: unknown) =>
  call(t.base, owner, 'PATCH', `/sentinel/groups/${t.demo.groupId}`, body);

/** What `read` answers once `ok` holds for it, within five seconds (helpers.ts `until`). */
const once = <T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> =>
  until(
    what,
    async () => {
      const v = await read();
      return ok(v) ? { v } : null;
    },
    5_000,
  ).then((r) => r.v);

it('refuses a caller without the bot token', async () => {
  const r = await fetch(`${t.server.url}/v4/chatBot/links`, {
    method: 'POST',
    headers: { Authorization: 'Bot wrong', 'Content-Type': 'application/json' },
    body: JSON.stringify({ linkCode: 'ACDEF3', guildId: 'g', guildName: 'G' }),
  });
  expect(r.status).toBe(401);
});

it('goes from not linked to code requested to linked, the code used once', async () => {
  expect((await group()).body).toMatchObject({ discordLinkCode: null, discordGuildId: null });
  await expect(bot.redeem('ACDEF3')).rejects.toThrow('No group is waiting for this link code.');
  expect((await patchGroup({ discordLinkCode: 'ACDEF3' })).status).toBe(200);
  expect(await bot.redeem('acdef3')).toEqual({ groupId: t.demo.groupId, groupName: 'Demo Cluster' });
  expect((await group()).body).toMatchObject({
    discordLinkCode: null,
    discordGuildId: 'g-1',
    discordGuildName: 'Tribe Hall',
    isClusterGroup: true,
  });
  await expect(bot.redeem('ACDEF3')).rejects.toThrow('No group is waiting for this link code.');
});

it('forwards only with group chat forwarding on', async () => {
  await expect(bot.say('Mia', 'hello servers')).rejects.toThrow('turn chat forwarding on');
  await expect(bot.poll()).rejects.toThrow('turn chat forwarding on');
  expect((await patchGroup({ enableGroupChat: true })).status).toBe(200);

  await bot.say('Mia', 'hello servers');
  const lines = await once(
    'the community line stored',
    async () =>
      (
        await call(
          t.base,
          owner,
          'GET',
          `/sentinel/logMessages?serviceId=${island().serviceId}&eventName=chat`,
        )
      ).body.results as { metadata: Record<string, unknown> }[],
    (l) => l.some((x) => x.metadata.originalMessage === 'hello servers'),
  );
  expect(lines.find((x) => x.metadata.originalMessage === 'hello servers')?.metadata).toMatchObject({
    source: 'Discord',
    senderName: 'Mia',
    originName: 'Tribe Hall',
  });

  await call(t.base, owner, 'POST', '/sentinel/chat', {
    serviceId: island().serviceId,
    message: 'to the hall',
  });
  const posted = await once(
    'the line posted to the community',
    () => bot.poll().then(() => bot.posted),
    (p) => p.some((l) => l.message === 'to the hall'),
  );
  expect(posted.find((l) => l.message === 'to the hall')).toMatchObject({ serviceDisplayName: 'Island PvE' });
  // The community's own line is not posted back to it.
  expect(posted.some((l) => l.message === 'hello servers')).toBe(false);
});

it('posts a line sent to the whole group once, though each of its servers stores a copy', async () => {
  const text = 'server restart soon';
  /** The group's stored copies of the line, once there are `n`. */
  const copies = (n: number) =>
    once(
      `${n} copies of the group's line`,
      async () =>
        (
          (
            await call(
              t.base,
              owner,
              'GET',
              `/sentinel/logMessages?groupId=${t.demo.groupId}&eventName=chat&pageSize=250`,
            )
          ).body.results as { serviceId: string; metadata: Record<string, unknown> }[]
        ).filter((l) => l.metadata.originalMessage === text),
      (l) => l.length === n,
    );
  const send = () =>
    call(t.base, owner, 'POST', '/sentinel/chat', { groupId: t.demo.groupId, message: text });
  const posted = () => bot.posted.filter((l) => l.message === text);

  expect((await send()).status).toBe(204);
  const first = await copies(2);
  expect(new Set(first.map((l) => l.serviceId)).size).toBe(2);
  expect(first.every((l) => l.metadata.source === 'WebGroup')).toBe(true);
  await bot.poll();
  await bot.poll();
  expect(posted()).toHaveLength(1);

  // The same words sent again are a second line, posted once more.
  expect((await send()).status).toBe(204);
  expect(await copies(4)).toHaveLength(4);
  await bot.poll();
  await bot.poll();
  expect(posted()).toHaveLength(2);
});

it('unlinks: the community reaches the group no more', async () => {
  expect(
    (await patchGroup({ discordLinkCode: null, discordGuildId: null, discordChatChannelId: null })).status,
  ).toBe(200);
  expect((await group()).body).toMatchObject({ discordGuildId: null, discordGuildName: null });
  await expect(bot.say('Mia', 'anyone?')).rejects.toThrow('No group is linked to this community.');
});
