// The note form (SPEC §5: both messages; a refused draft is kept) and "Edit ban" handed from a
// ban row to the palette, which asks only for what the row does not know.

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore, Provider } from 'jotai';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EntityRef } from '../../commands/args.ts';
import { createRegistry } from '../../commands/index.ts';
import type { Command } from '../../commands/registry.ts';
import { Msg } from '../../src/domain/messages.ts';
import type { Http } from '../../src/web/api/http.ts';
import { createSentinelApi } from '../../src/web/api/sentinel.ts';
import type { AppDeps } from '../../src/web/app/deps.tsx';
import { AppDepsContext } from '../../src/web/app/deps.tsx';
import { CommandRuntimeContext } from '../../src/web/app/runtime.ts';
import { Palette } from '../../src/web/palette/Palette.tsx';
import { openPaletteAt } from '../../src/web/palette/state.ts';
import { NotesTab } from '../../src/web/views/players/NotesTab.tsx';
import { fakeCommandRuntime } from './commandRuntime-fixture.ts';

afterEach(cleanup);

const registry = createRegistry();

function harness(run: (cmd: Command, values: Record<string, unknown>) => Promise<unknown>) {
  const store = createStore();
  const runtime = fakeCommandRuntime(registry, '/players/p-bob/notes', run);
  const http = vi.fn(async () => ({ results: [] }));
  const deps = {
    api: createSentinelApi(http as Http),
    registry,
    store,
    realtime: null,
  } as unknown as AppDeps;
  const wrap = (ui: ReactNode) => (
    <Provider store={store}>
      <QueryClientProvider client={new QueryClient()}>
        <AppDepsContext.Provider value={deps}>
          <CommandRuntimeContext.Provider value={runtime}>{ui}</CommandRuntimeContext.Provider>
        </AppDepsContext.Provider>
      </QueryClientProvider>
    </Provider>
  );
  return { store, runtime, wrap, user: userEvent.setup() };
}

describe('note form', () => {
  it('shows both messages, keeps a refused draft, and sends the note through player.addNote', async () => {
    let refuse = true;
    const { runtime, wrap, user } = harness(async () => {
      if (refuse) throw new Error('The server is away.');
      return { message: 'Note added.' };
    });
    render(wrap(<NotesTab playerId="p-bob" />));
    await user.click(screen.getByRole('button', { name: 'Add note' }));
    const note = screen.getByRole('textbox', { name: 'Note' });
    expect(document.activeElement).toBe(note);

    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(screen.getByRole('alert').textContent).toBe(Msg.noteEmpty);
    await user.keyboard('meh{Control>}{Enter}{/Control}');
    expect(screen.getByRole('alert').textContent).toBe(Msg.noteShort);
    expect(note).toHaveProperty('value', 'meh');
    expect(runtime.run).not.toHaveBeenCalled();

    // The server refuses: the reason shows and the draft stays as typed.
    await user.keyboard(' — raided the north base{Control>}{Enter}{/Control}');
    expect((await screen.findByRole('alert')).textContent).toBe('The server is away.');
    expect(note).toHaveProperty('value', 'meh — raided the north base');
    expect(runtime.run).toHaveBeenCalledWith(
      registry.get('player.addNote'),
      { player: { kind: 'player', id: 'p-bob', label: 'p-bob' }, content: 'meh — raided the north base' },
      'toolbar',
    );

    refuse = false;
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(await screen.findByRole('button', { name: 'Add note' })).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Note' })).toBeNull();
  });
});

describe('Edit ban from a row', () => {
  it('opens the palette at the command with the row’s player and server, asking for expiry and comments', async () => {
    const { store, runtime, wrap, user } = harness(async () => undefined);
    render(wrap(<Palette />));
    const bob: EntityRef = { kind: 'player', id: 'p-bob', label: 'Bob' };
    const island: EntityRef = { kind: 'server', id: 's-island', label: 'Island PvE' };
    act(() => openPaletteAt(store, 'ban.edit', { player: bob, target: island }));

    expect(screen.getByText(/Edit ban › Expires/).textContent).toContain('1/2');
    await user.keyboard('{Enter}'); // blank keeps the expiry
    expect(screen.getByText(/Edit ban › Comments/).textContent).toContain('2/2');
    await user.keyboard('{Enter}');
    expect(screen.getByRole('alert').textContent).toBe('Say why the player is banned.');
    await user.keyboard('calmer now{Enter}');
    expect(runtime.run).toHaveBeenCalledWith(
      registry.get('ban.edit'),
      { player: bob, target: island, expires: undefined, comments: 'calmer now' },
      'palette',
    );
  });
});
