import { expect, type Page, test } from '@playwright/test';
import { apiOf, type Call, type Page_, serverId, signIn, tabTo } from './helpers.ts';

// Give Item and the Custom Dino Creator, by keyboard, against the real server and the simulator:
// what is given comes back from the game as the survivor's itemGiven or dinoCreated log line.

interface Survivor {
  characterId: string;
  characterName: string;
  playerName: string;
}

interface Log {
  eventName: string;
  message: string;
  metadata: Record<string, unknown>;
}

const pane = (page: Page) => page.locator('[data-pane][data-active="true"]');

/** Survivors of the server whose names are plain and theirs alone, so they read back unambiguously. */
async function survivors(api: Call, serviceId: string, count: number): Promise<Survivor[]> {
  let found: Survivor[] = [];
  await expect
    .poll(
      async () => {
        const page = await api<Page_<Survivor>>(
          'GET',
          `/sentinel/characters?serviceId=${serviceId}&pageSize=250`,
        );
        const names = page.results.map((s) => s.characterName);
        found = page.results.filter(
          (s) =>
            /^[A-Za-z][A-Za-z ]+$/.test(s.characterName) &&
            names.filter((n) => n === s.characterName).length === 1,
        );
        return found.length >= count;
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  return found.slice(0, count);
}

/** The survivor's log lines of one event, as its log tab reads them. */
const logsOf = async (api: Call, characterId: string, eventName: string) =>
  (
    await api<Page_<Log>>('GET', `/sentinel/logMessages?characterId=${characterId}&pageSize=100`)
  ).results.filter((l) => l.eventName === eventName);

async function palette(page: Page, text: string) {
  await page.keyboard.press('Control+k');
  await expect(page.getByRole('combobox', { name: /command palette/i })).toBeFocused();
  await page.keyboard.type(text);
}

test('give an item picked from the picker to two survivors; the game logs itemGiven for each', async ({
  page,
}) => {
  await signIn(page);
  const api = await apiOf(page);
  const island = await serverId(api, 'Island PvE');
  const [a, b] = await survivors(api, island, 2);

  // The server's survivors: mark both (the list is sorted by name), then their context menu.
  await palette(page, 'Island PvE');
  await expect(page.getByRole('option', { name: /Island PvE/ }).first()).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(pane(page).locator('h1')).toContainText('Island PvE');
  const tab = page
    .getByRole('navigation', { name: 'Server tabs' })
    .getByRole('link', { name: 'Survivors', exact: true });
  await tabTo(page, tab, 80);
  await page.keyboard.press('Enter');
  const grid = page.getByRole('grid', { name: 'Survivors' });
  await expect(grid.getByRole('row').nth(1)).toBeVisible();
  await expect(grid).toBeFocused();
  // The list filters on the server: each name's one row is marked once it alone is listed.
  const rows = grid.getByRole('row');
  for (const [i, name] of [a.characterName, b.characterName].entries()) {
    await page.keyboard.press('/');
    if (i > 0) await page.keyboard.press('Control+a');
    await page.keyboard.type(name);
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(1)).toContainText(name);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Space');
  }
  // The whole list again, both still marked: the menu acts on the marked rows.
  await page.keyboard.press('/');
  await page.keyboard.press('Control+a');
  await page.keyboard.press('Backspace');
  await expect(rows).not.toHaveCount(2);
  await page.keyboard.press('Enter');
  await page.keyboard.press('Shift+F10');
  await expect(page.getByRole('menu')).toBeVisible();
  await page.keyboard.press('Home');
  await expect(page.getByRole('menuitem', { name: /Give item/ })).toHaveAttribute('data-focus', '');
  await page.keyboard.press('Enter');

  // The Give Item form, both survivors filled in; the item is chosen in the picker.
  const form = page.getByRole('form', { name: 'Give item' });
  await expect(form).toBeVisible();
  const survivorsField = form.locator('[data-arg="survivors"] input');
  await expect(survivorsField).toHaveValue(new RegExp(a.characterName));
  await expect(survivorsField).toHaveValue(new RegExp(b.characterName));
  await tabTo(page, form.getByRole('button', { name: 'Choose item path…' }));
  await page.keyboard.press('Enter');
  const search = page.getByRole('searchbox', { name: 'Search' });
  await expect(search).toBeFocused();
  await page.keyboard.type('PrimalItemResource_MetalIngot');
  const items = page.getByRole('grid', { name: 'Items' });
  await expect(items.getByRole('row', { name: /Metal Ingot/ })).toHaveCount(1);
  await page.keyboard.press('ArrowDown');
  await expect(items).toBeFocused();
  await page.keyboard.press('Enter');
  const path =
    '/Game/PrimalEarth/CoreBlueprints/Resources/PrimalItemResource_MetalIngot.PrimalItemResource_MetalIngot';
  await expect(form.locator('[data-arg="item"] input')).toHaveValue(path);

  // A quantity over the limit is refused in place and nothing is lost; then 7 are given.
  await tabTo(page, form.locator('[data-arg="quantity"] input'));
  await page.keyboard.press('Control+a');
  await page.keyboard.type('100000');
  await page.keyboard.press('Control+Enter');
  await expect(form.locator('[data-arg="quantity"]')).toContainText(
    'Quantity must be a whole number from 1 to 99999.',
  );
  await expect(form.locator('[data-arg="item"] input')).toHaveValue(path);
  await page.keyboard.press('Control+a');
  await page.keyboard.type('7');
  await page.keyboard.press('Control+Enter');
  await expect(page.getByText('Item given to 2 survivors.', { exact: false })).toBeVisible();

  for (const s of [a, b])
    await expect
      .poll(async () => (await logsOf(api, s.characterId, 'itemGiven')).map((l) => l.message), {
        timeout: 20_000,
      })
      .toContain(`${s.playerName} received 7 × Metal Ingot`);
});

test('a custom dino with three colours: a trait over its cap is refused, then it is created', async ({
  page,
}) => {
  // A long form walked by Tab on a shared machine.
  test.setTimeout(90_000);
  await signIn(page);
  const api = await apiOf(page);
  const island = await serverId(api, 'Island PvE');
  const [to] = await survivors(api, island, 1);

  // From the palette: the creator, for the survivor named.
  await palette(page, 'Custom dino creator');
  await page.keyboard.press('Enter');
  await page.keyboard.type(to.characterId);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/dinos\/add/);
  const form = page.getByRole('form', { name: 'Custom dino creator' });
  const survivorsField = form.locator('[data-arg="survivors"] input');
  await expect(survivorsField).toBeFocused();
  await expect(survivorsField).toHaveValue(to.characterName);

  // Species from the picker.
  await tabTo(page, form.getByRole('button', { name: 'Choose species…' }));
  await page.keyboard.press('Enter');
  await page.keyboard.type('Rex_Character_BP.Rex_Character_BP');
  const species = page.getByRole('grid', { name: 'Species' });
  await expect(species.getByRole('row', { name: /Rex/ })).toHaveCount(1);
  await page.keyboard.press('Enter');
  await expect(species).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(form.locator('[data-arg="species"] input')).toHaveValue(
    '/Game/PrimalEarth/Dinos/Rex/Rex_Character_BP.Rex_Character_BP',
  );

  await tabTo(page, form.locator('[data-arg="name"] input'));
  await page.keyboard.type('Gift Rex');
  await page.keyboard.press('Tab');
  await page.keyboard.type('30');
  // Points beyond the level are refused with the remaining points shown.
  await tabTo(page, form.getByRole('textbox', { name: 'Health' }));
  await page.keyboard.type('20');
  await tabTo(page, form.getByRole('textbox', { name: 'Melee' }));
  await page.keyboard.type('10');
  await expect(form.getByText('-1 points remaining', { exact: false })).toBeVisible();
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await page.keyboard.type('9');
  await expect(form.getByText('0 points remaining', { exact: false })).toBeVisible();

  // Three colour regions: one picked from the list, one natural, one random.
  await tabTo(page, form.getByRole('button', { name: 'Pick Region 1 colour' }));
  await page.keyboard.press('Enter');
  const colours = page.getByRole('grid', { name: 'Colours' });
  await expect(colours.getByRole('row', { name: /Red/ }).first()).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await expect(colours).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(form.locator('[data-region="1"]')).toContainText('Blue (2)');
  await tabTo(page, form.getByRole('button', { name: 'Pick Natural Colors for Region 2' }));
  await page.keyboard.press('Enter');
  await tabTo(page, form.getByRole('button', { name: 'Pick Random Colors for Region 3' }));
  await page.keyboard.press('Enter');
  for (const region of [1, 2, 3])
    await expect(form.locator(`[data-region="${region}"]`)).not.toContainText('game decides');

  // Frail may be added once: the second is refused with the spec's message.
  await tabTo(page, form.getByRole('combobox', { name: 'Search traits' }));
  await page.keyboard.type('Frail');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await expect(form.getByRole('alert')).toHaveText('You cannot add any more Frail traits.');
  await expect(form.getByRole('list', { name: 'Traits added' }).getByRole('listitem')).toHaveCount(1);

  await page.keyboard.press('Control+Enter');
  await expect(page.getByText('Dino given to 1 survivor.', { exact: false })).toBeVisible();
  const created = await expect
    .poll(
      async () =>
        (await logsOf(api, to.characterId, 'dinoCreated')).filter((l) => l.metadata.name === 'Gift Rex'),
      {
        timeout: 20_000,
      },
    )
    .toHaveLength(1)
    .then(
      async () =>
        (await logsOf(api, to.characterId, 'dinoCreated')).find((l) => l.metadata.name === 'Gift Rex')!,
    );
  expect(created.metadata).toMatchObject({ level: 30, stats: { 0: 20, 8: 9 }, traits: ['Frail'] });
  const colors = created.metadata.colors as number[];
  expect(colors.slice(0, 3).every((c) => c > 0)).toBe(true);
  expect(colors.slice(3)).toEqual([0, 0, 0]);
});
