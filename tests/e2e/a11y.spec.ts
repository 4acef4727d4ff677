import { expect, type Locator, type Page, test } from '@playwright/test';
import { PLAYER_TABS, SERVER_TABS } from '../../src/domain/enums.ts';
import { GROUP_TABS } from '../../src/domain/groups.ts';
import { canonicalPath } from '../../src/web/app/routes.ts';
import { apiOf, codeWords, type Page_, seriousViolations, serverId, signIn } from './helpers.ts';

// Every screen of the console, checked with axe-core against WCAG 2.1 A and AA: none may have a
// serious or critical violation, and no word of ours on it may read like code. One list of
// screens, one check; a new screen is a new entry.

interface Ids {
  server: string;
  /** A server added over RCON (the simulator answers RCON too), whose password is wrong. */
  rconServer: string;
  logMessage: string;
  player: string;
  survivor: string;
  tribe: string;
  dino: string;
  group: string;
  bucket: string;
  /** A script with a Simple chat event, a cron event and a webhook event, and a webhook. */
  script: string;
  /** A script of the admin's, shared to the Workshop. */
  sharedScript: string;
  /** An alert rule, tested once (so the notification list has a row), and a destination of it. */
  alertRule: string;
  destination: string;
}

interface Screen {
  name: string;
  path(ids: Ids): string;
  /** Seen by a visitor who is not signed in (the landing page redirects a signed-in user). */
  signedOut?: true;
  /** Seen by a visitor whose system asks for the dark theme (signed-out screens). */
  dark?: true;
  /** What shows the screen is there, with its data. */
  shows?(page: Page): Locator;
  /** Brings up what the screen is about (a dialog, a menu) once the page is there. */
  open?(page: Page): Promise<void>;
}

const pane = (page: Page) => page.locator('[data-pane][data-active="true"]');

/** The first row of the named list, there once the list has its data. */
const firstRow = (name: string | undefined) =>
  name ? (page: Page) => page.getByRole('grid', { name }).getByRole('row').nth(1) : undefined;

/** The API reference's first table, once the server's routes are in. */
const apiReferenceRows = (page: Page) =>
  page.getByRole('table', { name: 'Services' }).getByRole('row').nth(1);

/** Lines typed into the console pane, opened with ` (focus must not be in a field). */
async function consoleLines(page: Page, ...lines: string[]) {
  await page.keyboard.press('Backquote');
  await expect(page.locator('[data-testid="terminal"] textarea')).toBeFocused();
  for (const line of lines) {
    await page.keyboard.type(line);
    await page.keyboard.press('Enter');
  }
}

/** A billing portal page of the signed-in user, returning to the server list. */
async function portalUrl(page: Page): Promise<string> {
  const api = await apiOf(page);
  const origin = new URL(page.url()).origin;
  return (await api<{ url: string }>('POST', '/billing/portal', { returnUrl: `${origin}/servers` })).url;
}

/** Clicks the named button and waits for what it brings up. */
const clickButton =
  (name: string | RegExp, brings: (page: Page) => Locator) =>
  async (page: Page): Promise<void> => {
    await page.getByRole('button', { name }).first().click();
    await expect(brings(page)).toBeVisible();
  };

/** The context menu of the active row of the list, by keyboard. */
async function contextMenu(page: Page) {
  await page.getByRole('grid').first().focus();
  await page.keyboard.press('Shift+F10');
  await expect(page.getByRole('menu')).toBeVisible();
}

// The tabs whose list always has rows on the demo servers.
const SERVER_TAB_LISTS: Partial<Record<(typeof SERVER_TABS)[number], string>> = {
  logs: 'Log messages',
  chat: 'Chat of Island PvE',
  sessions: 'Player sessions',
};
const PLAYER_TAB_LISTS: Partial<Record<(typeof PLAYER_TABS)[number], string>> = {
  logs: 'Log messages',
  sessions: 'Player sessions',
  identifiers: 'Identifiers',
};

const GROUP_TAB_LISTS: Partial<Record<(typeof GROUP_TABS)[number], string>> = {
  services: 'Servers',
  users: 'Users',
};

