import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { signIn, tabTo, terminalText, consoleLine as typeLine } from './helpers.ts';

// The activity trail in the console, by keyboard only: two changes made on a server from the
// console pane show on its Activity tab with who made them, a third arrives live, the filters
// narrow the list (a bad "since" says why and keeps what was typed), and the CSV holds it all.

const SERVER = 'Aberration Cluster';

/** A line typed at the console pane's prompt, once it has answered `answer`. */
async function consoleLine(page: Page, line: string, answer: string) {
  await typeLine(page, line);
  await expect.poll(() => terminalText(page), { timeout: 15_000 }).toContain(answer);
}

/** Runs what the palette finds for `query`, choosing the option named `option`. */
async function palette(page: Page, query: string, option: RegExp) {
  await page.keyboard.press('Control+k');
  await expect(page.getByRole('combobox', { name: /command palette/i })).toBeFocused();
  await page.keyboard.type(query);
  await expect(page.getByRole('option', { name: option }).first()).toBeVisible();
  await page.keyboard.press('Enter');
}

test('a server’s Activity tab lists its changes with who made them, live, filtered and as CSV', async ({
  page,
}) => {
  await signIn(page);
  const stamp = Date.now() % 100000;
  await consoleLine(page, `chat "${SERVER}" trail line ${stamp}`, `Sent to ${SERVER}.`);
  await consoleLine(
    page,
    `settings "${SERVER}" structureSearchRange 4321`,
    `Structure search range of ${SERVER} is now 4321.`,
  );
  // The command opens the tab from the palette; typed in the console it prints the trail.
  await consoleLine(page, `activity "${SERVER}" --kind chat`, `Activity of ${SERVER}.`);
  expect(await terminalText(page)).toContain(`trail line ${stamp}`);
  await page.keyboard.press('Control+Backquote');

  // From the palette, on the server's page: the server in view is the target, not asked for, and
  // with no filter given (Enter leaves each blank) the command opens the Activity tab.
  await palette(page, SERVER, new RegExp(SERVER));
  await expect(page.locator('[data-pane][data-active="true"] h1')).toContainText(SERVER);
  await palette(page, 'Show activity', /Show activity/);
  const prompt = page.getByRole('dialog', { name: 'Command palette' });
  for (const field of ['User', 'Kind', 'Since']) {
    await expect(prompt).toContainText(`Show activity › ${field}`);
    await page.keyboard.press('Enter');
  }
  await expect(page).toHaveURL(/\/servers\/[0-9a-f-]{36}\/activity$/);

  const grid = page.getByRole('grid', { name: `Activity of ${SERVER}` });
  await expect(grid).toBeFocused();
  const chatRow = grid.getByRole('row', { name: new RegExp(`Chat.*Send.*trail line ${stamp}`) });
  const settingsRow = grid.getByRole('row', {
    name: /Services.*Update.*Game specific, structure search range: 4321/,
  });
  await expect(chatRow).toContainText('Demo Admin#');
  await expect(settingsRow).toContainText('Demo Admin#');
  await expect(chatRow).toContainText('ok');

  // Live: a change made while the tab is open shows without a refresh.
  await consoleLine(page, `chat "${SERVER}" live line ${stamp}`, `Sent to ${SERVER}.`);
  await page.keyboard.press('Control+Backquote');
  await expect(grid.getByRole('row', { name: new RegExp(`live line ${stamp}`) })).toBeVisible();

  // Filters: a kind narrows the list; a since that cannot be read says why and stays as typed.
  const kind = page.getByRole('textbox', { name: 'Kind' });
  await tabTo(page, kind, 60);
  await page.keyboard.type('services');
  await expect(chatRow).toHaveCount(0);
  await expect(settingsRow).toBeVisible();
  const since = page.getByRole('textbox', { name: 'Since' });
  await page.keyboard.press('Tab');
  await expect(since).toBeFocused();
  await page.keyboard.type('soon');
  await expect(since).toHaveAccessibleDescription(/Use a duration like 30m, 12h, 7d or 2w/);
  await expect(since).toHaveValue('soon');
  await expect(settingsRow).toBeVisible();
  await page.keyboard.press('Control+a');
  await page.keyboard.type('1h');
  await expect(since).not.toHaveAttribute('aria-invalid', 'true');
  await expect(settingsRow).toBeVisible();
  await page.keyboard.press('Shift+Tab');
  await expect(kind).toBeFocused();
  await page.keyboard.press('Control+a');
  await page.keyboard.press('Backspace');
  await expect(chatRow).toBeVisible();

  // CSV: the toolbar's export, every entry the filter matches, with who made it.
  const exportButton = page.getByRole('button', { name: /Export the list as CSV/ });
  await tabTo(page, exportButton, 20);
  const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  expect(download.suggestedFilename()).toBe(`activity-${SERVER}.csv`);
  const csv = await readFile((await download.path()) as string, 'utf8');
  expect(csv).toContain('Time,User,Kind,Action,Target,Summary,Outcome');
  expect(csv).toMatch(
    // The target by its name, not its id.
    new RegExp(`Demo Admin#[0-9a-f]{8},Chat,Send,${SERVER},"?Message: trail line ${stamp}`),
  );
  expect(csv).toMatch(/Demo Admin#[0-9a-f]{8},Services,Update,/);
  expect(csv).toContain(`live line ${stamp}`);
});
