import { expect, type Locator, type Page, test } from '@playwright/test';
import { clippedTexts, fitsIn, signIn, tabTo } from './helpers.ts';

const WARNING_AND_ABOVE = ['Warning', 'Error', 'Critical', 'Alert', 'Emergency'];
const INFORMATIONAL_AND_ABOVE = ['Informational', 'Notice', ...WARNING_AND_ABOVE];

const pane = (page: Page) => page.locator('[data-pane][data-active="true"]');

async function palette(page: Page, text: string) {
  await page.keyboard.press('Control+k');
  await expect(page.getByRole('combobox', { name: /command palette/i })).toBeFocused();
  await page.keyboard.type(text);
}

/** The "1,234 rows" of the list's bar. */
async function rowCount(view: Locator): Promise<number> {
  const text = (await view.locator('.vl-count').textContent()) ?? '';
  return /rows?$/.test(text) ? Number(text.replace(/\D/g, '')) : -1;
}

/** The level shown in every rendered row. */
const levels = (grid: Locator) => grid.locator('[role=row] .log-level').allInnerTexts();

/** Picks an option of a native select as a keyboard user does: focus it, type the option's start. */
async function choose(page: Page, select: Locator, typed: string) {
  await tabTo(page, select, 80);
  await page.keyboard.type(typed);
}

