import { expect, type Page, test } from '@playwright/test';
import { eosId, type FakeArk, startFakeArk, steamId } from '../api/fakeArk.ts';
import {
  activePane,
  apiOf,
  type Call,
  consoleLine,
  openFromPalette,
  openTab,
  type Page_,
  signIn,
  terminalText,
} from './helpers.ts';

// Real ARK servers over RCON, by keyboard, against the real server: a Survival Evolved and a
// Survival Ascended server played by the fake game written from ../shared/ARK-RCON.md
// (tests/api/fakeArk.ts), not by our simulator. Both are added from the console; their players
// show by the id each game prints, chat arrives, a ban reaches the Evolved game as its SteamID64;
// a chat-triggered Simple script answers in the Ascended game over RCON; group chat goes between
// the Ascended server and a server on the mod's link; a 1 s drop leaves the sessions on screen.

const PASSWORD = 'ark-admin-password';
const tag = Date.now().toString(36).slice(-5);
const seed = Date.now() % 1_000_000;
const players = {
  steve: { name: `Steve ${tag}`, id: steamId(seed) },
  zoe: { name: `Zoe, of ${tag}`, id: steamId(seed + 1) },
  smokey: { name: `Smokey ${tag}`, id: eosId(seed) },
  bones: { name: `Dr. Bones ${tag}`, id: eosId(seed + 1) },
};
const names = { evolved: `Evolved ${tag}`, ascended: `Ascended ${tag}` };

let evolved: FakeArk;
let ascended: FakeArk;

test.beforeAll(async () => {
  evolved = await startFakeArk({ kind: 'evolved', password: PASSWORD });
  ascended = await startFakeArk({ kind: 'ascended', password: PASSWORD });
  evolved.players = [players.steve, players.zoe];
  ascended.players = [players.smokey, players.bones];
});
test.afterAll(async () => {
  await Promise.all([evolved?.stop(), ascended?.stop()]);
});

const sessionRow = (page: Page, name: string) =>
  page.getByRole('grid', { name: 'Player sessions' }).getByRole('row', { name: new RegExp(`^${name}`) });

async function addServer(page: Page, name: string, game: FakeArk) {
  await consoleLine(page, `server.add "${name}" rcon 127.0.0.1 ${game.port} ${PASSWORD}`);
  await expect.poll(() => terminalText(page)).toContain(`${name} was added.`);
}

async function serviceOf(api: Call, name: string): Promise<string> {
  const all = await api<Page_<{ serviceId: string; displayName: string }>>('GET', '/sentinel/services');
  return all.results.find((s) => s.displayName === name)!.serviceId;
}

