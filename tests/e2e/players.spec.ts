import { expect, type Page, test } from '@playwright/test';
import {
  apiOf,
  type Call,
  onlinePlayer,
  openFromPalette,
  type Page_,
  type PlayerSession,
  plainPlayer,
  serverId,
  signIn,
  tabTo,
  terminalText,
} from './helpers.ts';

// Players, notes and bans, by keyboard, against the real server and the simulator. The API is
// used only to set the scene (who is online, a player with a name history) and to read what a
// screen for it does not exist for yet.

/** Renames the player's survivor in game, as an admin would, and waits for the server to hear it. */
async function rename(api: Call, s: PlayerSession, newName: string): Promise<void> {
  const chars = await api<Page_<{ characterId: string }>>(
    'GET',
    `/sentinel/characters?playerId=${s.playerId}&serviceId=${s.serviceId}`,
  );
  await api('POST', '/sentinel/gameCommands', {
    type: 'renamePlayer',
    serviceId: s.serviceId,
    characterId: chars.results[0].characterId,
    newName,
  });
  // Heard once the name is the player's, now or among former ones (another server may rename back).
  await expect
    .poll(async () => {
      const p = await api<{ playerName: string; otherNames: string[] }>(
        'GET',
        `/sentinel/players/${s.playerId}`,
      );
      return p.playerName === newName || p.otherNames.includes(newName);
    })
    .toBe(true);
}

const pane = (page: Page) => page.locator('[data-pane][data-active="true"]');

async function palette(page: Page, text: string) {
  await page.keyboard.press('Control+k');
  await expect(page.getByRole('combobox', { name: /command palette/i })).toBeFocused();
  await page.keyboard.type(text);
}

async function openServer(page: Page, name: string) {
  await palette(page, name);
  await expect(page.getByRole('option', { name: new RegExp(name) }).first()).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(pane(page).locator('h1')).toContainText(name);
}

async function openTab(page: Page, nav: string, title: string) {
  const tab = page.getByRole('navigation', { name: nav }).getByRole('link', { name: title, exact: true });
  await tabTo(page, tab, 80);
  await page.keyboard.press('Enter');
}

/** Types a line into the console pane, opening it first if the prompt does not have focus. */
async function consoleLine(page: Page, line: string) {
  const prompt = page.locator('[data-testid="terminal"] textarea');
  const focused =
    (await prompt.count()) > 0 && (await prompt.evaluate((el) => el === document.activeElement));
  if (!focused) await page.keyboard.press('Backquote');
  await expect(prompt).toBeFocused();
  await page.keyboard.type(line);
  await page.keyboard.press('Enter');
}

/** Hides the console pane (Ctrl+` works from its prompt), leaving focus in the page. */
async function closeConsole(page: Page) {
  await page.keyboard.press('Control+Backquote');
  await expect(page.locator('[data-testid="terminal"] textarea')).not.toBeFocused();
}

const stamp = () => Date.now().toString(36).slice(-5);

