import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page } from '@playwright/test';

export const DEMO = {
  email: process.env.PALISADE_DEMO_EMAIL ?? 'admin@palisade.local',
  password: process.env.PALISADE_DEMO_PASSWORD ?? 'palisade-demo',
};

/** Presses Tab (or Shift+Tab, for what is before the focus) until the target has focus, as a keyboard user would reach it. */
export async function tabTo(page: Page, target: Locator, max = 40, key = 'Tab'): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press(key);
  }
  throw new Error('Could not reach the element with Tab');
}

/**
 * Answers a confirmation by Enter once it asks `question` and its OK has focus: Enter pressed
 * between the dialog's paint and its focus move would reach the page behind it.
 */
export async function confirmWithEnter(page: Page, question: string | RegExp): Promise<void> {
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(question);
  await expect(dialog.getByRole('button', { name: 'OK' })).toBeFocused();
  await page.keyboard.press('Enter');
}

/** The sign-in page's first step by keyboard: from `path`, the sign-in button, the email and the demo password. */
export async function enterPassword(page: Page, path = '/servers', email = DEMO.email): Promise<void> {
  await page.goto(path);
  const button = page.getByRole('button', { name: /sign in/i }).first();
  await expect(button).toBeVisible();
  await tabTo(page, button);
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Email')).toBeVisible();
  await tabTo(page, page.getByLabel('Email'));
  await page.keyboard.type(email);
  await page.keyboard.press('Tab');
  await page.keyboard.type(DEMO.password);
  await page.keyboard.press('Enter');
}

/** Signs in with the demo account (or another of the demo's, by email) through the real PKCE flow, by keyboard. */
export async function signIn(page: Page, path = '/servers', email = DEMO.email): Promise<void> {
  await enterPassword(page, path, email);
  await expect(page.getByRole('grid')).toBeVisible();
}

/** The text the console pane shows (xterm's DOM renderer). */
export async function terminalText(page: Page): Promise<string> {
  return (await page.locator('[data-testid="terminal"] .xterm-rows').innerText()).replace(/\u00a0/g, ' ');
}

/**
 * The texts of the cells whose shown text does not fit inside them (cut at either side, or
 * ellipsised). Text kept for screen readers only (a 1 px box, `.visually-hidden`) is not shown.
 */
export function clippedTexts(cells: Locator): Promise<string[]> {
  return cells.evaluateAll((els) =>
    els
      .filter((el) => {
        const box = el.getBoundingClientRect();
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        let left = Number.POSITIVE_INFINITY;
        let right = Number.NEGATIVE_INFINITY;
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const holder = node.parentElement!.getBoundingClientRect();
          if (holder.width <= 1 && holder.height <= 1) continue;
          const range = document.createRange();
          range.selectNodeContents(node);
          const text = range.getBoundingClientRect();
          if (text.width === 0) continue;
          left = Math.min(left, text.left);
          right = Math.max(right, text.right);
        }
        if (right < left) return false;
        const cut = left < box.left - 0.5 || right > box.right + 0.5;
        return cut || el.scrollWidth > el.clientWidth;
      })
      .map((el) => el.textContent ?? ''),
  );
}

/** Whether `text` would fit in the cell, in the cell's own font, inside its padding. */
export function fitsIn(cell: Locator, text: string): Promise<boolean> {
  return cell.evaluate((el, t) => {
    const style = getComputedStyle(el);
    const ctx = document.createElement('canvas').getContext('2d')!;
    ctx.font = style.font;
    const room =
      el.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
    return ctx.measureText(t).width <= room;
  }, text);
}

export type Call = <T = unknown>(method: string, path: string, body?: unknown) => Promise<T>;

export interface Page_<T> {
  results: T[];
}

/** A player's session as the API lists it (the fields the tests read). */
export interface PlayerSession {
  playerSessionId: string;
  playerId: string;
  playerName: string;
  serviceId: string;
  disconnectTime: number | null;
}

/** Players the console would find by this name (current, former or survivor names). */
async function namesake(api: Call, name: string): Promise<number> {
  const page = await api<Page_<unknown>>('GET', `/sentinel/players?name=${encodeURIComponent(name)}`);
  return page.results.length;
}

/**
 * Someone playing on the server now, whose name is plain enough to type and theirs alone: the
 * simulator may give two players one name, and then the console rightly asks for the id.
 */
export async function onlinePlayer(api: Call, serviceId: string): Promise<PlayerSession> {
  let found: PlayerSession | undefined;
  await expect
    .poll(
      async () => {
        const page = await api<Page_<PlayerSession>>(
          'GET',
          `/sentinel/playerSessions?serviceId=${serviceId}&isConnected=true&pageSize=100`,
        );
        found = undefined;
        for (const s of page.results.filter((s) => /^[A-Za-z][A-Za-z0-9 ]+$/.test(s.playerName)))
          if ((await namesake(api, s.playerName)) === 1) {
            found = s;
            break;
          }
        return found !== undefined;
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  return found!;
}

/** A player, online or not, whose name is plain enough to type into the palette or a filter. */
export async function plainPlayer(api: Call): Promise<{ playerId: string; playerName: string }> {
  const players = await api<Page_<{ playerId: string; playerName: string }>>(
    'GET',
    '/sentinel/players?pageSize=50',
  );
  return players.results.find((p) => /^[A-Za-z][A-Za-z0-9 ]+$/.test(p.playerName))!;
}

/** The API as the signed-in console user, for setting the scene. */
export async function apiOf(page: Page): Promise<Call> {
  const token = await page.evaluate(
    () =>
      (JSON.parse(localStorage.getItem('palisade.auth') ?? '{}') as { access_token?: string }).access_token,
  );
  return async (method, path, body) => {
    const res = await page.request.fetch(`/v4${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}` },
      data: body,
    });
    expect(res.status(), `${method} ${path}: ${await res.text()}`).toBeLessThan(300);
    return (res.status() === 204 ? true : await res.json()) as never;
  };
}