/** A screen for each tab of a server's, a player's or a group's page. */
const tabScreens = <T extends string>(
  kind: 'server' | 'player' | 'group',
  tabs: readonly T[],
  lists: Partial<Record<T, string>>,
  id: (ids: Ids) => string,
) =>
  tabs.map(
    (tab): Screen => ({
      name: `${kind} tab ${tab}`,
      path: (ids) => `/${kind}s/${id(ids)}/${tab}`,
      shows: firstRow(lists[tab]),
    }),
  );

const SCREENS: Screen[] = [
  { name: 'landing page', path: () => '/', signedOut: true },
  {
    name: 'sign-in form',
    path: () => '/',
    signedOut: true,
    open: clickButton(/sign in/i, (page) => page.getByLabel('Email')),
  },
  {
    name: 'sign-in form, dark theme',
    path: () => '/',
    signedOut: true,
    dark: true,
    open: clickButton(/sign in/i, (page) => page.getByLabel('Email')),
  },
  { name: 'features page', path: () => '/features' },
  { name: 'welcome page', path: () => '/welcome' },
  { name: 'welcome page, wrong account', path: () => '/welcome?reason=wrongAccount' },
  { name: 'landing page, dark theme', path: () => '/', signedOut: true, dark: true },
  ...(['/api-reference', '/privacy', '/terms'] as const).flatMap((path): Screen[] => {
    const shows = path === '/api-reference' ? apiReferenceRows : undefined;
    return [
      { name: `public page ${path}`, path: () => path, signedOut: true, shows },
      { name: `public page ${path}, dark theme`, path: () => path, signedOut: true, dark: true, shows },
    ];
  }),
  { name: 'server list', path: () => '/servers', shows: firstRow('Servers') },
  ...tabScreens('server', SERVER_TABS, SERVER_TAB_LISTS, (ids) => ids.server),
  { name: 'server setup', path: (ids) => `/servers/${ids.server}/setup` },
  {
    name: 'RCON server setup, RCON error',
    path: (ids) => `/servers/${ids.rconServer}/setup`,
    shows: (page) => page.getByTestId('rcon-status').getByText(/RCON error: /),
  },
  {
    name: 'RCON server settings, the RCON connection form',
    path: (ids) => `/servers/${ids.rconServer}/settings`,
    shows: (page) => page.getByRole('form', { name: 'RCON connection' }).getByLabel('RCON password'),
  },
  {
    name: 'add server form',
    path: () => '/servers',
    shows: firstRow('Servers'),
    open: async (page) => {
      await consoleLines(page, 'server.add --connection rcon --form');
      await expect(
        page.getByRole('dialog', { name: 'Add server' }).getByLabel('RCON password'),
      ).toHaveAttribute('type', 'password');
    },
  },
  { name: 'log message', path: (ids) => `/logs/${ids.logMessage}` },
  { name: 'player list', path: () => '/players', shows: firstRow('Players') },
  ...tabScreens('player', PLAYER_TABS, PLAYER_TAB_LISTS, (ids) => ids.player),
  { name: 'survivor list', path: () => '/characters', shows: firstRow('Survivors') },
  { name: 'survivor page', path: (ids) => `/characters/${ids.survivor}`, shows: firstRow('Log messages') },
  {
    name: 'teleport form',
    path: (ids) => `/characters/${ids.survivor}`,
    open: clickButton('Teleport survivor', (page) => page.getByRole('form', { name: 'Teleport survivor' })),
  },
  { name: 'tribe list', path: () => '/tribes', shows: firstRow('Tribes') },
  { name: 'tribe page', path: (ids) => `/tribes/${ids.tribe}` },
  {
    name: 'tribe tab survivors',
    path: (ids) => `/tribes/${ids.tribe}/characters`,
    shows: firstRow('Survivors'),
  },
  { name: 'tribe tab dinos', path: (ids) => `/tribes/${ids.tribe}/dinos` },
  { name: 'dino list', path: () => '/dinos', shows: firstRow('Dinos') },
  { name: 'dino page', path: (ids) => `/dinos/${ids.dino}`, shows: firstRow('Log messages') },
  { name: 'group list', path: () => '/groups', shows: firstRow('Groups') },
  ...tabScreens('group', GROUP_TABS, GROUP_TAB_LISTS, (ids) => ids.group),
  { name: 'bucket list', path: () => '/buckets', shows: firstRow('Buckets') },
  { name: 'bucket data tab', path: (ids) => `/buckets/${ids.bucket}`, shows: firstRow('Values') },
  {
    name: 'bucket guide tab',
    path: (ids) => `/buckets/${ids.bucket}/guide`,
    shows: (page) => page.getByRole('article', { name: 'Read a global key' }),
  },
  {
    name: 'add value form, a field refused',
    path: (ids) => `/buckets/${ids.bucket}`,
    shows: firstRow('Values'),
    open: async (page) => {
      await clickButton('Add value', (p) => p.getByRole('form', { name: 'Add value' }))(page);
      const form = page.getByRole('form', { name: 'Add value' });
      await form.getByRole('textbox', { name: 'Player id' }).fill('bob');
      await page.keyboard.press('Control+Enter');
      await expect(form.getByText('The player id must look like a product player id.')).toBeVisible();
    },
  },
  {
    name: 'what a group may do on a server',
    path: (ids) => `/groups/${ids.group}/services`,
    shows: firstRow('Servers'),
    open: async (page) => {
      await page.getByRole('grid', { name: 'Servers' }).focus();
      await expect(page.getByRole('form', { name: /^What .+ may do on / })).toBeVisible();
    },
  },
  {
    name: 'group member permissions',
    path: (ids) => `/groups/${ids.group}/users`,
    shows: firstRow('Users'),
    open: async (page) => {
      await page.getByRole('grid', { name: 'Users' }).focus();
      await expect(page.getByRole('group', { name: /^Permissions of / })).toBeVisible();
    },
  },
  {
    name: 'note editor',
    path: (ids) => `/players/${ids.player}/notes`,
    open: clickButton('Add note', (page) => page.getByRole('textbox', { name: 'Note' })),
  },
  {
    name: 'ban import',
    path: (ids) => `/servers/${ids.server}/bans`,
    open: clickButton('Import bans…', (page) => page.getByRole('textbox', { name: 'Text to import' })),
  },
  {
    name: 'command palette',
    path: () => '/servers',
    open: async (page) => {
      await page.keyboard.press('Control+k');
      await expect(page.getByRole('combobox', { name: /command palette/i })).toBeFocused();
      await page.keyboard.type('Island');
      await expect(page.getByRole('option', { name: /Island PvE/ }).first()).toBeVisible();
    },
  },
  {
    name: 'shortcuts dialog',
    path: () => '/servers',
    open: async (page) => {
      await page.keyboard.press('?');
      await expect(page.getByRole('textbox', { name: 'Search shortcuts' })).toBeFocused();
    },
  },
  {
    name: 'command form, a field refused',
    path: () => '/players',
    shows: firstRow('Players'),
    open: async (page) => {
      await consoleLines(page, 'ban --expires soon --form');
      const form = page.getByRole('dialog', { name: 'Ban player' });
      await expect(form.getByRole('combobox').first()).toBeFocused();
      await page.keyboard.press('Control+Enter');
      await expect(form.getByText(/Use a duration like/)).toBeVisible();
    },
  },
  {
    name: 'console pane',
    path: () => '/servers',
    open: (page) => consoleLines(page, 'help'),
  },
  {
    name: 'confirm dialog',
    path: () => '/servers',
    open: async (page) => {
      await consoleLines(page, 'run "Demo Cluster" destroywilddinos');
      await expect(page.getByRole('dialog')).toContainText('destroywilddinos');
    },
  },
  {
    name: 'context menu',
    path: (ids) => `/servers/${ids.server}`,
    shows: firstRow('Log messages'),
    open: contextMenu,
  },
  {
    name: 'raw log data dialog',
    path: (ids) => `/servers/${ids.server}`,
    shows: firstRow('Log messages'),
    open: async (page) => {
      await contextMenu(page);
      await page.getByRole('menuitem', { name: /Show Raw Log Data/ }).click();
      await expect(
        page.getByRole('dialog', { name: 'Raw Log Data' }).locator('dd code').first(),
      ).toBeVisible();
    },
  },
  {
    name: 'columns menu',
    path: () => '/servers',
    shows: firstRow('Servers'),
    open: clickButton('Columns', (page) => page.getByRole('group', { name: 'Visible columns' })),
  },
  {
    name: 'give item form, a field refused',
    path: () => '/servers',
    shows: firstRow('Servers'),
    open: async (page) => {
      await consoleLines(page, 'give --quantity 0 --form');
      const form = page.getByRole('dialog', { name: 'Give item' });
      await expect(form.getByRole('combobox').first()).toBeFocused();
      await page.keyboard.press('Control+Enter');
      await expect(form.getByText('Quantity must be a whole number from 1 to 99999.')).toBeVisible();
    },
  },
  {
    name: 'blueprint picker',
    path: () => '/servers',
    shows: firstRow('Servers'),
    open: async (page) => {
      await consoleLines(page, 'give --form');
      await page.getByRole('button', { name: 'Choose item path…' }).click();
      await expect(page.getByRole('grid', { name: 'Items' }).getByRole('row').nth(1)).toBeVisible();
    },
  },
  {
    name: 'mod picker',
    path: () => '/servers',
    shows: firstRow('Servers'),
    open: async (page) => {
      await consoleLines(page, 'give --form');
      await page.getByRole('button', { name: 'Choose item path…' }).click();
      await page.getByRole('button', { name: 'Pick Mods' }).click();
      await expect(
        page.getByRole('grid', { name: 'Mods' }).getByRole('row', { name: /Ragnarok/ }),
      ).toBeVisible();
    },
  },
  {
    name: 'custom dino creator, a trait over its cap',
    path: () => '/dinos/add',
    open: async (page) => {
      const traits = page.getByRole('combobox', { name: 'Search traits' });
      await traits.fill('Frail');
      await traits.press('Enter');
      await traits.press('Enter');
      await expect(page.getByRole('form', { name: 'Custom dino creator' }).getByRole('alert')).toHaveText(
        'You cannot add any more Frail traits.',
      );
    },
  },
  {
    name: 'custom dino creator, colour picker',
    path: () => '/dinos/add',
    open: clickButton('Pick Region 1 colour', (page) =>
      page.getByRole('grid', { name: 'Colours' }).getByRole('row').nth(1),
    ),
  },
  {
    name: 'server activity, a filter refused',
    path: (ids) => `/servers/${ids.server}/activity`,
    open: async (page) => {
      await consoleLines(page, 'chat "Island PvE" checking the trail');
      await expect(
        page.getByRole('grid', { name: 'Activity of Island PvE' }).getByRole('row').nth(1),
      ).toBeVisible();
      await page.getByRole('textbox', { name: 'Since' }).fill('soon');
      await expect(page.getByRole('alert').filter({ hasText: /Use a duration like/ })).toBeVisible();
    },
  },
  { name: 'script creator', path: () => '/scripts/add', shows: (page) => page.locator('#script-name') },
  {
    name: 'script import',
    path: () => '/scripts/add',
    open: clickButton('Import…', (page) => page.getByRole('textbox', { name: 'Text to import' })),
  },
  {
    name: 'script editor, a Simple event',
    path: (ids) => `/scripts/${ids.script}`,
    shows: (page) => page.getByRole('grid', { name: 'Actions' }).getByRole('row').nth(1),
  },
  ...[
    ['cron', 'Next five runs'],
    ['webhook', 'Example code'],
  ].map(([context, heading], i) => ({
    name: `script editor, a ${context} event`,
    path: (ids: Ids) => `/scripts/${ids.script}`,
    open: async (page: Page) => {
      const events = page.getByRole('grid', { name: 'Events and features' });
      await expect(events.getByRole('row').nth(3)).toBeVisible();
      await events.focus();
      for (let k = 0; k <= i; k++) await page.keyboard.press('ArrowDown');
      await expect(page.getByRole('heading', { name: heading })).toBeVisible();
    },
  })),
  {
    name: 'script editor, a save refused',
    path: (ids) => `/scripts/${ids.script}`,
    open: async (page) => {
      await page.locator('#script-name').fill('');
      await page.keyboard.press('Control+s');
      await expect(page.getByRole('alert').filter({ hasText: 'A script needs a name.' })).toBeVisible();
    },
  },
  {
    name: 'script editor, a test run',
    path: (ids) => `/scripts/${ids.script}`,
    open: async (page) => {
      // The refused save before left a draft: this screen shows the script as saved.
      const discard = page.getByRole('button', { name: 'Discard changes' });
      if (await discard.isVisible()) await discard.click();
      await page.getByRole('button', { name: 'Run test' }).click();
      await expect(page.getByText(/^Outcome: /)).toBeVisible({ timeout: 30_000 });
    },
  },
  {
    name: 'trial form, refused',
    path: () => '/features',
    open: async (page) => {
      const trial = page.locator('#trial');
      await trial.getByRole('textbox', { name: 'Email' }).fill('visitor@mailinator.com');
      await trial.getByRole('button', { name: 'Start Free Trial' }).click();
      await expect(trial.getByRole('alert').first()).toBeVisible();
    },
  },
  {
    name: 'trial checkout',
    path: () => '/',
    signedOut: true,
    open: async (page) => {
      // The moderator's account has never had a plan; the checkout is left unconfirmed.
      await signIn(page, '/servers', 'moderator@palisade.local');
      const origin = new URL(page.url()).origin;
      const api = await apiOf(page);
      const { url } = await api<{ url: string }>('POST', '/billing/checkout', {
        email: 'moderator@palisade.local',
        planSize: 2,
        period: 'monthly',
        acceptRefundPolicy: true,
        successUrl: `${origin}/servers`,
        cancelUrl: `${origin}/`,
      });
      await page.goto(url);
      await expect(page.getByRole('button', { name: 'Start trial' })).toBeVisible();
    },
  },
  {
    name: 'billing portal',
    path: () => '/servers',
    open: async (page) => {
      await page.goto(await portalUrl(page));
      await expect(page.getByRole('heading', { name: 'Invoices' })).toBeVisible();
    },
  },
  {
    name: 'billing portal, a change previewed',
    path: () => '/servers',
    open: async (page) => {
      await page.goto(await portalUrl(page));
      await page.getByRole('spinbutton', { name: 'Servers' }).fill('11');
      await page.getByRole('button', { name: 'Preview change' }).click();
      await expect(page.getByTestId('prorated-due')).toBeVisible();
    },
  },
  { name: 'script library', path: () => '/scripts', shows: firstRow('Library') },
  { name: 'workshop', path: () => '/scripts/workshop', shows: firstRow('Workshop') },
  {
    name: 'workshop preview',
    path: (ids) => `/scripts/workshop/${ids.sharedScript}`,
    shows: firstRow('Versions'),
  },
  {
    name: 'add to server dialog',
    path: (ids) => `/scripts/workshop/${ids.sharedScript}`,
    shows: firstRow('Versions'),
    open: clickButton('Add to Server', (page) => page.getByRole('form', { name: 'Add to Server' })),
  },
  {
    name: 'script runner menu',
    path: (ids) => `/servers/${ids.server}`,
    shows: firstRow('Log messages'),
    open: clickButton('Run Script', (page) => page.getByRole('grid', { name: /^Run Script on / })),
  },
  { name: 'alert rule list', path: () => '/alerts', shows: firstRow('Alert rules') },
  { name: 'alert rule page', path: (ids) => `/alerts/${ids.alertRule}`, shows: firstRow('What was sent') },
  { name: 'alert destination list', path: () => '/destinations', shows: firstRow('Alert destinations') },
  {
    name: 'alert destination page',
    path: (ids) => `/destinations/${ids.destination}`,
    shows: (page) => page.getByRole('grid', { name: 'What was sent' }),
  },
  { name: 'notification list', path: () => '/notifications', shows: firstRow('Notifications') },
  {
    name: 'security page, two-factor setup under way',
    path: () => '/security',
    shows: (page) => page.getByRole('img', { name: 'Code for your authenticator app to scan' }),
  },
  { name: 'API token list', path: () => '/tokens', shows: firstRow('API tokens') },
  { name: 'group roles tab', path: (ids) => `/groups/${ids.group}/roles`, shows: firstRow('Roles') },
  {
    name: 'alert rule form, a field refused',
    path: () => '/alerts',
    shows: firstRow('Alert rules'),
    open: async (page) => {
      await consoleLines(page, 'alert.create --when population --form');
      const form = page.getByRole('dialog', { name: 'Create alert rule' });
      await expect(form.getByRole('textbox', { name: 'Players' })).toBeVisible();
      await page.keyboard.press('Control+Enter');
      await expect(form.getByText('Name it.')).toBeVisible();
    },
  },
  {
    name: 'two panes',
    path: () => '/servers',
    open: async (page) => {
      await page.keyboard.press('Control+Backslash');
      await expect(page.locator('[data-pane]')).toHaveCount(2);
    },
  },
];

