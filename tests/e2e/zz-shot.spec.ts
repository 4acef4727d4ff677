import { expect, test } from '@playwright/test';
import { apiOf, signIn } from './helpers.ts';
test('shots', async ({ page }) => {
  await signIn(page);
  const api = await apiOf(page);
  const r = await api<{ created: { scriptId: string }[] }>('POST', '/sentinel/scripts', {
    name: 'Shot',
    events: [
      { language: 'JavaScript', context: 'cron', keyword: '0 12 * * 1', arguments: [], code: 'beacon.log(1);' },
      { language: 'JavaScript', context: 'webhook', keyword: 'restart', arguments: [{ name: 'minutes', type: 'Number', default: 5, required: true }], code: 'x' },
      { language: 'Simple', context: 'slashCommand', keyword: 'kit', arguments: [{ name: 'which', type: 'String', default: 'starter', required: true }], code: '{"match":"all","conditions":[],"actions":[{"type":"giveItem","options":{"characterId":"{characterId}","itemPath":"/Game/X.X_C"}}]}' },
    ],
  });
  const id = r.created[0].scriptId;
  await api('POST', `/sentinel/scripts/${id}/webhooks`, { purpose: 'Panel' });
  await page.goto(`/scripts/${id}`);
  const events = page.getByRole('grid', { name: 'Events and features' });
  await expect(events.getByRole('row').nth(3)).toBeVisible();
  await events.focus();
  for (const n of ['cron', 'slash', 'webhook']) {
    await page.waitForTimeout(300);
    await page.locator('.se-page').evaluate((el) => el.scrollTo(0, 560));
    await page.screenshot({ path: `/tmp/shot-${n}.png` });
    await page.locator('.se-page').evaluate((el) => el.scrollTo(0, 1260));
    await page.screenshot({ path: `/tmp/shot-${n}2.png` });
    await events.focus();
    await page.keyboard.press('ArrowDown');
  }
});