export async function serverId(api: Call, name: string): Promise<string> {
  const page = await api<Page_<{ serviceId: string; displayName: string }>>('GET', '/sentinel/services');
  const s = page.results.find((x) => x.displayName === name);
  if (!s) throw new Error(`no server ${name}`);
  return s.serviceId;
}

/** The pane the user works in. */
export const activePane = (page: Page) => page.locator('[data-pane][data-active="true"]');

/** Types a line at the console pane's prompt, opening the pane first unless its prompt has focus. */
export async function consoleLine(page: Page, line: string): Promise<void> {
  const prompt = page.locator('[data-testid="terminal"] textarea');
  const focused =
    (await prompt.count()) > 0 && (await prompt.evaluate((el) => el === document.activeElement));
  // Ctrl+` reaches the console from anywhere, a text field included (` alone would be typed there).
  if (!focused) await page.keyboard.press('Control+Backquote');
  await expect(prompt).toBeFocused();
  await page.keyboard.type(line);
  await page.keyboard.press('Enter');
}

/** Opens a tab of the page in view (a server's, or the tabs `nav` names) by Tab and Enter. */
export async function openTab(page: Page, title: string, nav = 'Server tabs'): Promise<void> {
  const tab = page.getByRole('navigation', { name: nav }).getByRole('link', { name: title, exact: true });
  await tabTo(page, tab, 80);
  await page.keyboard.press('Enter');
}

/** Opens a server (or anything) by its name from the palette. */
export async function openFromPalette(page: Page, name: string): Promise<void> {
  await page.keyboard.press('Control+k');
  await page.keyboard.type(name);
  await expect(page.getByRole('option', { name: new RegExp(name) }).first()).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(activePane(page).locator('h1')).toContainText(name);
}

/**
 * Visible words of the product that read like code: camelCase humps (`keepUpdated`), `name:type`,
 * snake_case. What users wrote or named is left out: list cells, entity names (headings, the
 * breadcrumb, facts, links), fields' values, code and the console pane, whose text is theirs.
 */
export function codeWords(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const USER_TEXT =
      '[role=gridcell], [role=option], h1, nav[aria-label=Breadcrumb], dd, a, code, pre, kbd, input, textarea, select, [data-testid=terminal], .cm-editor, [contenteditable], [aria-hidden=true]';
    const CODE = [
      /\b[a-z]+[A-Z][A-Za-z]*\b/,
      /\b[a-z]\w*:(boolean|string|number|int|float|uuid|enum)\b/,
      /\b[a-z]+_[a-z_]+\b/,
    ];
    const found = new Set<string>();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || el.closest(USER_TEXT)) continue;
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || getComputedStyle(el).visibility === 'hidden') continue;
      const text = n.textContent ?? '';
      for (const re of CODE) {
        const m = re.exec(text);
        if (m) found.add(`${m[0]} (in "${text.trim().slice(0, 60)}")`);
      }
    }
    return [...found];
  });
}

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
// A run by tags leaves out axe's experimental rules; these check criteria of those levels too
// (2.5.3 Label in Name, 1.3.1 Info and Relationships, 1.3.4 Orientation).
const EXPERIMENTAL = [
  'label-content-name-mismatch',
  'p-as-heading',
  'table-fake-caption',
  'td-has-header',
  'css-orientation-lock',
];
const enabled = Object.fromEntries(EXPERIMENTAL.map((id) => [id, { enabled: true }]));
// Headless UI puts focus guards around a portalled popover (the columns menu): 1px aria-hidden
// buttons that hand focus on at once, which axe's maintainers agree are no barrier
// (dequelabs/axe-core#4832). Only they are left out of the check.
const FOCUS_GUARDS = '[id^="headlessui-focus-sentinel"]';

/** axe-core's serious and critical WCAG 2.1 A and AA violations on the page, each with where. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page })
    // In the page itself: the console has no frames, and the default way (a run per frame, then a
    // blank page opened to join the parts) costs a page and every rule's passes at each check. Only
    // violations are gathered, as only they are read.
    .setLegacyMode()
    .options({ rules: enabled, resultTypes: ['violations'] })
    .exclude(FOCUS_GUARDS)
    .withTags(TAGS)
    .analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help}${v.nodes
          .map((n) => `\n    ${n.target.join(' ')}: ${[...n.any, ...n.all, ...n.none][0]?.message ?? ''}`)
          .join('')}`,
    );
}
