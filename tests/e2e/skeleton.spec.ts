import { expect, test } from '@playwright/test';
import { signIn, terminalText } from './helpers.ts';

test('a signed-out visitor is sent to the landing page and back after signing in', async ({ page }) => {
  await signIn(page, '/services');
  // /services redirects to /servers, and the guard returned the user there after sign-in.
  await expect(page).toHaveURL(/\/servers$/);
  await expect(page.getByRole('row', { name: /Island PvE/ })).toBeVisible();
});

test('keyboard only: palette, live servers, split pane, console with completion', async ({ page }) => {
  await signIn(page);

  // The palette opens with Ctrl+K and runs a command by its title.
  await page.keyboard.press('Control+k');
  const palette = page.getByRole('combobox', { name: /command palette/i });
  await expect(palette).toBeFocused();
  await page.keyboard.type('go to servers');
  await page.keyboard.press('Enter');
  await expect(palette).toBeHidden();
  await expect(page).toHaveURL(/\/servers$/);

  // The simulator changes the servers' population and clock; the list follows without a reload.
  const grid = page.getByRole('grid');
  const rowText = async () => (await grid.textContent()) ?? '';
  const before = await rowText();
  await expect.poll(rowText, { timeout: 20_000 }).not.toBe(before);
  const populations = async () =>
    (await grid.getByRole('row').allInnerTexts()).map((t) => /(\d+) \/ 70/.exec(t)?.[1]).join(',');
  const first = await populations();
  await expect.poll(populations, { timeout: 30_000 }).not.toBe(first);

  // Split the pane; each pane keeps its own route.
  await page.keyboard.press('Control+Backslash');
  await expect(page.locator('[data-pane]')).toHaveCount(2);

  // The console pane: ` shows it with the prompt focused; help, then a command completed with Tab.
  await page.keyboard.press('Backquote');
  await expect(page.locator('[data-testid="terminal"] textarea')).toBeFocused();
  await page.keyboard.type('help server.open');
  await page.keyboard.press('Enter');
  await expect.poll(() => terminalText(page)).toContain('server.open <server');

  await page.keyboard.type('server.op');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Scor');
  await page.keyboard.press('Tab');
  await expect.poll(() => terminalText(page)).toContain('server.open "Scorched PvP"');
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-pane][data-active="true"] h1')).toContainText('Scorched PvP');
  await expect(page).toHaveURL(/\/servers\/[0-9a-f-]{36}$/);
});

test('a bad console command prints the message, clears the prompt, and ↑ brings the line back', async ({
  page,
}) => {
  await signIn(page);
  // `:` from the server list opens the console with its prompt focused.
  await page.getByRole('grid').focus();
  await page.keyboard.press('Shift+Semicolon');
  await expect(page.locator('[data-testid="terminal"] textarea')).toBeFocused();
  await page.keyboard.type('server.setColor "Island PvE" magenta');
  await page.keyboard.press('Enter');
  await expect.poll(() => terminalText(page)).toContain('Colour must be one of');
  // As a shell's: the prompt is empty for the next line, and ↑ brings the failed one back to fix.
  await expect.poll(() => terminalText(page)).toMatch(/palisade>\s*$/);
  await page.keyboard.press('ArrowUp');
  await expect.poll(() => terminalText(page)).toMatch(/palisade> server\.setColor "Island PvE" magenta\s*$/);

  // Ctrl+` hides the pane from inside it and gives focus back to the list.
  await page.keyboard.press('Control+Backquote');
  await expect(page.locator('[data-testid="terminal"]')).toBeHidden();
  await expect(page.getByRole('grid')).toBeFocused();
});
