import { expect, type Locator, type Page, test } from '@playwright/test';
import {
  activePane,
  apiOf,
  onlinePlayer,
  openFromPalette,
  openTab,
  type Page_,
  type PlayerSession,
  serverId,
  signIn,
} from './helpers.ts';

// A phone (390×844), in both themes: the server list, a server's chat, the players, a ban and a
// kick, each shown inside the screen and done by keyboard; nothing of the page is cut at its right
// edge.

test.use({ viewport: { width: 390, height: 844 } });

/** Inside the window, of some size: what a person on the phone can see and reach. */
async function onScreen(page: Page, what: Locator): Promise<void> {
  await expect(what).toBeVisible();
  const box = (await what.boundingBox())!;
  const view = page.viewportSize()!;
  expect(box.height).toBeGreaterThan(10);
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(view.width + 0.5);
  expect(box.y + box.height).toBeLessThanOrEqual(view.height + 0.5);
}

for (const scheme of ['light', 'dark'] as const) {
  test(`on a phone, ${scheme}: servers, chat, players and a ban`, async ({ browser }) => {
    const context = await browser.newContext({ colorScheme: scheme, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await signIn(page);
    await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
    // The page is as wide as the phone: nothing scrolls sideways but lists' own columns.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await onScreen(
      page,
      page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: /Servers/ }),
    );
    const servers = activePane(page).getByRole('grid', { name: 'Servers' });
    await onScreen(page, servers.getByRole('row').nth(1));
    // The list has the phone's width, not what a desk's side menu leaves of it.
    expect((await servers.boundingBox())!.width).toBeGreaterThan(0.9 * 390);

    await openFromPalette(page, 'Island PvE');
    await openTab(page, 'Chat');
    await onScreen(page, page.getByRole('textbox', { name: 'Message', exact: true }));
    await onScreen(
      page,
      page.getByRole('form', { name: 'Send chat to Island PvE' }).getByRole('button', { name: 'Send' }),
    );
    await onScreen(page, page.getByRole('grid', { name: 'Chat of Island PvE' }).getByRole('row').first());

    await page.keyboard.press('g');
    await page.keyboard.press('p');
    const players = activePane(page).getByRole('grid', { name: 'Players' });
    // A player of each run's own (the light run bans the first).
    const row = players.getByRole('row').nth(scheme === 'light' ? 1 : 3);
    await onScreen(page, row);
    await expect(players).toBeFocused();
    if (scheme === 'dark') {
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
    }
    await expect(row).toHaveClass(/is-active/);
    await page.keyboard.press('b');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await onScreen(page, palette);
    await expect(palette).toContainText('Ban player › Expires');
    await page.keyboard.type('1h');
    await page.keyboard.press('Enter');
    await expect(palette).toContainText('Ban player › Comments');
    await page.keyboard.type(`phone ban ${scheme}`);
    await page.keyboard.press('Enter');
    await expect(palette).toContainText('Ban player › Servers or groups');
    await page.keyboard.type('Island PvE');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('status')).toContainText(/Created \d+ bans?\./);
    await context.close();
  });
}

/** Tries before giving up: each is spoilt only by the player leaving the game first. */
const KICK_TRIES = 5;

test('on a phone: a player who is on a server is kicked from the players list, by keyboard', async ({
  page,
}) => {
  await signIn(page);
  const api = await apiOf(page);
  const island = await serverId(api, 'Island PvE');
  /** Whether a session has ended since it was seen open. */
  const ended = async (seen: PlayerSession) =>
    (
      await api<Page_<PlayerSession>>(
        'GET',
        `/sentinel/playerSessions?playerId=${seen.playerId}&pageSize=250`,
      )
    ).results.some((s) => s.playerSessionId === seen.playerSessionId && s.disconnectTime !== null);
  const players = activePane(page).getByRole('grid', { name: 'Players' });
  const status = page.getByRole('status');
  const alert = page.getByRole('alert');
  await page.keyboard.press('g');
  await page.keyboard.press('p');
  await expect(players).toBeFocused();
  // The simulated players come and go: one may leave between being found and being kicked, which
  // the console then says, truly. That try is checked and another player taken.
  for (let tries = 1; ; tries++) {
    // Someone on the island now, with a name of their own to type into the list's filter.
    const seen = await onlinePlayer(api, island);
    const name = seen.playerName;
    await players.focus();
    // The filter's text is selected as it takes focus: typing replaces the last try's.
    await page.keyboard.press('/');
    await page.keyboard.type(name);
    // Their own row (the filter also shows names that start with theirs, so it may start below the
    // phone's screen), made the active one by keyboard, which brings it into view: the list keeps
    // its active row while the filter's answer arrives.
    const row = players.getByRole('row', { name: new RegExp(`^${name}( |$)`) });
    await expect(row).toBeVisible();
    await players.focus();
    await page.keyboard.press('Home');
    for (let i = 0; i < 20 && !/is-active/.test((await row.getAttribute('class')) ?? ''); i++)
      await page.keyboard.press('ArrowDown');
    await expect(row).toHaveClass(/is-active/);
    await onScreen(page, row);
    await page.keyboard.press('Shift+F10');
    const kick = page.getByRole('menuitem', { name: /Kick player/ });
    await onScreen(page, kick);
    await kick.focus();
    await page.keyboard.press('Enter');
    // Kicked from where they are: the simulated players move between servers, so by now that may be
    // another server than the one they were found on.
    const kicked = status.filter({ hasText: new RegExp(`Kicked ${name} from [^.]+\\.`) });
    const gone = alert.filter({ hasText: `${name} is not on any server now.` });
    await expect(kicked.or(gone)).toBeVisible();
    if (await kicked.isVisible()) break;
    // They did leave: the session they were found in has ended.
    expect(await ended(seen)).toBe(true);
    expect(tries, `every player of ${KICK_TRIES} left before being kicked`).toBeLessThan(KICK_TRIES);
  }
});