test('an Evolved and an Ascended server over RCON: players by their ids, chat, a ban, a script, group chat, a drop', async ({
  page,
}) => {
  test.setTimeout(150_000);
  await signIn(page);
  await addServer(page, names.evolved, evolved);
  await addServer(page, names.ascended, ascended);
  await page.keyboard.press('Control+Backquote');

  // Survival Evolved: players by SteamID64, a name with a comma whole, the game detected.
  await openFromPalette(page, names.evolved);
  const status = activePane(page).locator('.server-header .status');
  await expect(status).toHaveText('Connected', { timeout: 20_000 });
  await openTab(page, 'Sessions');
  await expect(sessionRow(page, players.steve.name)).toBeVisible({ timeout: 15_000 });
  await expect(sessionRow(page, players.zoe.name)).toBeVisible();
  await openTab(page, 'Settings');
  await expect(page.getByTestId('rcon-game')).toHaveText('Game: ARK: Survival Evolved (detected)');

  // Its chat arrives.
  evolved.chat(players.steve.name, 'Steve', `hello from Evolved ${tag}`);
  await openTab(page, 'Chat');
  await expect(
    page
      .getByRole('grid', { name: `Chat of ${names.evolved}` })
      .getByRole('row', { name: new RegExp(`hello from Evolved ${tag}`) }),
  ).toBeVisible({ timeout: 15_000 });

  // Banned from the console: banplayer goes to the game with the SteamID64, which kicks them.
  await consoleLine(page, `ban "${players.steve.name}" 1d griefing`);
  await expect.poll(() => terminalText(page)).toContain('Created 1 ban.');
  await expect.poll(() => evolved.bans.has(players.steve.id)).toBe(true);
  await page.keyboard.press('Control+Backquote');
  await openTab(page, 'Sessions');
  await expect(sessionRow(page, players.steve.name)).toHaveCount(0, { timeout: 15_000 });
  await expect(sessionRow(page, players.zoe.name)).toBeVisible();

  // Survival Ascended: a chat-triggered Simple script answers in the game, over RCON.
  const api = await apiOf(page);
  const ascendedId = await serviceOf(api, names.ascended);
  const script = await api<{ created: { scriptId: string }[] }>('POST', '/sentinel/scripts', {
    name: `Greeter ${tag}`,
    events: [
      {
        language: 'Simple',
        context: 'chat',
        code: JSON.stringify({
          match: 'all',
          conditions: [{ field: 'message', operator: 'beginsWith', value: 'hello bot' }],
          actions: [{ type: 'sendChat', options: { message: `Welcome ${tag}!`, senderName: 'Greeter' } }],
        }),
      },
    ],
  });
  await api('POST', '/sentinel/serviceScripts', {
    serviceId: ascendedId,
    scriptId: script.created[0].scriptId,
    parameterValues: {},
  });
  await openFromPalette(page, names.ascended);
  await expect(activePane(page).locator('.server-header .status')).toHaveText('Connected', {
    timeout: 20_000,
  });
  ascended.chat(players.smokey.name, 'Smokey', 'hello bot');
  await expect
    .poll(() => ascended.commands.includes(`ServerChat Greeter: Welcome ${tag}!`), { timeout: 15_000 })
    .toBe(true);

  // Group chat between the Ascended server and a server on the mod's link, both ways.
  const services = await api<Page_<{ serviceId: string; displayName: string; connectionKind: string }>>(
    'GET',
    '/sentinel/services?isConnected=true',
  );
  const linked = services.results.find((s) => s.connectionKind === 'link')!;
  const group = await api<{ created: { groupId: string }[] }>('POST', '/sentinel/groups', {
    name: `Relay ${tag}`,
    enableGroupChat: true,
  });
  const groupId = group.created[0].groupId;
  const memberships: string[] = [];
  try {
    for (const serviceId of [ascendedId, linked.serviceId]) {
      const made = await api<{ created: { groupServiceId: string }[] }>('POST', '/sentinel/groupServices', {
        groupId,
        serviceId,
        permissionsMask: 1,
      });
      memberships.push(made.created[0].groupServiceId);
    }
    ascended.chat(players.smokey.name, 'Smokey', `raptors at the river ${tag}`);
    await expect
      .poll(
        async () => {
          const lines = await api<Page_<{ metadata: Record<string, unknown> }>>(
            'GET',
            `/sentinel/logMessages?serviceId=${linked.serviceId}&eventName=chat&pageSize=100`,
          );
          return lines.results.some(
            (l) => l.metadata.originalMessage === `raptors at the river ${tag}` && l.metadata.originName,
          );
        },
        { timeout: 20_000 },
      )
      .toBe(true);
    // The linked server's players talk all the time: their lines reach the Ascended game.
    await expect
      .poll(() => ascended.commands.some((c) => c.startsWith(`ServerChat [${linked.displayName}] `)), {
        timeout: 30_000,
      })
      .toBe(true);
  } finally {
    // The linked server leaves the group: other tests count its groups.
    for (const id of memberships) await api('DELETE', `/sentinel/groupServices/${id}`);
  }

  // A 1 s drop: the sessions on screen stay, nobody joins again.
  await openTab(page, 'Sessions');
  await expect(sessionRow(page, players.smokey.name)).toBeVisible({ timeout: 15_000 });
  await expect(sessionRow(page, players.bones.name)).toBeVisible();
  const joins = async () =>
    (
      await api<Page_<unknown>>(
        'GET',
        `/sentinel/logMessages?serviceId=${ascendedId}&eventName=playerJoined&pageSize=100`,
      )
    ).results.length;
  const joinedBefore = await joins();
  await ascended.stop();
  const header = activePane(page).locator('.server-header .status');
  await expect(header).not.toHaveText('Connected', { timeout: 15_000 });
  await expect(header).toContainText('The connection dropped; reconnecting.');
  await page.waitForTimeout(1_000);
  await ascended.start();
  await expect(header).toHaveText('Connected', { timeout: 20_000 });
  await expect(sessionRow(page, players.smokey.name)).toBeVisible();
  await expect(sessionRow(page, players.bones.name)).toBeVisible();
  expect(await joins()).toBe(joinedBefore);
  const open = await api<Page_<unknown>>(
    'GET',
    `/sentinel/playerSessions?serviceId=${ascendedId}&isConnected=true&pageSize=100`,
  );
  expect(open.results).toHaveLength(2);

  // The two servers go: the demo plan's server limit is the other tests' too.
  for (const name of Object.values(names))
    await api('DELETE', `/sentinel/services/${await serviceOf(api, name)}`);
});