/** One signed-in page for every screen: each starts from its own address. */
let admin: Page;
let ids: Ids;

test.beforeAll(async ({ browser }) => {
  admin = await (await browser.newContext()).newPage();
  await signIn(admin);
  const api = await apiOf(admin);
  const server = await serverId(api, 'Island PvE');
  const logs = await api<Page_<{ messageId: string }>>(
    'GET',
    `/sentinel/logMessages?serviceId=${server}&pageSize=1`,
  );
  const players = await api<Page_<{ playerId: string }>>('GET', '/sentinel/players?pageSize=1');
  const survivors = await api<Page_<{ characterId: string; tribeId: string | null }>>(
    'GET',
    `/sentinel/characters?serviceId=${server}&pageSize=100`,
  );
  const member = survivors.results.find((c) => c.tribeId) ?? survivors.results[0];
  const dinos = await api<Page_<{ dinoId: string }>>('GET', `/sentinel/dinos?serviceId=${server}&pageSize=1`);
  const groups = await api<Page_<{ groupId: string; name: string }>>('GET', '/sentinel/groups');
  // A failed screen restarts the worker and this hook with it: the server its first run added is
  // taken again rather than a second one added, and names that must be unique are made so.
  const rconServer =
    (await serverId(api, 'A11y RCON').catch(() => null)) ??
    (
      await api<{ created: { serviceId: string }[] }>('POST', '/sentinel/services', {
        gameId: 'ArkSA',
        name: 'A11y RCON',
        platform: 'PC',
        languages: ['en'],
        connectionKind: 'rcon',
        rconHost: '127.0.0.1',
        rconPort: Number(process.env.E2E_PORT ?? 4179) + 1002,
        rconPassword: 'not the password',
      })
    ).created[0].serviceId;
  const bucket = await api<{ created: { bucketId: string }[] }>('POST', '/sentinel/buckets', {
    name: `A11y bucket ${Date.now()}`,
  });
  const bucketId = bucket.created[0].bucketId;
  await api('POST', '/sentinel/bucketValues', { bucketId, key: 'motd', value: 'Welcome' });
  const script = await api<{ created: { scriptId: string }[] }>('POST', '/sentinel/scripts', {
    name: `A11y script ${Date.now()}`,
    parameters: [{ name: 'rules', type: 'String', default: 'Be kind.' }],
    events: [
      {
        language: 'Simple',
        context: 'chat',
        code: JSON.stringify({
          match: 'all',
          conditions: [{ field: 'message', operator: 'contains', value: '!rules' }],
          actions: [{ type: 'sendChat', options: { message: 'Rules for {playerName}' } }],
        }),
      },
      {
        language: 'JavaScript',
        context: 'cron',
        keyword: '0 12 * * 1',
        arguments: [],
        code: 'beacon.log(1);',
      },
      {
        language: 'JavaScript',
        context: 'webhook',
        keyword: 'restart',
        arguments: [{ name: 'minutes', type: 'Number', default: 5, required: true }],
        code: 'beacon.log(beacon.params.minutes);',
      },
    ],
  });
  const scriptId = script.created[0].scriptId;
  await api('POST', `/sentinel/scripts/${scriptId}/webhooks`, { purpose: 'Restarts from the host panel' });
  const shared = await api<{ created: { scriptId: string }[] }>('POST', '/sentinel/scripts', {
    name: `A11y greeter ${Date.now()}`,
    preview: 'Greets',
    parameters: [{ name: 'greeting', type: 'String', default: 'Hello' }],
    events: [
      { language: 'Simple', context: 'serviceScriptRun', code: '{}', keyword: 'Greet', arguments: [] },
    ],
  });
  await api('POST', `/sentinel/scripts/${shared.created[0].scriptId}/publish`);
  const destination = await api<{ destinationId: string }>('POST', '/sentinel/alertDestinations', {
    name: `A11y Discord ${Date.now()}`,
    kind: 'discord',
    // Nothing listens there: the test's delivery fails, which the page shows too.
    address: 'http://127.0.0.1:9/api/webhooks/1/a11y',
  });
  const alertRule = await api<{ ruleId: string }>('POST', '/sentinel/alertRules', {
    name: `A11y down ${Date.now()}`,
    serviceId: server,
    condition: { kind: 'status', minutes: 5 },
    destinationIds: [destination.destinationId],
  });
  await api('POST', `/sentinel/alertRules/${alertRule.ruleId}/test`);
  // A setup begun and not finished: the Security page shows its code to scan. Not turned on, so
  // the admin still signs in with the password alone.
  await api('POST', '/sentinel/account/totp');
  await api('POST', '/sentinel/apiTokens', { name: `A11y bot ${Date.now()}`, serviceId: server });
  ids = {
    alertRule: alertRule.ruleId,
    destination: destination.destinationId,
    bucket: bucketId,
    script: scriptId,
    sharedScript: shared.created[0].scriptId,
    server,
    rconServer,
    logMessage: logs.results[0].messageId,
    player: players.results[0].playerId,
    survivor: member.characterId,
    tribe: member.tribeId ?? '',
    dino: dinos.results[0].dinoId,
    group: groups.results.find((g) => g.name === 'Demo Cluster')!.groupId,
  };
});
test.afterAll(() => admin?.close());

