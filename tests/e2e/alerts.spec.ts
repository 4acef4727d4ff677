import { expect, test } from '@playwright/test';
import { startWebhookReceiver, type WebhookReceiver } from '../api/peers/webhookReceiver.ts';
import { activePane, confirmWithEnter, consoleLine, signIn, terminalText } from './helpers.ts';

// Alerts by keyboard, on the real console and server, with the simulator's players talking: a
// destination and a rule made at the console, the first chat line raising one alert that reaches a
// receiver checking Discord's published schema, the nav bar counting it unread, and the rule's
// page showing what was sent.

let hooks: WebhookReceiver;
test.beforeAll(async () => {
  hooks = await startWebhookReceiver();
});
test.afterAll(() => hooks?.close());

test('a chat rule raises one alert to Discord and the console; reading it opens what was sent', async ({
  page,
}) => {
  await signIn(page);
  const stamp = Date.now().toString(36);
  const destination = `E2E Discord ${stamp}`;
  const rule = `Island chat ${stamp}`;
  const url = hooks.discordUrl('5150');

  await consoleLine(page, `mkdest "${destination}" discord ${url}`);
  await expect.poll(() => terminalText(page)).toContain(`Destination ${destination} added.`);
  // Every chat line scores 0 or more: the simulator's next line raises it.
  await consoleLine(page, `mkalert "${rule}" "Island PvE" chat --score 0 --to "${destination}"`);
  await expect
    .poll(() => terminalText(page))
    .toContain(`Alert ${rule} on Island PvE: A chat line scores 0 or more in any category.`);

  const sent = await hooks.waitFor(
    (r) => JSON.stringify(r.body).includes(`Rule: ${rule}`) || JSON.stringify(r.body).includes(rule),
  );
  expect(sent.problems).toEqual([]);
  expect(sent.status).toBe(204);

  // The nav bar counts it; g n opens the list with focus on it.
  const nav = page
    .getByRole('navigation', { name: 'Sections' })
    .getByRole('link', { name: /^Notifications/ });
  await expect(nav).toContainText(/\d+ unread/);
  // The console closes (Ctrl+`), the focus is back on the page's list, and the keys are its again.
  await page.keyboard.press('Control+Backquote');
  await expect(activePane(page).getByRole('grid', { name: 'Servers' })).toBeFocused();
  await page.keyboard.press('g');
  await page.keyboard.press('n');
  const list = activePane(page).getByRole('grid', { name: 'Notifications' });
  await expect(list).toBeFocused();
  const row = list.getByRole('row', { name: /Unread Alert Chat over 0 .* on Island PvE/ }).first();
  await expect(row).toBeVisible();
  expect((await row.boundingBox())?.height ?? 0).toBeGreaterThan(0);

  // Enter on it: read, and the rule's page shows what went where.
  await list.focus();
  await page.keyboard.press('Home');
  await expect(list.getByRole('row').nth(1)).toHaveClass(/is-active/);
  await page.keyboard.press('Enter');
  await expect(activePane(page).locator('h1')).toHaveText(rule);
  const history = activePane(page).getByRole('grid', { name: 'What was sent' });
  await expect(
    history.getByRole('row', { name: new RegExp(`${destination} Sent 1 HTTP 204`) }),
  ).toBeVisible();
  await expect(history.getByRole('row', { name: /Console Sent 1/ }).first()).toBeVisible();

  // Muted and deleted from the console; the webhook's token never shows in the list.
  await consoleLine(page, `mute "${rule}"`);
  await expect.poll(() => terminalText(page)).toContain(`${rule} is muted.`);
  await consoleLine(page, `rmalert "${rule}"`);
  await confirmWithEnter(page, new RegExp(`Delete alert rule ${rule}`));
  await expect.poll(() => terminalText(page)).toContain(`Alert rule ${rule} deleted.`);
  await page.keyboard.press('Control+Backquote');
  await expect(activePane(page).getByRole('grid', { name: 'Alert rules' })).toBeFocused();
  await page.keyboard.press('g');
  await page.keyboard.press('o');
  const destinations = activePane(page).getByRole('grid', { name: 'Alert destinations' });
  await expect(destinations).toBeFocused();
  const dest = destinations.getByRole('row', { name: new RegExp(destination) });
  await expect(dest).toContainText('Discord webhook');
  await expect(destinations).not.toContainText(new URL(url).pathname.split('/').pop()!);
});
