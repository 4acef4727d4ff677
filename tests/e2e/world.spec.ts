import { expect, type Locator, type Page, test } from '@playwright/test';
import { apiOf, type Call, confirmWithEnter, type Page_, serverId, signIn, tabTo } from './helpers.ts';

// Survivors, tribes and dinos, by keyboard, against the real server and the simulator: locate,
// revive, delete and see it come back, teleport. The API only sets the scene: it finds a dino or
// survivor in the state a test needs, and asks the game for an event that names a tribe.

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

interface DinoRow {
  dinoId: string;
  dinoDisplayName: string;
  dinoStatus: string;
  dinoRestoreEligible: boolean;
  serviceId: string;
}
interface SurvivorRow {
  characterId: string;
  characterName: string;
  specimenId: number;
  tribeId: string | null;
  tribeName: string | null;
  serviceId: string;
}

const pane = (page: Page) => page.locator('[data-pane][data-active="true"]');

/** Waits until the API lists a row the test can use. */
async function findRow<T>(api: Call, path: string, ok: (r: T) => boolean, timeout = 30_000): Promise<T> {
  let found: T | undefined;
  await expect
    .poll(
      async () => {
        found = (await api<Page_<T>>('GET', path)).results.find(ok);
        return found !== undefined;
      },
      { timeout },
    )
    .toBe(true);
  return found!;
}

/** Kicks every online member of a tribe off the server (an admin command to the game). */
async function kickMembers(api: Call, serviceId: string, tribeId: string) {
  const members = await api<Page_<{ playerId: string }>>('GET', `/sentinel/characters?tribeId=${tribeId}`);
  for (const m of members.results) {
    const ids = await api<Page_<{ provider: string; identifier: string }>>(
      'GET',
      `/sentinel/playerIdentifiers?playerId=${m.playerId}`,
    );
    for (const id of ids.results.filter((i) => i.provider === 'EOS'))
      await api('POST', '/sentinel/gameCommands', {
        type: 'admin',
        serviceId,
        command: `kickplayer ${id.identifier}`,
      });
  }
}

/** Types a line into the console pane, then hides it, leaving focus in the page. */
async function consoleLine(page: Page, line: string) {
  await page.keyboard.press('Backquote');
  const prompt = page.locator('[data-testid="terminal"] textarea');
  await expect(prompt).toBeFocused();
  await page.keyboard.type(line);
  await page.keyboard.press('Enter');
  await page.keyboard.press('Control+Backquote');
}

/** Moves down an open menu until the item has focus. */
async function arrowTo(page: Page, item: Locator) {
  for (let i = 0; i < 20; i++) {
    if (await item.evaluate((el) => el === document.activeElement || el.getAttribute('data-focus') !== null))
      return;
    await page.keyboard.press('ArrowDown');
  }
  throw new Error('The menu item was not reached');
}

/** Presses the button of the page's toolbar by keyboard. */
async function toolbarButton(page: Page, name: string) {
  await tabTo(page, pane(page).getByRole('toolbar').getByRole('button', { name }), 80);
  await page.keyboard.press('Enter');
}

/** Tries before giving up: each is spoilt only by the dino leaving the world first. */
const LOCATE_TRIES = 5;