for (const screen of SCREENS) {
  test(`${screen.name}: no serious or critical WCAG 2.1 AA violation`, async ({ browser }) => {
    // A visitor has a browser of their own, signed in to nothing.
    const page = screen.signedOut
      ? await (await browser.newContext({ colorScheme: screen.dark ? 'dark' : 'light' })).newPage()
      : admin;
    await page.goto(screen.path(ids));
    await expect(page.locator('main, [data-pane]').first()).toBeVisible();
    if (screen.dark) await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    if (screen.shows) await expect(screen.shows(page)).toBeVisible();
    // Lazy views and their data: the screen is settled when nothing says it is still loading.
    await expect(page.getByText(/^Loading…$/)).toHaveCount(0);
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    await screen.open?.(page);

    expect(await seriousViolations(page), `on ${screen.name} (${page.url()})`).toEqual([]);
    expect(await codeWords(page), `code identifiers on ${screen.name}`).toEqual([]);
    if (screen.signedOut) await page.context().close();
  });
}

test('the list holds every tab of the server and player pages', async () => {
  for (const [path, nav] of [
    [`/servers/${ids.server}`, 'Server tabs'],
    [`/players/${ids.player}`, 'Player tabs'],
  ]) {
    await admin.goto(path);
    const links = pane(admin).getByRole('navigation', { name: nav }).getByRole('link');
    await expect(links.first()).toBeVisible();
    const hrefs = await links.evaluateAll((as) =>
      as.map((a) => new URL((a as HTMLAnchorElement).href).pathname),
    );
    // The default tab is linked without its name (`/players/{id}` for its logs).
    const checked = SCREENS.map((s) => canonicalPath(s.path(ids)));
    expect(hrefs.map(canonicalPath).filter((h) => !checked.includes(h))).toEqual([]);
  }
});

