import { expect, type Page, test } from '@playwright/test';
import {
  activePane,
  apiOf,
  consoleLine,
  openTab,
  type Page_,
  signIn,
  tabTo,
  terminalText,
} from './helpers.ts';

// Real servers over RCON, by keyboard, against the real server and the simulator, whose servers
// also answer RCON (scripts/e2e-server.mjs): add one as an RCON server from the server list's
// toolbar, see it connect, its players and chat arrive, ban a player from the console and see the
// kick; a wrong password shows RCON error with the reason, and never reaches the console history;
// the game server's RCON goes away and comes back, and its chat view loses and doubles no line.

const E2E_PORT = Number(process.env.E2E_PORT ?? 4179);
/** The simulated servers' RCON ports, in the order of the demo servers. */
const RCON_PORT = E2E_PORT + 1000;
const PASSWORD = 'sim-rcon-password';
/** The simulator's test-only control (src/sim/control.ts), which scripts/e2e-server.mjs starts. */
const CONTROL = `http://127.0.0.1:${E2E_PORT + 2000}`;

/** Answers the palette's prompt for the current argument. */
async function answer(page: Page, step: string, text: string) {
  const palette = page.getByRole('dialog', { name: 'Command palette' });
  await expect(palette).toContainText(`Add server › ${step}`);
  if (text) await page.keyboard.type(text);
  await page.keyboard.press('Enter');
}

test('add a simulated server as RCON: it connects, players and chat arrive, a console ban kicks', async ({
  page,
}) => {
  // Several waits of many seconds for the live game: more than the default on a busy machine.
  test.setTimeout(90_000);
  await signIn(page);
  const name = `RCON Island ${Date.now().toString(36).slice(-4)}`;
  await tabTo(
    page,
    page.getByRole('toolbar', { name: 'Servers' }).getByRole('button', { name: /Add server/ }),
  );
  await page.keyboard.press('Enter');
  await expect(page.getByRole('combobox', { name: /command palette/i })).toBeFocused();
  await answer(page, 'Name', name);
  await answer(page, 'Connection', 'rcon');
  await answer(page, 'RCON host', '127.0.0.1');
  await answer(page, 'RCON port', String(RCON_PORT));
  // Typed hidden.
  await expect(page.getByRole('dialog', { name: 'Command palette' })).toContainText(
    'Add server › RCON password',
  );
  await expect(page.getByRole('combobox', { name: /command palette/i })).toHaveAttribute('type', 'password');
  await answer(page, 'RCON password', PASSWORD);

  // The setup page of the new server follows its status live.
  await expect(activePane(page).locator('h1')).toContainText(`Set up ${name}`);
  const status = page.getByTestId('rcon-status').getByRole('status');
  await expect(status).toHaveText('Connected', { timeout: 15_000 });
  await expect(page.getByTestId('rcon-status')).toContainText(`RCON to 127.0.0.1:${RCON_PORT}`);

  // It is in the list, connected.
  await page.keyboard.press('g');
  await page.keyboard.press('s');
  const row = page.getByRole('grid', { name: 'Servers' }).getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText('Connected');

  // Its players and chat arrive.
  await page.keyboard.press('Control+k');
  await page.keyboard.type(name);
  await expect(page.getByRole('option', { name: new RegExp(name) }).first()).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(activePane(page).locator('h1')).toContainText(name);
  await openTab(page, 'Sessions');
  const sessions = page.getByRole('grid', { name: 'Player sessions' });
  await expect(sessions.getByRole('row').nth(1)).toBeVisible({ timeout: 15_000 });
  await openTab(page, 'Chat');
  await expect(
    page
      .getByRole('grid', { name: `Chat of ${name}` })
      .getByRole('row')
      .nth(1),
  ).toBeVisible({
    timeout: 20_000,
  });

  // A player online there now, shown in the list (it draws the rows in view, not all of them),
  // with a name theirs alone, banned from the console: RCON kicks them.
  const api = await apiOf(page);
  const services = await api<Page_<{ serviceId: string; displayName: string }>>('GET', '/sentinel/services');
  const serviceId = services.results.find((s) => s.displayName === name)!.serviceId;
  await openTab(page, 'Sessions');
  let victim: { playerId: string; playerName: string } | undefined;
  await expect
    .poll(async () => {
      const shown = await sessions.getByRole('row').filter({ hasText: 'Yes' }).all();
      for (const row of shown) {
        const playerName = (await row.getByRole('gridcell').first().innerText()).trim();
        if (!/^[A-Za-z][A-Za-z0-9 ]+$/.test(playerName)) continue;
        const same = await api<Page_<{ playerId: string }>>(
          'GET',
          `/sentinel/players?name=${encodeURIComponent(playerName)}`,
        );
        if (same.results.length === 1) {
          victim = { playerId: same.results[0].playerId, playerName };
          return true;
        }
      }
      return false;
    })
    .toBe(true);
  // Found connected by the poll: asked again here, a simulated player who left meanwhile failed it.
  const victimRow = sessions.getByRole('row', { name: new RegExp(`^${victim!.playerName}`) });
  await consoleLine(page, `ban "${victim!.playerName}" 1d griefing`);
  await expect.poll(() => terminalText(page)).toContain('Created 1 ban.');
  await expect(victimRow).toHaveCount(0, { timeout: 15_000 });
  await expect
    .poll(
      async () =>
        (
          await api<Page_<unknown>>(
            'GET',
            `/sentinel/playerSessions?playerId=${victim!.playerId}&serviceId=${serviceId}&isConnected=true`,
          )
        ).results.length,
    )
    .toBe(0);
});

