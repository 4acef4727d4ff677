import { expect, type Page, test } from '@playwright/test';
import { clippedTexts, fitsIn, openTab, signIn, tabTo, terminalText } from './helpers.ts';

/** Opens a server by name from the palette, as a keyboard user does. */
async function openServer(page: Page, name: string) {
  await page.keyboard.press('Control+k');
  await expect(page.getByRole('combobox', { name: /command palette/i })).toBeFocused();
  await page.keyboard.type(name);
  await expect(page.getByRole('option', { name: new RegExp(name) }).first()).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-pane][data-active="true"] h1')).toContainText(name);
}

async function consoleLine(page: Page, line: string) {
  await page.keyboard.press('Control+Backquote');
  await expect(page.locator('[data-testid="terminal"] textarea')).toBeFocused();
  await page.keyboard.type(line);
  await page.keyboard.press('Enter');
}

test('open a server from the palette, send chat from the console pane, see it in the chat view', async ({
  page,
}) => {
  await signIn(page);
  await openServer(page, 'Island PvE');
  await expect(page).toHaveURL(/\/servers\/[0-9a-f-]{36}$/);
  // How far back its history goes: the demo admin's yearly plan keeps 90 days.
  const since = await page.evaluate(() =>
    new Date(Date.now() - 90 * 86_400_000).toLocaleDateString('en-GB', {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
    }),
  );
  await expect(page.getByTestId('server-history')).toHaveText(`90 days, since ${since}`);
  await openTab(page, 'Chat');
  const chat = page.getByRole('grid', { name: 'Chat of Island PvE' });
  await expect(chat).toBeVisible();
  // Every column title reads whole, the scores' too.
  await expect(chat.getByRole('columnheader', { name: 'Scores' })).toBeVisible();
  expect(await clippedTexts(chat.getByRole('columnheader'))).toEqual([]);
  const widest = await page.evaluate(() => new Date(2000, 11, 28, 12, 59, 59).toLocaleTimeString('en'));
  await expect
    .poll(() => fitsIn(chat.locator('[role=gridcell][aria-colindex="1"]').first(), widest))
    .toBe(true);

  const text = `Hello from the console ${Date.now() % 100000}`;
  await consoleLine(page, `chat "Island PvE" ${text}`);
  await expect.poll(() => terminalText(page)).toContain('Sent to Island PvE.');
  // The simulator echoes the web line back as a chat event; it arrives live with its source.
  const row = chat.getByRole('row', { name: new RegExp(text) });
  await expect(row).toBeVisible({ timeout: 15_000 });
  await expect(row).toContainText('Web');

  // The message box's draft survives a reload. (A reload also leaves the console pane, which
  // keeps keyboard focus while open.)
  await page.reload();
  const box = page.getByRole('textbox', { name: 'Message', exact: true });
  await tabTo(page, box, 150);
  await page.keyboard.type('half-typed thought');
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Message', exact: true })).toHaveValue('half-typed thought');
});

test('run an admin command on a group from the console and see each server’s result', async ({ page }) => {
  await signIn(page);
  await consoleLine(page, 'run "Demo Cluster" saveworld');
  // The answers print after the summary: wait for what is asserted, not for the summary alone.
  const answered = (server: string) => new RegExp(`${server}\\s*\\n\\s*Server received, But no response!!`);
  await expect
    .poll(() => terminalText(page), { timeout: 20_000 })
    .toMatch(/Sent to 2 of 2 servers\.[\s\S]*Island PvE[\s\S]*Scorched PvP/);
  await expect.poll(() => terminalText(page)).toMatch(answered('Island PvE'));
  await expect.poll(() => terminalText(page)).toMatch(answered('Scorched PvP'));

  // Every line of an answer prints in full, the players' EOS ids (32 hex digits) whole. The end
  // of the last server's answer is on screen (the terminal's rows show only what is in view, and
  // with twenty players on, that server's heading has scrolled above them); once the prompt is
  // back below it, nothing more prints, so the screen can be read.
  await page.keyboard.type('run "Demo Cluster" listplayers');
  await page.keyboard.press('Enter');
  await expect
    .poll(() => terminalText(page), { timeout: 20_000 })
    .toMatch(/(No Players Connected|\d+\. [^\n]+, 0002[0-9a-f]{28})\s*\n\s*palisade> \s*$/);
  const players = (await terminalText(page)).split('\n').filter((l) => /^\s*\d+\. /.test(l));
  for (const line of players) expect(line).toMatch(/^\s*\d+\. .+, 0002[0-9a-f]{28}\s*$/);

  // A destructive command asks first; Esc cancels and nothing is sent.
  await page.keyboard.type('run "Demo Cluster" destroywilddinos');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog')).toContainText('destroywilddinos');
  await page.keyboard.press('Escape');
  await expect.poll(() => terminalText(page)).toContain('Cancelled.');
});

test('a bad setting shows its message in place and keeps what was typed', async ({ page }) => {
  await signIn(page);
  await openServer(page, 'Scorched PvP');
  await openTab(page, 'Settings');
  const range = page.getByLabel('Structure search range');
  await tabTo(page, range, 40);
  await page.keyboard.press('Control+a');
  await page.keyboard.type('99');
  await page.keyboard.press('Enter');
  // In place: the message is the field's own description, and the field says it is invalid.
  await expect(range).toHaveAccessibleDescription(
    /The structure search range must be a whole number from 500 to 20000\./,
  );
  await expect(range).toHaveAttribute('aria-invalid', 'true');
  await expect(range).toHaveValue('99');
  await expect(range).toBeFocused();

  // A good value saves, and the server keeps it.
  await page.keyboard.press('Control+a');
  await page.keyboard.type('4500');
  await page.keyboard.press('Enter');
  await expect(page.getByText('Settings of Scorched PvP saved.')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Structure search range')).toHaveValue('4500');
});