test('locate a dino from its page and copy SetPlayerPos', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page);
  const api = await apiOf(page);
  const island = await serverId(api, 'Island PvE');
  // The simulated dinos die, freeze and upload: one may leave the world between being found here
  // and being located, which the console then says ("assumed dead"), truly. That try is checked
  // (the server learns its new status from the game) and another dino taken.
  const tried = new Set<string>();
  for (let tries = 1; ; tries++) {
    const dino = await findRow<DinoRow>(
      api,
      `/sentinel/dinos?serviceId=${island}&dinoStatus=Deployed&pageSize=50`,
      (d) => !tried.has(d.dinoId),
    );
    tried.add(dino.dinoId);

    await consoleLine(page, `dino.open ${dino.dinoId}`);
    // The page names the dino as the server has it now: the simulator may have renamed it meanwhile.
    const heading = pane(page).locator('h1');
    await expect
      .poll(async () => {
        const now = await api<DinoRow>('GET', `/sentinel/dinos/${dino.dinoId}`);
        return (await heading.textContent()) === now.dinoDisplayName;
      })
      .toBe(true);
    await expect(pane(page).getByText('Dino level and age may lag behind the game.')).toBeVisible();
    const label = (await heading.textContent()) ?? '';
    await toolbarButton(page, 'Locate dino');
    const toast = page.getByText(/found: SetPlayerPos -?\d+\.\d\d -?\d+\.\d\d -?\d+\.\d\d/);
    const gone = page
      .getByRole('status')
      .filter({ hasText: `${label} was not found on its server; it is assumed dead.` });
    await expect(toast.or(gone)).toBeVisible();
    if (await toast.isVisible()) {
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      expect(copied).toMatch(/^SetPlayerPos -?\d+\.\d\d -?\d+\.\d\d -?\d+\.\d\d$/);
      expect(await toast.textContent()).toContain(copied);
      return;
    }
    // It did leave the world: the game tells the server its status.
    await expect
      .poll(async () => (await api<DinoRow>('GET', `/sentinel/dinos/${dino.dinoId}`)).dinoStatus, {
        timeout: 30_000,
      })
      .not.toBe('Deployed');
    expect(tries, `every dino of ${LOCATE_TRIES} left the world before being located`).toBeLessThan(
      LOCATE_TRIES,
    );
  }
});

test('revive a dead dino into the inventory of a survivor chosen in the Revive dialog', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page);
  const api = await apiOf(page);
  // Any server's: the simulator decides when a dino that has a backup dies, and on one server a
  // minute sometimes passed without one.
  const dead = await findRow<DinoRow & { tribeId: string | null }>(
    api,
    '/sentinel/dinos?dinoStatus=Dead&pageSize=250',
    (d) => d.dinoRestoreEligible,
    80_000,
  );
  // The simulator's own scripts restore a dead dino for a member of its tribe who is online: the
  // members are kicked, so it stays dead while the test revives it.
  if (dead.tribeId) await kickMembers(api, dead.serviceId, dead.tribeId);

  await consoleLine(page, `dino.open ${dead.dinoId}`);
  await expect(pane(page).locator('h1')).toHaveText(dead.dinoDisplayName);
  await toolbarButton(page, 'Revive dino');
  const dialog = page.getByRole('dialog', { name: /Revive .* into a survivor's inventory/ });
  const grid = dialog.getByRole('grid');
  await expect(grid.getByRole('columnheader', { name: 'Name' })).toBeVisible();
  await expect(grid.getByRole('columnheader', { name: 'Tribe' })).toBeVisible();
  await expect(grid.getByRole('row').nth(1)).toBeVisible();
  await tabTo(page, grid);
  const chosen = (await grid.getByRole('row').nth(1).getByRole('gridcell').first().textContent()) ?? '';
  await page.keyboard.press('Enter');
  await expect(page.getByText(`was revived into a cryopod in ${chosen}'s inventory.`)).toBeVisible();
  // The game reported it (dinoRestored): the dino is deployed again.
  await expect
    .poll(async () => (await api<DinoRow>('GET', `/sentinel/dinos/${dead.dinoId}`)).dinoStatus)
    .toBe('Deployed');
});