test('a wrong RCON password shows RCON error with the reason, stays out of the console history, and is corrected in the settings', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signIn(page);
  const name = `Wrong Door ${Date.now().toString(36).slice(-4)}`;
  await consoleLine(page, `server.add "${name}" rcon 127.0.0.1 ${RCON_PORT + 1} not-the-password`);
  await expect.poll(() => terminalText(page)).toContain(`${name} was added.`);
  await page.keyboard.press('Control+Backquote');
  const row = page.getByRole('grid', { name: 'Servers' }).getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText(
    "RCON error: Wrong RCON password: the server refused it (it is the server's ServerAdminPassword).",
    {
      timeout: 15_000,
    },
  );
  const history = await page.evaluate(() =>
    Object.keys(localStorage)
      .filter((k) => k.startsWith('palisade.history.'))
      .flatMap((k) => JSON.parse(localStorage.getItem(k) ?? '[]') as string[]),
  );
  expect(history).toContain(`server.add "${name}" rcon 127.0.0.1 ${RCON_PORT + 1} ********`);
  expect(history.join('\n')).not.toContain('not-the-password');
  // The console's scrollback shows it masked too.
  expect(await terminalText(page)).not.toContain('not-the-password');

  // Corrected in the server's settings: the field says a password is stored but never shows it.
  await page.keyboard.press('Control+k');
  await page.keyboard.type(name);
  await expect(page.getByRole('option', { name: new RegExp(name) }).first()).toBeVisible();
  await page.keyboard.press('Enter');
  await openTab(page, 'Settings');
  const rcon = page.getByRole('form', { name: 'RCON connection' });
  await expect(page.getByTestId('rcon-password-state')).toHaveText(
    'A password is stored. It is never shown; type a new one to replace it.',
  );
  const password = rcon.getByLabel('RCON password');
  await expect(password).toHaveValue('');
  await expect(password).toHaveAttribute('type', 'password');
  await tabTo(page, password, 120);
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press('Enter');
  await expect(rcon.getByRole('status')).toHaveText(`The RCON password of ${name} was replaced.`);
  await expect(password).toHaveValue('');
  await expect(activePane(page).locator('.server-header .status')).toHaveText('Connected', {
    timeout: 20_000,
  });
});

