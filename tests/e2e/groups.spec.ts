import { type Browser, expect, type Page, test } from '@playwright/test';
import { ChatBot } from '../../src/sim/chatBot.ts';
import {
  activePane,
  apiOf,
  openFromPalette,
  openTab,
  plainPlayer,
  signIn,
  tabTo,
  terminalText,
} from './helpers.ts';

// Groups by keyboard only (issue 12): the owner creates a group with chat forwarding, shares two
// servers into it and adds the moderator by email with control servers only. The moderator, in a
// browser of their own, runs a command on the group's server and is refused its settings; a
// player's chat on one server of the group shows on the other with where it was said.

const GROUP = `Frontier ${Date.now() % 100000}`;
const MODERATOR = 'moderator@palisade.local';
// Aberration Cluster is in no other group: the moderator reaches it through this group alone.
const SERVERS = ['Aberration Cluster', 'Island PvE'];

async function consoleLine(page: Page, line: string) {
  await page.keyboard.press('Control+Backquote');
  await expect(page.locator('[data-testid="terminal"] textarea')).toBeFocused();
  await page.keyboard.type(line);
  await page.keyboard.press('Enter');
}

/** Leaves the console pane so keys reach the page again. */
async function closeConsole(page: Page) {
  await page.keyboard.press('Control+Backquote');
  await expect(page.locator('[data-testid="terminal"] textarea')).not.toBeFocused();
}

async function signInAs(browser: Browser, email: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, '/servers', email);
  return page;
}

