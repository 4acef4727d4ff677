import { expect, type Page, test } from '@playwright/test';
import { apiOf, type Page_, serverId, signIn } from './helpers.ts';

// The console by keyboard alone, as a new user meets it: focus lands on each view's main list
// after every navigation, and a command with many arguments is a form.

const pane = (page: Page) => page.locator('[data-pane][data-active="true"]');
/** The first cell of a grid's active row: what Enter opens. */
const activeName = (page: Page, grid: string) =>
  page.getByRole('grid', { name: grid }).locator('.vl-row.is-active [role="gridcell"]').first();

/** Signs in and goes to Players with `g p`: the player list has focus once its rows are there. */
async function signInToPlayers(page: Page) {
  await signIn(page);
  await page.keyboard.press('g');
  await page.keyboard.press('p');
  await expect(pane(page).locator('h1')).toHaveText('Players');
  const players = page.getByRole('grid', { name: 'Players' });
  await expect(players).toBeFocused();
  await expect(players.getByRole('row').nth(2)).toBeVisible();
  return players;
}

test('right after signing in the server list has focus: ArrowDown and Enter open a server, Back returns to its row', async ({
  page,
}) => {
  await signIn(page);
  const servers = page.getByRole('grid', { name: 'servers' });
  await expect(servers).toBeFocused();
  await expect(servers.getByRole('row').nth(2)).toBeVisible();
  await page.keyboard.press('ArrowDown');
  const name = (await activeName(page, 'servers').innerText()).trim();
  await page.keyboard.press('Enter');
  await expect(pane(page).locator('h1')).toContainText(name);
  await expect(page).toHaveURL(/\/servers\/[^/]+$/);
  // The server page's main list has focus, its active row outlined.
  const main = pane(page).getByRole('grid').first();
  await expect(main).toBeFocused();
  await expect(main.locator('.vl-row.is-active')).toHaveCSS('outline-style', 'solid');

  await page.keyboard.press('Alt+ArrowLeft');
  await expect(servers).toBeFocused();
  await expect(activeName(page, 'servers')).toHaveText(name);
});

test('g p, /, a few letters, ArrowDown and Enter open a player', async ({ page }) => {
  const players = await signInToPlayers(page);
  await page.keyboard.press('End');
  const name = (await activeName(page, 'Players').innerText()).trim();

  await page.keyboard.press('/');
  await expect(page.getByRole('searchbox', { name: 'Filter Players' })).toBeFocused();
  await page.keyboard.type(name.slice(0, 5));
  await expect(players.getByRole('row', { name: new RegExp(name) }).first()).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await expect(players).toBeFocused();
  const chosen = (await activeName(page, 'Players').innerText()).trim();
  expect(chosen.toLowerCase()).toContain(name.slice(0, 5).toLowerCase());
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/players\/[^/]+$/);
  await expect(pane(page).locator('h1')).toHaveText(chosen);
});

test('a four-argument command as a form from the palette: a refused field shows why, is corrected, submitted', async ({
  page,
}) => {
  await signInToPlayers(page);
  await page.keyboard.press('ArrowDown');
  const player = (await activeName(page, 'Players').innerText()).trim();

  await page.keyboard.press('Control+k');
  await page.keyboard.type('Ban player');
  await expect(page.getByText('opens it as a form')).toBeVisible();
  await page.keyboard.press('Control+Enter');
  const form = page.getByRole('dialog', { name: 'Ban player' });
  const field = (label: string) =>
    form.locator('.argform-field').filter({ has: page.getByText(label, { exact: true }) });
  await expect(field('Players').getByRole('combobox')).toBeFocused();

  // The selected row fills Players (the resolver); the server comes from the completion.
  await expect(field('Players').getByRole('combobox')).toHaveValue(player);
  await page.keyboard.press('Tab');
  await expect(field('Expires').getByRole('textbox')).toBeFocused();
  await page.keyboard.type('soon');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Keyboard test: griefing the north base');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Aberration');
  await page
    .getByRole('option', { name: /Aberration Cluster/ })
    .first()
    .waitFor();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(field('Servers or groups').getByRole('combobox')).toHaveValue('Aberration Cluster');

  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Enter');
  // Refused: the message beside Expires, focus on it, everything typed kept.
  const expires = field('Expires');
  await expect(expires.locator('.argform-error')).toHaveText(/.+/);
  await expect(expires.getByRole('textbox')).toBeFocused();
  await expect(expires.getByRole('textbox')).toHaveAttribute('aria-invalid', 'true');
  await expect(field('Comments').getByRole('textbox')).toHaveValue('Keyboard test: griefing the north base');

  await page.keyboard.press('Control+a');
  await page.keyboard.type('7d');
  await page.keyboard.press('Enter');
  await expect(form).toBeHidden();
  await expect(page.getByText('Created 1 ban.')).toBeVisible();

  // The server holds it; removed again, so the test finds the same scene on its next run.
  const api = await apiOf(page);
  const serviceId = await serverId(api, 'Aberration Cluster');
  const bans = await api<Page_<{ serviceBanId: string; playerName: string; comments: string }>>(
    'GET',
    `/sentinel/serviceBans?serviceId=${serviceId}&pageSize=100`,
  );
  const ban = bans.results.find((b) => b.comments === 'Keyboard test: griefing the north base');
  expect(ban?.playerName).toBe(player);
  await api('DELETE', `/sentinel/serviceBans/${ban!.serviceBanId}`);
});

test('each section added since, by its g key, lands focus on its main list', async ({ page }) => {
  await signIn(page);
  for (const [key, title, grid] of [
    ['g', 'Groups', 'Groups'],
    ['c', 'Survivors', 'Survivors'],
    ['t', 'Tribes', 'Tribes'],
    ['d', 'Dinos', 'Dinos'],
  ] as const) {
    await page.keyboard.press('g');
    await page.keyboard.press(key);
    await expect(pane(page).locator('h1')).toHaveText(title);
    const list = pane(page).getByRole('grid', { name: grid });
    await expect(list).toBeFocused();
    await expect(list.getByRole('row').nth(1)).toBeVisible();
  }
});