test('find a player by a former name from the palette, add a note and edit it', async ({ page }) => {
  await signIn(page);
  const api = await apiOf(page);
  const s = await onlinePlayer(api, await serverId(api, 'Island PvE'));
  const tag = stamp();
  const oldName = `Wanderer ${tag}`;
  const newName = `Settler ${tag}`;
  await rename(api, s, oldName);
  await rename(api, s, newName);

  // The player list knows every name; the palette then finds the player by the old one.
  await page.getByRole('grid').focus();
  await page.keyboard.press('g');
  await page.keyboard.press('p');
  await expect(pane(page).locator('h1')).toHaveText('Players');
  await expect(page.getByRole('grid', { name: 'Players' }).getByRole('row').nth(1)).toBeVisible();
  await palette(page, oldName);
  const hit = page.getByRole('option', { name: new RegExp(oldName) });
  await expect(hit).toContainText('formerly');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/players/${s.playerId}$`));
  await expect(pane(page).getByText('Also known as')).toContainText(oldName);
  // The simulated servers each keep their own name for a player, so a rejoin elsewhere may rename
  // them again; the page follows whatever the name is now.
  await expect(pane(page).locator('h1')).not.toHaveText('Loading…');

  await openTab(page, 'Player tabs', 'Name History');
  const names = page.getByRole('grid', { name: 'Name history' });
  await expect(names.getByRole('row', { name: new RegExp(oldName) })).toBeVisible();

  // Notes: both messages of SPEC §5, and a refused draft stays as typed.
  await openTab(page, 'Player tabs', 'Notes');
  await tabTo(page, page.getByRole('button', { name: 'Add note' }));
  await page.keyboard.press('Enter');
  const editor = page.getByRole('textbox', { name: 'Note' });
  await expect(editor).toBeFocused();
  await page.keyboard.press('Control+Enter');
  await expect(pane(page).getByRole('alert')).toHaveText('The note should have some content, right?');
  await page.keyboard.type('ok');
  await page.keyboard.press('Control+Enter');
  await expect(pane(page).getByRole('alert')).toHaveText('Surely you have more to say than that.');
  await expect(editor).toHaveValue('ok');
  await page.keyboard.type(' so far, talked about raiding the north base');
  await page.keyboard.press('Control+Enter');
  const notes = page.getByRole('grid', { name: 'Notes' });
  const first = 'ok so far, talked about raiding the north base';
  await expect(notes.getByRole('row', { name: new RegExp(first) })).toBeVisible();

  // Edit it: Enter on the row opens it; the earlier text is kept in its history.
  await notes.focus();
  await page.keyboard.press('Enter');
  await expect(editor).toHaveValue(first);
  await page.keyboard.press('End');
  await page.keyboard.type(' (confirmed by two witnesses)');
  await page.keyboard.press('Control+Enter');
  const row = notes.getByRole('row', { name: /confirmed by two witnesses/ });
  await expect(row).toContainText('(1×)');
  await notes.focus();
  const history = page.getByRole('region', { name: 'Edit history' });
  await expect(history).toContainText(first);
});

test('ban for 7 days from the console pane: the simulator kicks them, the server and the group list it', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signIn(page);
  const api = await apiOf(page);
  const island = await serverId(api, 'Island PvE');

  // A moderator reads the name off the connected players and bans them from the console.
  await openServer(page, 'Island PvE');
  await openTab(page, 'Server tabs', 'Sessions');
  const sessions = page.getByRole('grid', { name: 'Player sessions' });
  // The simulator's players come and go: one who left before the list showed them is passed over.
  let name = '';
  await expect(async () => {
    name = (await onlinePlayer(api, island)).playerName;
    await expect(sessions.getByRole('row', { name: new RegExp(`^${name}`) })).toContainText('Yes', {
      timeout: 5_000,
    });
  }).toPass({ timeout: 30_000 });

  // The server in view is the target; the player is named.
  await consoleLine(page, `ban "${name}" 7d griefing on the base`);
  await expect.poll(() => terminalText(page)).toContain('Created 1 ban.');
  const serverBans = await api<Page_<{ playerId: string; playerName: string; expiration: number }>>(
    'GET',
    `/sentinel/serviceBans?serviceId=${island}`,
  );
  const ban = serverBans.results.find((b) => b.playerName === name)!;
  expect(Math.abs(ban.expiration - (Date.now() / 1000 + 7 * 86400))).toBeLessThan(120);

  // The server told the game: the simulator kicks them and they leave the connected sessions.
  await expect(sessions.getByRole('row', { name: new RegExp(`^${name}`) })).toHaveCount(0, {
    timeout: 15_000,
  });
  const connected = async () =>
    (
      await api<Page_<PlayerSession>>(
        'GET',
        `/sentinel/playerSessions?playerId=${ban.playerId}&serviceId=${island}&isConnected=true`,
      )
    ).results.length;
  await expect.poll(connected).toBe(0);

  await closeConsole(page);
  await openTab(page, 'Server tabs', 'Bans');
  const bans = page.getByRole('grid', { name: 'Bans' });
  await expect(bans.getByRole('row', { name: new RegExp(name) })).toContainText('griefing on the base');

  // Then the whole group, from the same console: the ban names Demo Cluster.
  await consoleLine(page, `ban "${name}" 7d griefing on the base --targets "Demo Cluster"`);
  await expect.poll(() => terminalText(page)).toMatch(/Created 1 ban\.[\s\S]*Created 1 ban\./);
  const groups = await api<Page_<{ groupId: string; name: string }>>('GET', '/sentinel/groups');
  const cluster = groups.results.find((g) => g.name === 'Demo Cluster')!;
  const groupBans = await api<Page_<{ playerId: string; comments: string }>>(
    'GET',
    `/sentinel/groupBans?groupId=${cluster.groupId}`,
  );
  expect(groupBans.results).toEqual([
    expect.objectContaining({ playerId: ban.playerId, comments: 'griefing on the base' }),
  ]);
  // Banning them again on the server is refused with the reason, and the line stays to fix.
  await consoleLine(page, `ban "${name}" 7d again`);
  await expect.poll(() => terminalText(page)).toMatch(/already banned/i);
});

test('import three bans by paste, one line bad: which line and why', async ({ page }) => {
  await signIn(page);
  await openServer(page, 'Scorched PvP');
  await openTab(page, 'Server tabs', 'Bans');
  await tabTo(page, page.getByRole('button', { name: 'Import bans…' }), 80);
  await page.keyboard.press('Enter');
  const paste = page.getByRole('textbox', { name: 'Text to import' });
  await tabTo(page, paste, 80);
  const tag = stamp()
    .padStart(5, '0')
    .replace(/[^0-9a-f]/g, 'a');
  const good1 = `0002${'1'.repeat(23)}${tag}`;
  const good2 = `0002${'2'.repeat(23)}${tag}`;
  await page.keyboard.type(`${good1},Cheater One`);
  await page.keyboard.press('Enter');
  await page.keyboard.type('not-an-id,Bad Line');
  await page.keyboard.press('Enter');
  await page.keyboard.type(`${good2},Cheater Two,0`);
  await page.keyboard.press('Control+Enter');
  const outcome = page.getByRole('region', { name: 'Import bans' }).getByRole('status');
  await expect(outcome).toContainText('Imported 2 of 3 lines.');
  await expect(outcome).toContainText('line 2 (not-an-id,Bad Line)');
  const bans = page.getByRole('grid', { name: 'Bans' });
  await expect(bans.getByRole('row', { name: /Cheater One/ })).toBeVisible();
  await expect(bans.getByRole('row', { name: /Cheater Two/ })).toBeVisible();
  await expect(paste).toHaveValue(/not-an-id/);
});

test('a player’s sessions on a timeline above the list: a lane per server, a bar per session, 24 hours to 30 days', async ({
  page,
}) => {
  await signIn(page);
  const api = await apiOf(page);
  const player = await onlinePlayer(api, await serverId(api, 'Island PvE'));
  await openServer(page, player.playerName);
  await openTab(page, 'Player tabs', 'Sessions');
  const timeline = pane(page).getByRole('figure', { name: 'Sessions over time' });
  const summary = timeline.locator('figcaption');
  await expect(summary).toHaveText(/^\d+ sessions? on \d+ servers? in the last 7 days, .+ played\.$/);
  await expect(timeline.getByRole('listitem').filter({ hasText: 'Island PvE' })).toBeVisible();
  // The session going on now reaches the right end of its track, and is drawn, not 0 px wide. It
  // is in whichever lane the simulated player is on by now: they move between servers.
  const lane = timeline
    .getByRole('listitem')
    .filter({ has: page.locator('.timeline-bar-open') })
    .last();
  await expect(lane).toBeVisible();
  const track = (await lane.locator('.timeline-track').boundingBox())!;
  const open = (await lane.locator('.timeline-bar-open').last().boundingBox())!;
  expect(open.width).toBeGreaterThanOrEqual(1);
  expect(open.height).toBeGreaterThan(5);
  expect(Math.abs(open.x + open.width - (track.x + track.width))).toBeLessThan(3);
  // The list below shows the same sessions.
  await expect(
    pane(page).getByRole('grid', { name: 'Player sessions' }).getByRole('row').nth(1),
  ).toBeVisible();

  const day = timeline.getByRole('button', { name: '24h', exact: true });
  await tabTo(page, day, 80);
  await page.keyboard.press('Enter');
  await expect(day).toHaveAttribute('aria-pressed', 'true');
  await expect(summary).toHaveText(/in the last 24 hours, .+ played\.$/);
});

test('flag a player from the console, find them by the flag, read why on their page, take it off from the palette', async ({
  page,
}) => {
  await signIn(page);
  const api = await apiOf(page);
  const someone = await plainPlayer(api);
  const flag = `Griefer ${stamp()}`;

  await consoleLine(page, `flag ${someone.playerId} "${flag}" orange burned the north gate`);
  await expect.poll(() => terminalText(page)).toContain(`${someone.playerName} flagged ${flag}.`);

  // The players list finds them by the flag, which shows beside the name.
  await page.getByRole('grid').first().focus();
  await page.keyboard.press('g');
  await page.keyboard.press('p');
  const grid = pane(page).getByRole('grid', { name: 'Players' });
  await expect(grid).toBeFocused();
  await page.keyboard.press('/');
  await page.keyboard.type(`flag:${flag.toLowerCase()}`);
  const row = grid.getByRole('row', { name: new RegExp(`^${someone.playerName} Flagged ${flag}`) });
  await expect(row).toBeVisible();
  await expect(grid.getByRole('row')).toHaveCount(2);
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');

  // Their page says why.
  await expect(page).toHaveURL(new RegExp(`/players/${someone.playerId}$`));
  await expect(pane(page).locator('.player-flags')).toHaveText(`Flagged ${flag}: burned the north gate`);

  // Taken off from the palette: the player is the one in view, so the first question is the flag.
  await palette(page, 'Remove player flag');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Command palette' })).toContainText(
    'Remove player flag › Flag',
  );
  await page.keyboard.type(flag);
  await page.keyboard.press('Enter');
  await expect(pane(page).locator('.player-flags')).toHaveCount(0);
  expect(
    (await api<Page_<unknown>>('GET', `/sentinel/playerFlags?playerId=${someone.playerId}`)).results,
  ).toEqual([]);
});

test('a flag shows beside its player’s name in the chat too', async ({ page }) => {
  await signIn(page);
  const api = await apiOf(page);
  const island = await serverId(api, 'Island PvE');
  // The newest line a player said on Island PvE: the simulator's players talk all the time.
  const [line] = (
    await api<Page_<{ metadata: { playerId: string | null; senderName: string } }>>(
      'GET',
      `/sentinel/logMessages?serviceId=${island}&eventName=chat&pageSize=20`,
    )
  ).results.filter((l) => l.metadata.playerId);
  const flag = `Chatty ${stamp()}`;
  await api('POST', '/sentinel/playerFlags', {
    playerId: line.metadata.playerId,
    name: flag,
    colour: 'blue',
    reason: 'talks over the admins',
  });
  await openFromPalette(page, 'Island PvE');
  await openTab(page, 'Server tabs', 'Chat');
  const grid = pane(page).getByRole('grid', { name: 'Chat of Island PvE' });
  await expect(
    grid.getByRole('row', { name: new RegExp(`${line.metadata.senderName} Flagged ${flag}`) }).first(),
  ).toBeVisible();
});
