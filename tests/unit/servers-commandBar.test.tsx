// The server page's command line shows the game's answer in full, as the console does.

import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it } from 'vitest';
import type { CommandResult } from '../../commands/context.ts';
import { createRegistry } from '../../commands/index.ts';
import { CommandRuntimeContext } from '../../src/web/app/runtime.ts';
import { ServerCommandBar } from '../../src/web/views/servers/ServerCommandBar.tsx';
import { fakeCommandRuntime } from './commandRuntime-fixture.ts';

afterEach(cleanup);

it('shows every line of the answer, and why a server failed', async () => {
  const answer =
    '0. Kai Tamer, 000232a1e12692f36e6ae5765b3c4d21\n1. Mira Stone, 0002ffee00112233445566778899aabb';
  const result: CommandResult = {
    message: 'Sent to 1 of 2 servers.',
    sections: [
      { heading: 'Island PvE', text: answer },
      { heading: 'Scorched PvP: failed', text: 'The server is not connected.', failed: true },
    ],
  };
  const runtime = fakeCommandRuntime(createRegistry(), '/servers/s-island', async () => result);
  render(
    <CommandRuntimeContext.Provider value={runtime}>
      <ServerCommandBar serviceId="s-island" label="Island PvE" />
    </CommandRuntimeContext.Provider>,
  );
  const user = userEvent.setup();
  await user.type(screen.getByRole('textbox', { name: 'Command' }), 'listplayers{Enter}');
  const output = await screen.findByRole('status', { name: 'Command result' });
  expect(output.textContent).toContain('Sent to 1 of 2 servers.');
  const island = screen.getByRole('region', { name: 'Island PvE' });
  expect(island.querySelector('pre')?.textContent).toBe(answer);
  const scorched = screen.getByRole('region', { name: 'Scorched PvP: failed' });
  expect(scorched.textContent).toContain('Scorched PvP: failed');
  expect(scorched.querySelector('pre')?.textContent).toBe('The server is not connected.');
});
