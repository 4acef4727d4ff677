import { expect, type Locator, type Page, test } from '@playwright/test';
import { PLAYER_TABS, SERVER_TABS } from '../../src/domain/enums.ts';
import { GROUP_TABS } from '../../src/domain/groups.ts';
import { canonicalPath } from '../../src/web/app/routes.ts';
import { apiOf, codeWords, type Page_, seriousViolations, serverId, signIn } from './helpers.ts';

// Every route of SPEC §2 with data in it, as a person sees it at a desk (1440×900) and on a phone
// (390×844), in the light and the dark theme: every list shows its rows (or says it is empty)
// inside the window, no word of ours reads like code, axe-core finds nothing serious, nothing is
// logged as an error, and the main screens look as their committed pictures do, so an unintended
// visual change fails. The live data (rows, charts, counts, names) is masked in the pictures; the
// chrome around it is compared.

interface Ids {
  server: string;
  player: string;
  survivor: string;
  tribe: string;
  dino: string;
  group: string;
  bucket: string;
  sharedScript: string;
  logMessage: string;
}

interface Route {
  name: string;
  path(ids: Ids): string;
  /**
   * Compared with its committed picture. Not a page whose shape follows its live data: a player's
   * timeline has a lane per server played on; the facts of a survivor, tribe, dino or log line
   * wrap by their names.
   */
  shot?: true;
}

/** Each tab of a page, pictured unless its shape follows live data. */
const tabs = (kind: string, all: readonly string[], id: (ids: Ids) => string, shot = true) =>
  all.map(
    (tab): Route => ({
      name: `${kind}-${tab}`,
      path: (ids) => `/${kind}s/${id(ids)}/${tab}`,
      ...(shot ? { shot: true as const } : {}),
    }),
  );

const ROUTES: Route[] = [
  { name: 'servers', path: () => '/servers', shot: true },
  ...tabs('server', SERVER_TABS, (ids) => ids.server),
  // Its access key row wraps by the key's width on a phone.
  { name: 'server-setup', path: (ids) => `/servers/${ids.server}/setup` },
  { name: 'players', path: () => '/players', shot: true },
  // A player's facts and sessions timeline take the shape of their data.
  ...tabs('player', PLAYER_TABS, (ids) => ids.player, false),
  { name: 'groups', path: () => '/groups', shot: true },
  ...tabs('group', GROUP_TABS, (ids) => ids.group),
  { name: 'scripts', path: () => '/scripts', shot: true },
  { name: 'workshop', path: () => '/scripts/workshop', shot: true },
  { name: 'workshop-preview', path: (ids) => `/scripts/workshop/${ids.sharedScript}` },
  { name: 'script-creator', path: () => '/scripts/add', shot: true },
  { name: 'buckets', path: () => '/buckets', shot: true },
  { name: 'bucket', path: (ids) => `/buckets/${ids.bucket}`, shot: true },
  { name: 'bucket-guide', path: (ids) => `/buckets/${ids.bucket}/guide`, shot: true },
  { name: 'survivors', path: () => '/characters', shot: true },
  { name: 'survivor', path: (ids) => `/characters/${ids.survivor}` },
  { name: 'tribes', path: () => '/tribes', shot: true },
  { name: 'tribe', path: (ids) => `/tribes/${ids.tribe}` },
  { name: 'tribe-survivors', path: (ids) => `/tribes/${ids.tribe}/characters` },
  { name: 'tribe-dinos', path: (ids) => `/tribes/${ids.tribe}/dinos` },
  { name: 'dinos', path: () => '/dinos', shot: true },
  { name: 'dino', path: (ids) => `/dinos/${ids.dino}` },
  { name: 'dino-creator', path: () => '/dinos/add', shot: true },
  { name: 'log-message', path: (ids) => `/logs/${ids.logMessage}` },
  // The account's devices and tokens carry their times and addresses.
  { name: 'security', path: () => '/security' },
  { name: 'tokens', path: () => '/tokens' },
];

