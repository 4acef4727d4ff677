import { expect, type Locator, type Page, test } from '@playwright/test';
import { apiOf, confirmWithEnter, serverId, signIn, tabTo } from './helpers.ts';

// The script creator, editor and tester, by keyboard, against the real server, its script engine
// and the simulator: a Simple chat script answers a player in game; a JavaScript event runs in
// the tester and its output shows.

const pane = (page: Page) => page.locator('[data-pane][data-active="true"]');

async function consoleLine(page: Page, line: string) {
  await page.keyboard.press('Control+Backquote');
  await expect(page.locator('[data-testid="terminal"] textarea')).toBeFocused();
  await page.keyboard.type(line);
  await page.keyboard.press('Enter');
}

async function runFromPalette(page: Page, title: string) {
  await page.keyboard.press('Control+k');
  await expect(page.getByRole('combobox', { name: /command palette/i })).toBeFocused();
  await page.keyboard.type(title);
  await expect(page.getByRole('option', { name: new RegExp(title) }).first()).toBeVisible();
  await page.keyboard.press('Enter');
}

/**
 * Tab until the target has focus, leaving code editors as their convention says: Escape, then Tab
 * (in a code editor Tab indents).
 */
async function tabPastCode(page: Page, target: Locator, max = 80) {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    const inCode = await page.evaluate(() => {
      const a = document.activeElement as HTMLElement | null;
      return a?.tagName === 'TEXTAREA' || a?.isContentEditable === true;
    });
    if (inCode) await page.keyboard.press('Escape');
    await page.keyboard.press('Tab');
  }
  throw new Error('Could not reach the element with Tab');
}

/** Shift+Tab until the target has focus (the editor's toolbar is above its first field). */
async function shiftTabTo(page: Page, target: Locator, max = 10) {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press('Shift+Tab');
  }
  throw new Error('Could not reach the element with Shift+Tab');
}

/** Enter on the list's active row opens its form; focus lands on the form's first field. */
async function openRowForm(page: Page, list: string) {
  await tabTo(page, pane(page).getByRole('grid', { name: list }), 80);
  await page.keyboard.press('Enter');
}

test('a Simple script answers !rules in game: made by keyboard, attached, a player types it', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page);
  const name = `Rules ${Date.now()}`;
  // The palette asks for the name; the creator opens with it, focus in its first field.
  await runFromPalette(page, 'New script');
  await page.keyboard.type(name);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/scripts\/add\?name=/);
  await expect(pane(page).getByLabel('Name')).toBeFocused();
  await expect(pane(page).getByLabel('Name')).toHaveValue(name);

  // The one event is chat, in Simple: a condition on the message, then an action.
  await openRowForm(page, 'Events and features');
  await expect(pane(page).getByLabel('Context')).toBeFocused();
  await expect(pane(page).getByLabel('Context')).toHaveValue('chat');
  await tabTo(page, pane(page).getByRole('button', { name: 'Add condition' }), 80);
  await page.keyboard.press('Enter');
  await expect(pane(page).getByLabel('Field', { exact: true })).toBeFocused();
  await expect(pane(page).getByLabel('Field', { exact: true })).toHaveValue('message');
  await expect(pane(page).getByLabel('Operator')).toHaveValue('contains');
  await tabTo(page, pane(page).getByLabel('Value', { exact: true }));
  await page.keyboard.type('!rules');
  await expect(
    pane(page)
      .getByRole('grid', { name: 'Conditions' })
      .getByRole('row', { name: /Message.*contains.*!rules/ }),
  ).toBeVisible();

  await tabTo(page, pane(page).getByRole('button', { name: 'Add action' }), 80);
  await page.keyboard.press('Enter');
  await expect(pane(page).getByLabel('Action', { exact: true })).toBeFocused();
  await expect(pane(page).getByLabel('Action', { exact: true })).toHaveValue('sendChat');
  // Saved too soon: refused beside the actions, every edit kept.
  await page.keyboard.press('Control+s');
  await expect(
    pane(page).getByRole('alert').filter({ hasText: 'Action 1: Send chat needs message.' }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/scripts\/add/);
  await expect(
    pane(page)
      .getByRole('grid', { name: 'Conditions' })
      .getByRole('row', { name: /Message.*contains.*!rules/ }),
  ).toBeVisible();
  await tabTo(page, pane(page).getByLabel('Message (required)'));
  await page.keyboard.type('Rules for ');
  // The placeholder inserter puts the field at the cursor and returns there; the engine fills it in.
  await page.keyboard.press('Tab');
  await expect(pane(page).getByLabel('Insert field').first()).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(pane(page).getByLabel('Message (required)')).toBeFocused();
  await expect(pane(page).getByLabel('Message (required)')).toHaveValue('Rules for {serviceId}');
  // Another field than the first: the name of the player who asked.
  for (const _ of 'serviceId}') await page.keyboard.press('Backspace');
  await page.keyboard.type('playerName}: be kind, no griefing.');
  await expect(
    pane(page)
      .getByRole('grid', { name: 'Actions' })
      .getByRole('row', { name: /Send chat.*be kind/ }),
  ).toBeVisible();

  await page.keyboard.press('Control+s');
  await expect(pane(page).getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page).toHaveURL(/\/scripts\/[0-9a-f-]{36}$/);
  const scriptId = page.url().split('/').pop()!;
  await expect(pane(page).getByText('Saved', { exact: true })).toBeVisible();

  // Attaching is the Scripts section's (its own tests); the scene is set through the API.
  const api = await apiOf(page);
  const serviceId = await serverId(api, 'Island PvE');
  await api('POST', '/sentinel/serviceScripts', { serviceId, scriptId, parameterValues: {} });

  // A player of the simulated server types !rules; the script answers in the server's chat.
  await page.goto(`/servers/${serviceId}/chat`);
  const chat = page.getByRole('grid', { name: 'Chat of Island PvE' });
  await expect(chat).toBeVisible();
  await consoleLine(page, 'run "Island PvE" simtype !rules');
  await expect(chat.getByRole('row', { name: /!rules/ }).first()).toBeVisible({ timeout: 20_000 });
  await expect(chat.getByRole('row', { name: /be kind, no griefing/ }).first()).toBeVisible({
    timeout: 30_000,
  });
});

