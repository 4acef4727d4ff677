import { expect, type Page, test } from '@playwright/test';
import { confirmWithEnter, signIn, tabTo } from './helpers.ts';

// Undo belongs to the runtime: a ban removed with Delete in the bans list comes back with Ctrl+Z,
// by keyboard only, against the real server. The API only sets the scene (one ban to remove).

const pane = (page: Page) => page.locator('[data-pane][data-active="true"]');

/** The API as the signed-in console user. */
async function call(page: Page, method: string, path: string, body?: string): Promise<unknown> {
  const token = await page.evaluate(
    () =>
      (JSON.parse(localStorage.getItem('palisade.auth') ?? '{}') as { access_token?: string }).access_token,
  );
  const res = await page.request.fetch(`/v4${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body ? { 'Content-Type': 'text/plain' } : {}) },
    data: body,
  });
  expect(res.status(), `${method} ${path}: ${await res.text()}`).toBeLessThan(300);
  return res.status() === 204 ? true : res.json();
}

test('Ctrl+Z in the bans list restores a removed ban', async ({ page }) => {
  await signIn(page);
  const services = (await call(page, 'GET', '/sentinel/services')) as {
    results: { serviceId: string; displayName: string }[];
  };
  const server = services.results.find((s) => s.displayName === 'Scorched PvP')!;
  const tag = Date.now().toString(16).slice(-8).padStart(8, '0');
  const name = `Undo Target ${tag}`;
  await call(
    page,
    'POST',
    `/sentinel/services/${server.serviceId}/bans.txt`,
    `0002${'3'.repeat(20)}${tag},${name}`,
  );

  // Open the server from the palette, then its Bans tab.
  await page.keyboard.press('Control+k');
  await page.keyboard.type('Scorched PvP');
  await expect(page.getByRole('option', { name: /Scorched PvP/ }).first()).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(pane(page).locator('h1')).toContainText('Scorched PvP');
  const tab = page
    .getByRole('navigation', { name: 'Server tabs' })
    .getByRole('link', { name: 'Bans', exact: true });
  await tabTo(page, tab, 80);
  await page.keyboard.press('Enter');

  // Filter the list down to the ban, move into it, remove it with Delete and confirm.
  const bans = page.getByRole('grid', { name: 'Bans' });
  const row = bans.getByRole('row', { name: new RegExp(name) });
  await expect(row).toBeVisible();
  await tabTo(page, page.getByRole('searchbox', { name: 'Filter Bans' }), 80);
  await page.keyboard.type(tag);
  await page.keyboard.press('Enter');
  await expect(bans).toBeFocused();
  await page.keyboard.press('Delete');
  await confirmWithEnter(page, 'Remove ban?');
  await expect(page.getByRole('status').getByText('Removed 1 ban.')).toBeVisible();
  await expect(page.getByRole('status').getByRole('button', { name: 'Undo' })).toBeVisible();
  await expect(row).toHaveCount(0);

  // Focus is back on the list, not in a text field: Ctrl+Z undoes the removal.
  await expect(bans).toBeFocused();
  await page.keyboard.press('Control+z');
  await expect(page.getByRole('status').getByText('Undone: Remove ban.')).toBeVisible();
  await expect(row).toBeVisible();
  await expect(row).toContainText(`Imported ban for ${name}`);
  // Nothing is left to undo: a second Ctrl+Z says so and changes nothing.
  await page.keyboard.press('Control+z');
  await expect(page.getByRole('alert').getByText(/Nothing to undo/)).toBeVisible();
  await expect(row).toBeVisible();
});