const SIZES = [
  { name: 'desk', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;
const THEMES = ['light', 'dark'] as const;

/** What changes from run to run: rows, charts, counts, names, times, facts of live entities. */
const LIVE =
  '[role=grid], figure, canvas, .vl-count, .nav-count, .log-waiting, dl.facts, h1, nav[aria-label=Breadcrumb], .toast, [role=status], code, pre';

const pane = (page: Page) => page.locator('[data-pane][data-active="true"]');

/** Moves the console to a route as its own links do: no reload, the theme and size kept. */
async function visit(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    history.pushState({}, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await expect.poll(() => canonicalPath(new URL(page.url()).pathname)).toBe(canonicalPath(path));
  await expect(pane(page)).toBeVisible();
  // Lazy views and their data: settled when nothing says it is still loading.
  await expect(page.getByText(/^Loading…$/)).toHaveCount(0);
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

/**
 * A box a person sees: some height, inside the window (scrolled to, as a person scrolls). Live
 * lists redraw their rows as lines arrive, so the check is tried again until one holds still.
 */
async function seen(page: Page, what: Locator, label: string): Promise<void> {
  const view = page.viewportSize()!;
  await expect(async () => {
    await what.scrollIntoViewIfNeeded({ timeout: 2_000 });
    const box = await what.boundingBox({ timeout: 2_000 });
    expect(box, `${label} has a box`).not.toBeNull();
    expect(box!.height, `${label} is tall enough to read`).toBeGreaterThan(10);
    expect(box!.y, `${label} starts inside the window`).toBeGreaterThanOrEqual(0);
    expect(box!.y + box!.height, `${label} ends inside the window`).toBeLessThanOrEqual(view.height + 1);
    expect(box!.x, `${label} starts inside the window`).toBeGreaterThanOrEqual(0);
    expect(box!.x, `${label} starts inside the window`).toBeLessThan(view.width);
  }).toPass({ timeout: 20_000 });
}

/** Each list of the pane shows its first row, or its words for being empty. */
async function listsShown(page: Page, route: string): Promise<void> {
  const grids = pane(page).getByRole('grid');
  for (const grid of await grids.all()) {
    const name = (await grid.getAttribute('aria-label')) ?? 'list';
    const list = grid.locator('xpath=ancestor-or-self::*[contains(@class, "vl")][1]');
    // Read anew at each try: a list may get its first row (or lose its last) while it is checked.
    const shown = grid.getByRole('row').nth(1).or(list.locator('.vl-empty')).first();
    await seen(page, shown, `${route}: ${name}`);
  }
}

let ids: Ids;

test.beforeAll(async ({ browser }) => {
  const page = await (await browser.newContext()).newPage();
  await signIn(page);
  const api = await apiOf(page);
  const server = await serverId(api, 'Island PvE');
  const first = async <T>(path: string) => (await api<Page_<T>>('GET', path)).results;
  const survivors = await first<{ characterId: string; tribeId: string | null }>(
    `/sentinel/characters?serviceId=${server}&pageSize=100`,
  );
  const member = survivors.find((c) => c.tribeId) ?? survivors[0];
  const groups = await first<{ groupId: string; name: string }>('/sentinel/groups');
  const bucket = await api<{ created: { bucketId: string }[] }>('POST', '/sentinel/buckets', {
    name: `Screens bucket ${Date.now()}`,
  });
  await api('POST', '/sentinel/bucketValues', {
    bucketId: bucket.created[0].bucketId,
    key: 'motd',
    value: 'Hi',
  });
  const shared = await api<{ created: { scriptId: string }[] }>('POST', '/sentinel/scripts', {
    name: `Screens greeter ${Date.now()}`,
    preview: 'Greets',
    events: [
      { language: 'Simple', context: 'serviceScriptRun', code: '{}', keyword: 'Greet', arguments: [] },
    ],
  });
  await api('POST', `/sentinel/scripts/${shared.created[0].scriptId}/publish`);
  ids = {
    server,
    player: (await first<{ playerId: string }>('/sentinel/players?pageSize=1'))[0].playerId,
    survivor: member.characterId,
    tribe: member.tribeId ?? '',
    dino: (await first<{ dinoId: string }>(`/sentinel/dinos?serviceId=${server}&pageSize=1`))[0].dinoId,
    group: groups.find((g) => g.name === 'Demo Cluster')!.groupId,
    bucket: bucket.created[0].bucketId,
    sharedScript: shared.created[0].scriptId,
    logMessage: (
      await first<{ messageId: string }>(`/sentinel/logMessages?serviceId=${server}&pageSize=1`)
    )[0].messageId,
  };
  await page.context().close();
});

for (const size of SIZES)
  for (const theme of THEMES)
    test(`every route at ${size.width}×${size.height}, ${theme}: lists shown, words for people, no error, as pictured`, async ({
      browser,
    }) => {
      // Fifty routes, each waited for, checked and pictured: a bound for a loaded machine, not a pace.
      test.setTimeout(600_000);
      const context = await browser.newContext({
        viewport: { width: size.width, height: size.height },
        colorScheme: theme,
      });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (m) => {
        // The simulator plays on while the routes are walked: a tribe it destroys (or a survivor
        // or dino it loses) is rightly not found on its page, which the browser logs as a 404.
        const gone = /\/(tribes|characters|dinos)\//.test(page.url()) && /status of 404/.test(m.text());
        if (m.type() === 'error' && !gone) errors.push(`${page.url()}: ${m.text()}`);
      });
      page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
      await signIn(page);
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      for (const route of ROUTES) {
        await test.step(route.name, async () => {
          await visit(page, route.path(ids));
          await listsShown(page, route.name);
          expect(await codeWords(page), `code identifiers on ${route.name}`).toEqual([]);
          // The light theme at the desk is axe-checked screen by screen, states and all (a11y.spec).
          if (theme === 'dark' || size.name === 'phone')
            expect(await seriousViolations(page), `axe on ${route.name}`).toEqual([]);
          // On a phone the list's bar wraps by the width of its live counts: pictured at the desk only.
          if (route.shot && size.name === 'desk') {
            // Pictured from the top: the sweep scrolled the page (on a phone, the pane scrolls).
            await page.evaluate(() => {
              window.scrollTo(0, 0);
              for (const el of document.querySelectorAll('.page')) el.scrollTop = 0;
            });
            await expect(page).toHaveScreenshot(`${route.name}-${size.name}-${theme}.png`, {
              mask: [page.locator(LIVE)],
              maxDiffPixelRatio: 0.02,
            });
          }
        });
      }
      expect(errors, 'errors logged in the console').toEqual([]);
      await context.close();
    });
