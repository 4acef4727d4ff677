import { expect, type Page, test } from '@playwright/test';
import { SITE_LINK_DEFAULTS } from '../../src/domain/siteLinks.ts';
import { signIn, tabTo } from './helpers.ts';

// The public site by keyboard only (SPEC §2 landing page): every link is reached with Tab and leads
// somewhere real; pages of the site put focus on their heading; the configured links go where
// /config.json says.

interface SiteConfig {
  devBlogUrl?: string;
  supportUrl?: string;
  communityChatUrl?: string;
}

/** The names of the links and buttons Tab reaches, in order, from the top of the page. */
async function tabStops(page: Page): Promise<string[]> {
  const names: string[] = [];
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press('Tab');
    const name = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return el && el !== document.body ? (el.textContent ?? '').trim() : null;
    });
    // Past the last stop focus leaves the page, or comes round to the first one again.
    if (name === null || name === names[0]) break;
    names.push(name);
  }
  return names;
}

/** From the top of the landing page, Tab to the link and follow it with Enter. */
async function follow(page: Page, name: string) {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await tabTo(page, page.getByRole('link', { name, exact: true }).first(), 60);
  await page.keyboard.press('Enter');
}

test('Tab reaches every link of the landing page, the skip link first', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const stops = await tabStops(page);
  expect(stops[0]).toBe('Skip to content');
  for (const name of [
    'Pricing',
    'Sign In',
    'API Reference',
    'Dev Blog',
    'Contact Support',
    'Community Chat',
    'Privacy Policy',
    'Terms of Service',
    'Open the config-planning tool',
  ])
    expect(stops, name).toContain(name);

  // The skip link takes focus past the header, into the page's content.
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Start your free trial' })).toBeFocused();
});

test('Pricing moves to the pricing section of the same page', async ({ page }) => {
  await follow(page, 'Pricing');
  await expect(page).toHaveURL(/\/#pricing$/);
  await expect(page.getByRole('heading', { name: 'Pricing', level: 2 })).toBeFocused();
});

test('the API reference lists the server’s routes, and filters them', async ({ page }) => {
  await follow(page, 'API Reference');
  await expect(page).toHaveURL(/\/api-reference$/);
  await expect(page.getByRole('heading', { name: 'API Reference', level: 1 })).toBeFocused();
  const services = page.getByRole('table', { name: 'Services' });
  await expect(
    services.getByRole('row', { name: /GET \/v4\/sentinel\/services Token/ }).first(),
  ).toBeVisible();

  // Every route the server answers is in it (the API test compares them one by one).
  const listed = await page.request.get('/v4/apiReference');
  const count = ((await listed.json()) as { routes: unknown[] }).routes.length;
  await expect(page.getByRole('row')).toHaveCount(count + (await page.getByRole('table').count()));

  await page.keyboard.press('Tab');
  await tabTo(page, page.getByRole('searchbox', { name: 'Filter routes' }));
  await page.keyboard.type('dinos locate');
  await expect(page.getByText(`1 of ${count} routes`)).toBeVisible();
  await expect(page.getByRole('row', { name: /POST \/v4\/sentinel\/dinos\/:id\/locate/ })).toBeVisible();
});

for (const [name, heading] of [
  ['Privacy Policy', 'Privacy Policy'],
  ['Terms of Service', 'Terms of Service'],
]) {
  test(`${name} is a page of the site, focused on its heading`, async ({ page }) => {
    await follow(page, name);
    await expect(page).toHaveURL(name === 'Privacy Policy' ? /\/privacy$/ : /\/terms$/);
    await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeFocused();
    await expect(page.getByRole('main')).toContainText(
      name === 'Privacy Policy' ? 'Player data' : '3 day free trial',
    );
  });
}

test('Dev Blog, Contact Support and Community Chat lead to the configured addresses', async ({ page }) => {
  const config = (await (await page.request.get('/config.json')).json()) as SiteConfig;
  // The console falls back to the provider's pages for links the server leaves unset.
  const links = {
    'Dev Blog': config.devBlogUrl ?? SITE_LINK_DEFAULTS.devBlogUrl,
    'Contact Support': config.supportUrl ?? SITE_LINK_DEFAULTS.supportUrl,
    'Community Chat': config.communityChatUrl ?? SITE_LINK_DEFAULTS.communityChatUrl,
  };
  for (const [name, url] of Object.entries(links)) {
    // The machine is offline: the other site answers from here, once the browser asks for it.
    await page.route(url, (route) =>
      route.fulfill({ contentType: 'text/html', body: `<title>${name}</title><h1>${name}</h1>` }),
    );
    await follow(page, name);
    await expect(page).toHaveURL(url);
    await expect(page).toHaveTitle(name);
  }
});

test('/features shows the landing page', async ({ page }) => {
  await page.goto('/features');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Run your ARK servers from the keyboard');
  await expect(page.getByRole('region', { name: 'Features' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Pricing' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
});

test('signed in, the landing offers Go To Dashboard, which leads to the servers', async ({ page }) => {
  await signIn(page);
  await page.goto('/features');
  const dashboard = page.getByRole('link', { name: 'Go To Dashboard' });
  await expect(dashboard).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign In' })).toHaveCount(0);
  await tabTo(page, dashboard);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/servers$/);
  await expect(page.getByRole('grid', { name: 'Servers' })).toBeVisible();
});