test('a JavaScript event runs in the tester with a parameter value; its output and actions show', async ({
  page,
}) => {
  await signIn(page);
  await runFromPalette(page, 'New script');
  await page.keyboard.type(`Greeter ${Date.now()}`);
  await page.keyboard.press('Enter');
  await expect(pane(page).getByLabel('Name')).toBeFocused();

  // A parameter (Name, Type, Default).
  await tabTo(page, pane(page).getByRole('button', { name: 'Add parameter' }), 80);
  await page.keyboard.press('Enter');
  await expect(pane(page).getByLabel('Name', { exact: true }).last()).toBeFocused();
  await page.keyboard.press('Control+a');
  await page.keyboard.type('greeting');
  await page.keyboard.press('Tab');
  await expect(pane(page).getByLabel('Type', { exact: true })).toHaveValue('String');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Hello');
  await expect(
    pane(page)
      .getByRole('grid', { name: 'Parameters' })
      .getByRole('row', { name: /greeting.*String.*Hello/ }),
  ).toBeVisible();

  // The event in JavaScript.
  await openRowForm(page, 'Events and features');
  await expect(pane(page).getByLabel('Context')).toBeFocused();
  await tabTo(page, pane(page).getByRole('radio', { name: 'Simple' }));
  await page.keyboard.press('ArrowRight');
  await expect(pane(page).getByRole('radio', { name: 'JavaScript' })).toBeChecked();
  await page.keyboard.press('Tab');
  // The code editor (CodeMirror's editable content, or a text area) has focus.
  await expect
    .poll(() =>
      page.evaluate(() => {
        const a = document.activeElement as HTMLElement | null;
        return a?.tagName === 'TEXTAREA' || a?.isContentEditable === true;
      }),
    )
    .toBe(true);
  await page.keyboard.type(
    "beacon.log(beacon.params.greeting + ', ' + beacon.eventData.playerName); beacon.sendChat('hi');",
  );

  // Leaving for another section and coming back loses nothing: the draft is kept.
  await runFromPalette(page, 'Go to Servers');
  await expect(page).toHaveURL(/\/servers$/);
  await page.keyboard.press('Alt+ArrowLeft');
  await expect(pane(page).getByText('Unsaved changes from your last visit are restored.')).toBeVisible();
  await expect(
    pane(page)
      .getByRole('grid', { name: 'Events and features' })
      .getByRole('row', { name: /chat.*JavaScript/ }),
  ).toBeVisible();
  await expect(pane(page).getByText("beacon.sendChat('hi');")).toBeVisible();

  // The tester runs the draft as it stands, with the value given for the parameter.
  const tester = pane(page).getByRole('region', { name: 'Tester' });
  await tabPastCode(page, tester.getByLabel('Parameter greeting'));
  await page.keyboard.press('Control+a');
  await page.keyboard.type('Howdy');
  await tabTo(page, tester.getByRole('button', { name: 'Run test' }));
  await page.keyboard.press('Enter');
  await expect(tester.getByText('Outcome: Success')).toBeVisible({ timeout: 70_000 });
  await expect(tester.locator('pre')).toHaveText('Howdy, Test Player');
  await expect(tester.getByRole('listitem')).toHaveText('Send chat: Message: hi');
});

test('duplicate, export and delete from the editor toolbar, by keyboard', async ({ page }) => {
  await signIn(page);
  const api = await apiOf(page);
  const name = `Toolbar ${Date.now()}`;
  const made = await api<{ created: { scriptId: string }[] }>('POST', '/sentinel/scripts', {
    name,
    events: [{ language: 'JavaScript', context: 'chat', code: 'beacon.log(1);' }],
  });
  await page.goto(`/scripts/${made.created[0].scriptId}`);
  await expect(pane(page).locator('#script-name')).toBeFocused();

  // Export saves the file the importer reads.
  const download = page.waitForEvent('download');
  await shiftTabTo(page, pane(page).getByRole('button', { name: 'Export script' }));
  await page.keyboard.press('Enter');
  const file = await download;
  expect(file.suggestedFilename()).toBe(`${name.replace(' ', '-')}.json`);

  // A copy under a free name opens in the editor.
  await shiftTabTo(page, pane(page).getByRole('button', { name: 'Duplicate script' }));
  await page.keyboard.press('Enter');
  await expect(pane(page).getByRole('heading', { level: 1, name: `${name} (2)` })).toBeVisible();
  const copyUrl = page.url();
  expect(copyUrl).not.toContain(made.created[0].scriptId);

  // Deleting asks first, then returns to the library.
  await expect(pane(page).locator('#script-name')).toBeFocused();
  await shiftTabTo(page, pane(page).getByRole('button', { name: 'Delete script' }));
  await page.keyboard.press('Enter');
  await confirmWithEnter(page, 'Delete script');
  await expect(page).toHaveURL(/\/scripts$/);
  const mine = await api<{ results: { name: string }[] }>(
    'GET',
    `/sentinel/scripts?name=${encodeURIComponent(name)}`,
  );
  expect(mine.results.map((s) => s.name)).toEqual([name]);
});
