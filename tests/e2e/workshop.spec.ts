import { type Browser, expect, type Page, test } from '@playwright/test';
import { WorkshopMsg } from '../../src/domain/workshop.ts';
import { apiOf, type Call, confirmWithEnter, type Page_, serverId, signIn, tabTo } from './helpers.ts';

// The script library and the Workshop by keyboard only (issue 15): the admin shares a script from
// the library's row menu; the moderator, in a browser of their own, finds it in the Workshop tab,
// likes it and makes a copy, which shows in their library. The admin then attaches it to a server
// from its Workshop preview with the Add to Server dialog (a second time is a duplicate), and runs
// it from the server's script runner menu.

const MODERATOR = 'moderator@palisade.local';
const RUN = Date.now() % 100000;
const NAME = `Rules bot ${RUN}`;
const MENU_TEXT = `Rules ${RUN}`;

const pane = (page: Page) => page.locator('[data-pane][data-active="true"]');

/** `g` then a letter: the section's list has focus. */
async function go(page: Page, letter: string, list: string) {
  await page.keyboard.press('g');
  await page.keyboard.press(letter);
  await expect(pane(page).getByRole('grid', { name: list })).toBeFocused();
}

/** Filters the focused list to one row by `/`, and goes back to the list on it. */
async function filterTo(page: Page, list: string, text: string) {
  const rows = pane(page).getByRole('grid', { name: list }).getByRole('row');
  await page.keyboard.press('/');
  await page.keyboard.type(text);
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText(text);
  await page.keyboard.press('Enter');
  await expect(pane(page).getByRole('grid', { name: list })).toBeFocused();
}

/** The row menu (Shift+F10), then the item by arrows. */
async function rowMenu(page: Page, item: string) {
  await page.keyboard.press('Shift+F10');
  await expect(page.getByRole('menu')).toBeVisible();
  await page.keyboard.press('Home');
  const target = page.getByRole('menuitem', { name: new RegExp(`^${item}`) });
  for (let i = 0; i < 12 && (await target.getAttribute('data-focus')) === null; i++)
    await page.keyboard.press('ArrowDown');
  await expect(target).toHaveAttribute('data-focus', '');
  await page.keyboard.press('Enter');
}

async function pressButton(page: Page, name: string) {
  await tabTo(page, pane(page).getByRole('button', { name, exact: true }), 80);
  await page.keyboard.press('Enter');
}

async function signInAs(browser: Browser, email: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, '/servers', email);
  return page;
}

let api: Call;
let scriptId: string;

test.beforeEach(async ({ page }) => {
  await signIn(page);
  api = await apiOf(page);
  if (scriptId) return;
  const made = await api<{ created: { scriptId: string }[] }>('POST', '/sentinel/scripts', {
    name: NAME,
    preview: 'Tells players the rules',
    description: 'Answers with the rules of the server.\nLine two <b>is not bold</b>.',
    parameters: [{ name: 'rules', type: 'String', default: 'Be nice' }],
    events: [
      { language: 'Simple', context: 'serviceScriptRun', code: '{}', keyword: MENU_TEXT, arguments: [] },
    ],
  });
  scriptId = made.created[0].scriptId;
});

test('a shared script is found in the Workshop, liked and copied by the moderator', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  // The admin shares it from the library's row menu.
  await go(page, 'x', 'Library');
  await filterTo(page, 'Library', NAME);
  await rowMenu(page, 'Add to Workshop');
  await expect(page.getByText(`${NAME} is in the Workshop.`, { exact: false })).toBeVisible();
  await expect(pane(page).getByRole('grid', { name: 'Library' }).getByRole('row').nth(1)).toContainText(
    'In the Workshop',
  );

  // The moderator finds it in the Workshop tab and opens its preview.
  const moderator = await signInAs(browser, MODERATOR);
  await go(moderator, 'w', 'Workshop');
  await filterTo(moderator, 'Workshop', NAME);
  await moderator.keyboard.press('Enter');
  await expect(pane(moderator).getByRole('heading', { name: NAME })).toBeVisible();
  // Its description is text, never markup; its versions are listed and have focus.
  await expect(pane(moderator).getByText('Line two <b>is not bold</b>.', { exact: false })).toBeVisible();
  await expect(pane(moderator).getByRole('grid', { name: 'Versions' })).toBeFocused();
  await expect(pane(moderator).getByRole('grid', { name: 'Versions' }).getByRole('row')).toHaveCount(2);
  await expect(pane(moderator).getByText(WorkshopMsg.licence)).toBeVisible();

  await pressButton(moderator, 'Like');
  await expect(moderator.getByText(`You like ${NAME}.`)).toBeVisible();
  const facts = pane(moderator).locator('dl.facts');
  await expect(facts).toContainText('Likes1 of 1');
  await expect(facts).toContainText('You like itYes');

  await pressButton(moderator, 'Make a Copy');
  await expect(moderator.getByText(`${NAME} (copy) is in your library.`, { exact: false })).toBeVisible();
  const library = pane(moderator).getByRole('grid', { name: 'Library' });
  await expect(library.getByRole('row', { name: new RegExp(`${NAME} \\(copy\\)`) })).toBeVisible();
  await moderator.context().close();
});