test('server logs: level filter, a live event, raw data from the context menu, /logs/{id} by nav.open', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signIn(page);
  await palette(page, 'Island PvE');
  await expect(page.getByRole('option', { name: /Island PvE/ }).first()).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(pane(page).locator('h1')).toContainText('Island PvE');

  // Logs are the server page's default tab.
  const view = pane(page).locator('.log-view');
  const grid = view.getByRole('grid', { name: 'Log messages' });
  const level = view.getByLabel('Level', { exact: true });
  await choose(page, level, 'Informational');
  await expect(level).toHaveValue('Informational+');
  await expect.poll(() => rowCount(view)).toBeGreaterThan(0);
  // Titles and times read whole.
  expect(await clippedTexts(grid.getByRole('columnheader'))).toEqual([]);
  const times = grid.locator('[role=gridcell][aria-colindex="2"]');
  await expect.poll(() => clippedTexts(times)).toEqual([]);
  // The widest time too (two-digit month, day and hour), whatever the hour now.
  const widest = await page.evaluate(() => new Date(2000, 11, 28, 12, 59, 59).toLocaleString('en'));
  expect(await fitsIn(times.first(), widest)).toBe(true);
  await expect
    .poll(async () => (await levels(grid)).every((l) => INFORMATIONAL_AND_ABOVE.includes(l)))
    .toBe(true);

  // A new simulated event arrives live at the top while the reader is there.
  const before = await rowCount(view);
  const firstRow = grid.locator('[role=row][aria-rowindex="2"]');
  const topBefore = await firstRow.innerText();
  await expect.poll(() => rowCount(view), { timeout: 30_000 }).toBeGreaterThan(before);
  await expect(firstRow).not.toHaveText(topBefore);
  // The top row may change again while it is read: wait for what is asserted.
  await expect
    .poll(async () => INFORMATIONAL_AND_ABOVE.includes(await firstRow.locator('.log-level').innerText()))
    .toBe(true);

  // Show Raw Log Data from the active row's context menu: the record as JSON. New lines may
  // arrive meanwhile; the active row stays the row it was.
  await tabTo(page, grid, 80);
  await page.keyboard.press('Shift+F10');
  await expect(page.getByRole('menu')).toBeVisible();
  await page.keyboard.press('Home');
  await expect(page.getByRole('menuitem', { name: /Show Raw Log Data/ })).toHaveAttribute('data-focus', '');
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Raw Log Data' });
  const raw = dialog.locator('dd code').first();
  await expect(raw).toBeVisible();
  const json = JSON.parse(await raw.innerText());
  // Read in one step: a flush may move the active row to another index at any moment.
  const message = await grid.evaluate(
    (g) =>
      document.getElementById(g.getAttribute('aria-activedescendant') ?? '')?.querySelector('[role=gridcell]')
        ?.textContent ?? '',
  );
  expect(json.message).toBe(message);
  expect(json.serviceDisplayName).toBe('Island PvE');
  expect(json.messageId).toMatch(/^[0-9a-f-]{36}$/);
  // Said once, and its Copy whole inside the dialog.
  await expect(dialog.locator('dd code')).toHaveCount(1);
  const copy = (await dialog.getByRole('button', { name: 'Copy JSON' }).boundingBox())!;
  const box = (await dialog.boundingBox())!;
  expect(copy.x + copy.width).toBeLessThanOrEqual(box.x + box.width);
  expect(copy.width).toBeGreaterThan(30);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // Warning and above narrows the list to those levels only.
  const informational = await rowCount(view);
  await choose(page, level, 'Warning');
  await expect(level).toHaveValue('Warning+');
  await expect
    .poll(async () => {
      const n = await rowCount(view);
      const shown = await levels(grid);
      return n >= 0 && n < informational && shown.every((l) => WARNING_AND_ABOVE.includes(l));
    })
    .toBe(true);

  // nav.open takes the line's id to its own page.
  await palette(page, 'nav.open');
  await expect(page.getByRole('option', { name: /^Open…/ }).first()).toBeVisible();
  await page.keyboard.press('Enter');
  await page.keyboard.type(json.messageId);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/logs/${json.messageId}$`));
  await expect(pane(page).locator('h1')).toHaveText(message);
  await expect(pane(page).getByText('Island PvE')).toBeVisible();
});

test('the volume chart above the log list: bars by level, a range chosen by keyboard or dragged filters the list', async ({
  page,
}) => {
  await signIn(page);
  await palette(page, 'Island PvE');
  await expect(page.getByRole('option', { name: /Island PvE/ }).first()).toBeVisible();
  await page.keyboard.press('Enter');
  const view = pane(page).locator('.log-view');
  const chart = view.getByRole('figure', { name: 'Log lines over time' });
  const plot = chart.getByRole('group', { name: /arrows choose bars/ });
  await expect(plot.locator('canvas')).toBeVisible();
  const summary = chart.locator('figcaption');
  // The simulated server has been logging: bars, said in words.
  await expect(summary).toHaveText(/^[\d,]+ lines?(, .*)? in the last 24 hours\.$/);
  await expect(summary).not.toHaveText(/^0 lines/);
  const from = view.getByRole('textbox', { name: 'From' });
  const to = view.getByRole('textbox', { name: 'To' });
  await expect(from).toHaveValue('');

  // By keyboard: the last bar, widened by two to the left, then Enter.
  await tabTo(page, plot, 80);
  await page.keyboard.press('End');
  await page.keyboard.press('Shift+ArrowLeft');
  await page.keyboard.press('Shift+ArrowLeft');
  await expect(chart.locator('.log-volume-chosen')).toHaveText(
    /: [\d,]+ lines?.*\. Enter shows them in the list\.$/,
  );
  await page.keyboard.press('Enter');
  await expect(from).not.toHaveValue('');
  await expect(to).not.toHaveValue('');
  const start = new Date(await from.inputValue()).getTime();
  const end = new Date(await to.inputValue()).getTime();
  // Three 15-minute bars of the last 24 hours, to the minute the field shows.
  expect(end - start).toBeGreaterThanOrEqual(44 * 60_000);
  expect(end - start).toBeLessThanOrEqual(46 * 60_000);
  // The list holds that range only; the chart now shows it, with a way back.
  const grid = view.getByRole('grid', { name: 'Log messages' });
  const times = grid.locator('[role=gridcell][aria-colindex="2"]');
  await expect.poll(async () => (await times.allInnerTexts()).length).toBeGreaterThan(0);
  for (const t of await times.allInnerTexts()) {
    const at = new Date(t).getTime();
    expect(at).toBeGreaterThanOrEqual(start);
    expect(at).toBeLessThan(end + 60_000);
  }
  await expect(summary).toHaveText(/^[\d,]+ lines?(, .*)? from \w+ \d+, .+ to \w+ \d+, .+\.$/);
  const whole = chart.getByRole('button', { name: 'Whole range' });
  await expect(whole).toBeVisible();

  // By pointer: a drag across the middle of the narrowed chart narrows it again.
  const over = plot.locator('.u-over');
  const box = (await over.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  await expect.poll(async () => new Date(await from.inputValue()).getTime()).toBeGreaterThan(start);
  await expect.poll(async () => new Date(await to.inputValue()).getTime()).toBeLessThan(end);

  await tabTo(page, whole, 80);
  await page.keyboard.press('Enter');
  await expect(from).toHaveValue('');
  await expect(chart.getByRole('button', { name: '24h', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
});