// The grid scrolls under a header that stays on top: the row with the focus must not hide under
// it, nor below the grid's edge (WCAG 2.2 2.4.11 Focus Not Obscured).
test('the active row of a long list shows whole, never under the header that stays on top', async () => {
  await admin.goto(`/servers/${ids.server}`);
  const grid = admin.getByRole('grid', { name: 'Log messages' });
  await expect(grid.getByRole('row').nth(1)).toBeVisible();
  await grid.focus();
  /** Where the active row is against the grid's header and the grid's bottom edge. */
  const placement = () =>
    grid.evaluate((g) => {
      const row = document
        .getElementById(g.getAttribute('aria-activedescendant') ?? '')!
        .getBoundingClientRect();
      const head = g.querySelector('[role=columnheader]')!.getBoundingClientRect();
      const box = g.getBoundingClientRect();
      return { belowHeader: row.top >= head.bottom - 1, aboveBottom: row.bottom <= box.bottom + 1 };
    });
  for (const key of ['PageDown', 'PageDown', 'ArrowDown', 'PageUp', 'ArrowUp', 'PageDown', 'Home']) {
    await admin.keyboard.press(key);
    expect(await placement(), `after ${key}`).toEqual({ belowHeader: true, aboveBottom: true });
  }
});

test('the check itself finds faint words and a button with no name, run in the page as it is', async ({
  page,
}) => {
  await page.setContent(
    '<html lang="en"><title>Check</title><main><p style="color:#777;background:#888">Faint words</p><button></button></main></html>',
  );
  const found = await seriousViolations(page);
  expect(found.map((v) => v.split(' ')[0]).sort()).toEqual(['button-name', 'color-contrast']);
});