test('Add to Server attaches a Workshop script in manual update mode; the runner menu runs it', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await api('POST', `/sentinel/scripts/${scriptId}/publish`);
  await go(page, 'w', 'Workshop');
  await filterTo(page, 'Workshop', NAME);
  await page.keyboard.press('Enter');
  await expect(pane(page).getByRole('heading', { name: NAME })).toBeVisible();
  // The author may take it out of the Workshop; the attach notice says what attaching does.
  await expect(pane(page).getByRole('button', { name: 'Remove from Workshop' })).toBeVisible();
  await expect(pane(page).getByRole('note')).toContainText('Manual updates (recommended)');

  await pressButton(page, 'Add to Server');
  const form = page.getByRole('dialog', { name: 'Add to Server' });
  await expect(form.locator('[data-arg="script"] input')).toHaveValue(NAME);
  // Nothing is wrong before anything is typed, and Version waits for the locked mode.
  await expect(form.locator('.argform-error')).toHaveCount(0);
  await expect(form.locator('[data-arg="version"]')).toHaveCount(0);
  await tabTo(page, form.locator('[data-arg="target"] input'));
  await page.keyboard.type('Island PvE');
  await tabTo(page, form.locator('[data-arg="parameters"] input'));
  await page.keyboard.type('rules="No griefing, please"');
  await page.keyboard.press('Control+Enter');
  await expect(
    page.getByText(`${NAME} is attached to Island PvE, on version`, { exact: false }),
  ).toBeVisible();

  const island = await serverId(api, 'Island PvE');
  const { revisions } = await api<{ revisions: { revisionId: string }[] }>(
    'GET',
    `/sentinel/scripts/${scriptId}/revisions`,
  );
  const attached = await api<Page_<{ revisionId: string; parameterValues: unknown }>>(
    'GET',
    `/sentinel/serviceScripts?serviceId=${island}&scriptId=${scriptId}`,
  );
  expect(attached.results).toEqual([
    expect.objectContaining({
      revisionId: revisions[0].revisionId,
      parameterValues: { rules: 'No griefing, please' },
    }),
  ]);

  // The same again is a duplicate: said in the form, what was typed kept.
  await pressButton(page, 'Add to Server');
  await tabTo(page, form.locator('[data-arg="target"] input'));
  await page.keyboard.type('Island PvE');
  await tabTo(page, form.locator('[data-arg="parameters"] input'));
  await page.keyboard.type('rules="No griefing, please"');
  await page.keyboard.press('Control+Enter');
  await expect(form).toContainText('This script is already attached there with the same parameter values.');
  await expect(form.locator('[data-arg="parameters"] input')).toHaveValue('rules="No griefing, please"');
  await page.keyboard.press('Escape');
  await expect(form).toBeHidden();

  // The server's toolbar opens the script runner menu, with its notice; Enter runs the script.
  await go(page, 's', 'Servers');
  await filterTo(page, 'Servers', 'Island PvE');
  await page.keyboard.press('Enter');
  await pressButton(page, 'Run Script');
  const runner = page.getByRole('dialog', { name: 'Run Script on Island PvE' });
  await expect(runner).toContainText('Menu-item scripts must be attached to a server or group to appear.');
  const menu = runner.getByRole('grid');
  await expect(menu.getByRole('row', { name: new RegExp(MENU_TEXT) })).toBeVisible();
  await tabTo(page, menu);
  await page.keyboard.press('/');
  await page.keyboard.type(MENU_TEXT);
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await expect(page.getByText(`${MENU_TEXT} is running on Island PvE.`)).toBeVisible();
});

test("a new version of another user's script waits for the admin, who reads what changed, then accepts it", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  // The moderator shares a script; the admin keeps it updated on Island PvE; the moderator changes it.
  const moderator = await signInAs(browser, MODERATOR);
  const author = await apiOf(moderator);
  const name = `Greeter ${RUN}`;
  const event = (text: string) => ({
    language: 'JavaScript',
    context: 'chat',
    code: `if (beacon.eventData.message === 'hello greeter') beacon.sendChat('${text}');`,
  });
  const made = await author<{ created: { scriptId: string }[] }>('POST', '/sentinel/scripts', {
    name,
    events: [event('Hi there')],
  });
  const greeter = made.created[0].scriptId;
  await author('POST', `/sentinel/scripts/${greeter}/publish`);
  const island = await serverId(api, 'Island PvE');
  await api('POST', '/sentinel/serviceScripts', {
    serviceId: island,
    scriptId: greeter,
    parameterValues: {},
  });
  await author('PATCH', `/sentinel/scripts/${greeter}`, { events: [event('Welcome, new friend')] });
  await moderator.context().close();

  // The server's Scripts tab says a version waits.
  await page.goto(`/servers/${island}/scripts`);
  await expect(pane(page).getByRole('grid', { name: 'Scripts' })).toBeFocused();
  await filterTo(page, 'Scripts', name);
  const row = pane(page).getByRole('grid', { name: 'Scripts' }).getByRole('row').nth(1);
  await expect(row).toContainText('waits for your accept');

  // What changed, before accepting: the line taken out and the line put in.
  await rowMenu(page, 'Show script update');
  const changes = page.getByRole('dialog', { name: 'Show script update' });
  await expect(changes).toContainText(
    "-if (beacon.eventData.message === 'hello greeter') beacon.sendChat('Hi there');",
  );
  await expect(changes).toContainText(
    "+if (beacon.eventData.message === 'hello greeter') beacon.sendChat('Welcome, new friend');",
  );
  await page.keyboard.press('Escape');
  await expect(changes).toBeHidden();

  await rowMenu(page, 'Accept script update');
  await confirmWithEnter(page, /Accept script update/);
  await expect(page.getByText(/^Island PvE now runs version/)).toBeVisible();
  await expect(row).not.toContainText('waits for your accept');
  await expect(row).toContainText('Keep updated');
});