test('delete a tribe from the list; it comes back when the simulator reports it', async ({ page }) => {
  test.setTimeout(60_000);
  await signIn(page);
  const api = await apiOf(page);
  const island = await serverId(api, 'Island PvE');
  // A tribe whose name is its own on every server, so the filter finds it alone.
  const names = new Map<string, number>();
  for (const t of (await api<Page_<{ tribeName: string }>>('GET', '/sentinel/tribes?pageSize=250')).results)
    names.set(t.tribeName, (names.get(t.tribeName) ?? 0) + 1);
  const member = await findRow<SurvivorRow>(
    api,
    `/sentinel/characters?serviceId=${island}&pageSize=250`,
    (c) =>
      c.tribeId !== null &&
      /^[A-Za-z][A-Za-z ]+$/.test(c.tribeName ?? '') &&
      names.get(c.tribeName ?? '') === 1,
  );
  const tribe = member.tribeName!;
  // Its number in the game tells it from a tribe of the same name formed later, on this server too.
  const { tribeNumber } = await api<{ tribeNumber: number }>('GET', `/sentinel/tribes/${member.tribeId}`);

  await page.getByRole('grid').focus();
  await page.keyboard.press('g');
  await page.keyboard.press('t');
  await expect(pane(page).locator('h1')).toHaveText('Tribes');
  const grid = page.getByRole('grid', { name: 'Tribes' });
  await expect(grid).toBeFocused();
  await page.keyboard.press('/');
  await page.keyboard.type(tribe);
  const row = grid.getByRole('row', { name: new RegExp(tribe) }).first();
  await expect(row).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(grid).toBeFocused();
  // The server answers the filter after the typing: until then the whole list is shown, and a row
  // id read from it names another row once the answer lands. Every row but the header is then one
  // of this name.
  await expect(grid.getByRole('row').filter({ hasNotText: tribe })).toHaveCount(1);
  // Tribes form and take names as the world lives: another tribe, on any server, may have this name
  // by now. Ours is the row of its number, which is made the active row.
  const ours = grid.getByRole('row', { name: new RegExp(`${tribe}.*\\b${tribeNumber}\\b`) });
  await expect(ours).toBeVisible();
  const ourId = await ours.getAttribute('id');
  await page.keyboard.press('Home');
  for (let i = 0; i < 10 && (await grid.getAttribute('aria-activedescendant')) !== ourId; i++)
    await page.keyboard.press('ArrowDown');
  await expect(grid).toHaveAttribute('aria-activedescendant', ourId!);
  await page.keyboard.press('Shift+F10');
  await arrowTo(page, page.getByRole('menuitem', { name: /Delete tribes/ }));
  await page.keyboard.press('Enter');
  await confirmWithEnter(page, 'Delete tribes?');
  await expect(page.getByText(/Deleted 1 tribe\./)).toBeVisible();
  await expect(ours).toHaveCount(0);

  // The game names the tribe again (a member renamed in game carries the tribe): it is back.
  await api('POST', '/sentinel/gameCommands', {
    type: 'renamePlayer',
    serviceId: island,
    characterId: member.characterId,
    specimenId: member.specimenId,
    // A name of our own: the simulator gives some survivors names with control characters, to
    // show they stay inert, and the API refuses those in a command.
    newName: 'Returning Survivor',
  });
  await grid.focus();
  await expect
    .poll(
      async () => {
        await page.keyboard.press('r');
        return ours.count();
      },
      { timeout: 20_000 },
    )
    .toBeGreaterThan(0);
});

test('teleport a survivor relative to where it stands, from the Teleport form', async ({ page }) => {
  test.setTimeout(60_000);
  await signIn(page);
  const api = await apiOf(page);
  const island = await serverId(api, 'Island PvE');
  const s = await findRow<SurvivorRow>(
    api,
    `/sentinel/characters?serviceId=${island}&pageSize=50`,
    () => true,
  );
  // A known place to start from.
  await api('POST', '/sentinel/gameCommands', {
    type: 'teleportCharacter',
    serviceId: island,
    characterId: s.characterId,
    specimenId: s.specimenId,
    x: 100,
    y: 200,
    z: 300,
  });

  await consoleLine(page, `survivor.open ${s.characterId}`);
  await expect(pane(page).locator('h1')).toHaveText(s.characterName);
  await toolbarButton(page, 'Teleport survivor');
  const form = page.getByRole('form', { name: 'Teleport survivor' });
  await expect(form).toBeVisible();
  // Nothing to go to: the rule of SPEC §5, and the form stays.
  await page.keyboard.press('Control+Enter');
  await expect(form).toContainText('Enter at least one coordinate.');
  await tabTo(page, form.getByRole('textbox', { name: 'To' }));
  await page.keyboard.type('10 _ -5');
  await tabTo(page, form.getByRole('checkbox', { name: 'Relative' }));
  await page.keyboard.press('Space');
  await page.keyboard.press('Control+Enter');
  await expect(page.getByText(`Teleported ${s.characterName} to 110.00 200.00 295.00.`)).toBeVisible();
});