/** Asks the simulator's control to act on one simulated server. */
async function control(page: Page, server: number, action: string, data?: unknown) {
  const res = await page.request.post(`${CONTROL}/servers/${server}/${action}`, { data });
  expect(res.status(), await res.text()).toBe(204);
}

test('the game server’s RCON goes away and comes back: its chat view loses and doubles no line', async ({
  page,
}) => {
  test.setTimeout(120_000);
  // The third simulated server: the other tests' RCON servers poll the first two, and the game
  // hands each chat line to one poller only.
  const game = 2;
  const tag = Date.now().toString(36).slice(-5);
  const name = `Restart Isle ${tag}`;
  await signIn(page);
  await consoleLine(page, `server.add "${name}" rcon 127.0.0.1 ${RCON_PORT + game} ${PASSWORD}`);
  await expect.poll(() => terminalText(page)).toContain(`${name} was added.`);
  await page.keyboard.press('Control+Backquote');
  await page.keyboard.press('Control+k');
  await page.keyboard.type(name);
  await expect(page.getByRole('option', { name: new RegExp(name) }).first()).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(activePane(page).locator('h1')).toContainText(name);
  // The header follows the connection live.
  const status = activePane(page).locator('.server-header .status');
  await expect(status).toHaveText('Connected', { timeout: 15_000 });

  await openTab(page, 'Chat');
  const chat = page.getByRole('grid', { name: `Chat of ${name}` });
  const message = page.getByRole('textbox', { name: 'Message' });
  const lines = {
    said: (when: string) => `${when} ${tag}, said in game`,
    typed: (when: string) => `${when} ${tag}, typed here`,
  };
  /** Sends the message box's line by keyboard. */
  const send = async (text?: string) => {
    await tabTo(page, message, 80);
    if (text !== undefined) {
      await page.keyboard.press('Control+a');
      await page.keyboard.type(text);
    }
    await page.keyboard.press('Enter');
  };

  // Before: a player's line and one typed here both arrive.
  await control(page, game, 'chat', { senderName: 'Wanderer', message: lines.said('before') });
  await send(lines.typed('before'));
  await expect(chat.getByRole('row', { name: new RegExp(lines.typed('before')) })).toHaveCount(1, {
    timeout: 20_000,
  });

  // The game server's RCON goes away.
  await control(page, game, 'rcon/stop');
  await expect(status).not.toHaveText('Connected', { timeout: 20_000 });
  // Meanwhile a player talks (the game keeps it for the next poll), and a line typed here is
  // refused, not lost: it stays in the box.
  await control(page, game, 'chat', { senderName: 'Wanderer', message: lines.said('during') });
  await send(lines.typed('during'));
  await expect(page.getByRole('form', { name: `Send chat to ${name}` }).getByRole('alert')).toContainText(
    'The server is disconnected.',
  );
  await expect(message).toHaveValue(lines.typed('during'));

  // It comes back; the line kept in the box goes now, and more is said after.
  await control(page, game, 'rcon/start');
  await expect(status).toHaveText('Connected', { timeout: 30_000 });
  await expect(message).toHaveValue(lines.typed('during'));
  await send();
  await expect(message).toHaveValue('');
  await control(page, game, 'chat', { senderName: 'Wanderer', message: lines.said('after') });
  await send(lines.typed('after'));

  // Every line shows, once: filtered by the tag, so each is on screen whatever else is said.
  await tabTo(page, chat, 80);
  await page.keyboard.press('/');
  await page.keyboard.type(tag);
  const all = ['before', 'during', 'after'].flatMap((when) => [lines.said(when), lines.typed(when)]);
  for (const text of all)
    await expect(chat.getByRole('row', { name: new RegExp(text) })).toHaveCount(1, { timeout: 20_000 });
  // A later poll brings nothing twice.
  await page.waitForTimeout(3_000);
  for (const text of all) await expect(chat.getByRole('row', { name: new RegExp(text) })).toHaveCount(1);
  await expect(chat.getByRole('row', { name: new RegExp(tag) })).toHaveCount(all.length);
});