test('a group shares servers with a moderator who may run commands but not edit settings', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await signIn(page);
  // Create the group from the console pane, then share two servers into it.
  await consoleLine(page, `mkgroup "${GROUP}" teal yes`);
  await expect.poll(() => terminalText(page)).toContain(`Group ${GROUP} created.`);
  await page.keyboard.type(`addservers "${GROUP}" "${SERVERS.join(', ')}"`);
  await page.keyboard.press('Enter');
  await expect.poll(() => terminalText(page)).toContain(`Added 2 of 2 servers to ${GROUP}.`);
  await page.keyboard.type(`group "${GROUP}" users`);
  await page.keyboard.press('Enter');
  await closeConsole(page);

  // On the Users tab: the moderator by email, with control servers only.
  const pane = page.locator('[data-pane][data-active="true"]');
  await expect(pane.locator('h1')).toContainText(GROUP);
  const user = pane.getByRole('textbox', { name: 'Email, user id or username#discriminator' });
  await tabTo(page, user, 80);
  await page.keyboard.type(MODERATOR);
  await page.keyboard.press('Tab');
  await expect(pane.getByRole('checkbox', { name: 'control servers' })).toBeFocused();
  await page.keyboard.press('Space');
  await tabTo(page, pane.getByRole('button', { name: 'Add user' }), 20);
  await page.keyboard.press('Enter');
  const member = pane.getByRole('grid', { name: 'Users' }).getByRole('row', { name: /Moderator/ });
  await expect(member).toContainText('control servers');
  await expect(member).not.toContainText('edit servers');

  // The moderator, signed in elsewhere: a command on the group's server goes through...
  const moderator = await signInAs(browser, MODERATOR);
  await consoleLine(moderator, `run "${SERVERS[0]}" listplayers`);
  await expect.poll(() => terminalText(moderator), { timeout: 20_000 }).toContain('Sent to 1 of 1 server.');
  await closeConsole(moderator);
  // ...and saving its settings is refused with the spec's message.
  await consoleLine(moderator, `server "${SERVERS[0]}" settings`);
  await closeConsole(moderator);
  const mini = moderator.getByRole('textbox', { name: 'Chat name' });
  await tabTo(moderator, mini, 120);
  await moderator.keyboard.type('AB');
  await tabTo(moderator, moderator.getByRole('button', { name: 'Save settings' }), 80);
  await moderator.keyboard.press('Enter');
  await expect(moderator.getByRole('alert').filter({ hasText: 'permission' })).toContainText(
    'You do not have permission to access this resource.',
  );
  await moderator.context().close();

  // A player's chat on one server of the group shows on the other, with the server it came from.
  await consoleLine(page, `server "${SERVERS[1]}" chat`);
  await closeConsole(page);
  const relayed = page
    .getByRole('grid', { name: `Chat of ${SERVERS[1]}` })
    .getByRole('row', { name: new RegExp(SERVERS[0]) });
  await expect(relayed.first()).toBeVisible({ timeout: 30_000 });

  // The server's Activity tab lists both of the moderator's changes, the refused one too.
  await consoleLine(page, `server "${SERVERS[0]}" activity`);
  await closeConsole(page);
  const trail = page.getByRole('grid', { name: `Activity of ${SERVERS[0]}` });
  await expect(
    trail.getByRole('row', { name: /Moderator#.*Game commands.*Run.*listplayers.*ok/ }),
  ).toBeVisible();
  await expect(
    trail.getByRole('row', { name: /Moderator#.*Services.*Update.*Mini name: AB.*forbidden/ }),
  ).toBeVisible();
});

test('the chat community link goes from not linked to a link code, linked by the bot, and unlinked', async ({
  page,
}) => {
  await signIn(page);
  const name = `Hall ${Date.now() % 100000}`;
  await consoleLine(page, `mkgroup "${name}"`);
  await expect.poll(() => terminalText(page)).toContain(`Group ${name} created.`);
  await page.keyboard.type(`group "${name}" settings`);
  await page.keyboard.press('Enter');
  await closeConsole(page);

  const state = page.getByTestId('community-state');
  await expect(state).toHaveText('Not linked');
  await tabTo(page, page.getByRole('button', { name: 'Link chat community' }), 80);
  await page.keyboard.press('Enter');
  // The code is shown to copy, and stays on the page once that is closed.
  const shown = page.getByRole('dialog', { name: 'Link chat community' });
  await expect(shown).toContainText(/[349ACDEFHJKMNPQRTUVWXY]{6}/);
  await page.keyboard.press('Escape');
  await expect(state).toHaveText('Link code requested');
  const code = (await page.getByTestId('link-code').textContent()) ?? '';
  await expect(shown).toHaveCount(0);
  expect(code).toMatch(/^[349ACDEFHJKMNPQRTUVWXY]{6}$/);

  // The community's bot redeems the code; the page shows the link as it happens.
  const bot = new ChatBot({
    apiUrl: new URL(page.url()).origin,
    token: 'e2e-chat-bot',
    guildId: `guild-${name}`,
    guildName: 'Tribe Hall',
  });
  await bot.redeem(code);
  await expect(state).toHaveText('Linked');
  await expect(page.getByRole('region', { name: 'Chat community' })).toContainText('Tribe Hall');

  await tabTo(page, page.getByRole('button', { name: 'Unlink chat community' }), 80);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Are you sure?' })).toContainText('Unlink chat community?');
  await page.keyboard.press('Enter');
  await expect(state).toHaveText('Not linked');
});

test('what a group may do on each server is edited on its services tab; a group-wide chat line shows once', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const group = `Mask ${Date.now() % 100000}`;
  await signIn(page);
  await consoleLine(page, `mkgroup "${group}" none no`);
  await expect.poll(() => terminalText(page)).toContain(`Group ${group} created.`);
  await page.keyboard.type(`addservers "${group}" "Island PvE, Scorched PvP"`);
  await page.keyboard.press('Enter');
  await expect.poll(() => terminalText(page)).toContain(`Added 2 of 2 servers to ${group}.`);
  await page.keyboard.type(`group "${group}" services`);
  await page.keyboard.press('Enter');
  await closeConsole(page);

  // The list's active server's allowances are a form below it.
  const pane = page.locator('[data-pane][data-active="true"]');
  const servers = pane.getByRole('grid', { name: 'Servers' });
  const form = pane.getByRole('form', { name: new RegExp(`^What ${group} may do on `) });
  await expect(form).toBeVisible();
  const server = ((await form.getAttribute('aria-label')) ?? '').replace(`What ${group} may do on `, '');
  const row = servers.getByRole('row', { name: new RegExp(`^${server}`) });
  await expect(row).toContainText('control servers');

  // Control servers taken away by keyboard: the group may still edit the server, not control it.
  await tabTo(page, form.getByRole('checkbox', { name: 'control servers' }), 40);
  await page.keyboard.press('Space');
  await tabTo(page, form.getByRole('button', { name: 'Save what the group may do here' }), 40);
  await page.keyboard.press('Enter');
  await expect(row).not.toContainText('control servers');
  await expect(row).toContainText('edit servers');

  // A line sent to the whole group reaches both servers, and the group's chat shows it once.
  await consoleLine(page, `group "${group}" chat`);
  await closeConsole(page);
  const text = `hello both ${Date.now() % 100000}`;
  await tabTo(page, pane.getByRole('textbox', { name: 'Message' }), 80);
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
  const chat = pane.getByRole('grid', { name: `Chat of ${group}` });
  const line = chat.getByRole('row', { name: new RegExp(text) });
  await expect(line).toHaveCount(1, { timeout: 20_000 });
  // Named with both servers, in the order their copies arrived.
  await expect(line).toContainText(/Island PvE, Scorched PvP|Scorched PvP, Island PvE/, { timeout: 20_000 });
  // The second server's copy came in and did not add a row.
  await page.waitForTimeout(2_000);
  await expect(line).toHaveCount(1);
});

test('watch a player for a group from the console, see them on its Watchlist tab, stop from the row menu', async ({
  page,
}) => {
  await signIn(page);
  const api = await apiOf(page);
  const someone = await plainPlayer(api);
  await openFromPalette(page, 'Demo Cluster');
  await openTab(page, 'Watchlist', 'Group tabs');
  const grid = activePane(page).getByRole('grid', { name: 'Watchlist' });
  await expect(grid).toBeVisible();

  await consoleLine(page, `watch ${someone.playerId} seen with the raiders`);
  await expect
    .poll(() => terminalText(page))
    .toContain(`${someone.playerName} is on Demo Cluster's watchlist.`);
  const row = grid.getByRole('row', {
    name: new RegExp(`^${someone.playerName} seen with the raiders Demo Admin#`),
  });
  await expect(row).toBeVisible();

  // The row's menu, by keyboard: the player is taken off.
  await grid.focus();
  await page.keyboard.press('Home');
  await expect(row).toHaveClass(/is-active/);
  await page.keyboard.press('Shift+F10');
  const stop = page.getByRole('menuitem', { name: /Stop watching player/ });
  await expect(stop).toBeVisible();
  await stop.focus();
  await page.keyboard.press('Enter');
  await expect(row).toHaveCount(0);
  await expect(grid).toContainText('Nobody is watched here yet.');
});
