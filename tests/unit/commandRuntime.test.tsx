// The runtime's part of every command, whatever surface ran it. Undo (DESIGN.md): its undo is on
// the toast and ui.undo (Ctrl+Z, `undo` in the console) runs it. Refusals for permissions read as
// SPEC §8 says. Answers to read in full are never cut to a toast.

import { QueryClient } from '@tanstack/react-query';
import { createStore } from 'jotai';
import { describe, expect, it, vi } from 'vitest';
import type { CommandResult } from '../../commands/context.ts';
import { createRegistry } from '../../commands/index.ts';
import { defineCommand } from '../../commands/registry.ts';
import { Msg } from '../../src/domain/messages.ts';
import { ApiError } from '../../src/web/api/http.ts';
import { createCommandRuntime } from '../../src/web/app/commandRuntime.ts';
import type { AppDeps } from '../../src/web/app/deps.tsx';
import { dialogAtom, toastsAtom, undoAtom } from '../../src/web/app/state.ts';
import { EntityIndex } from '../../src/web/store/entityIndex.ts';

function runtimeWith(result: () => Promise<CommandResult>) {
  const registry = createRegistry();
  const act = defineCommand({ id: 'test.remove', title: 'Remove thing', group: 'Test', run: result });
  registry.register(act);
  const store = createStore();
  const deps = {
    config: {},
    auth: { state: { status: 'signedOut' } },
    registry,
    index: new EntityIndex(),
    store,
    queryClient: new QueryClient(),
    realtime: null,
  } as unknown as AppDeps;
  const rt = createCommandRuntime(deps, { search: () => [], resolve: async () => [] });
  return { rt, store, act, undoCmd: registry.get('ui.undo')! };
}

describe('undo in the runtime', () => {
  it('offers Undo on the toast of a menu command, and ui.undo undoes it from another surface', async () => {
    const undo = vi.fn(async () => {});
    const { rt, store, act, undoCmd } = runtimeWith(async () => ({ message: 'Removed 1 thing.', undo }));
    expect(rt.context('hotkey').app.undo.available()).toBe(false);
    await expect(rt.run(undoCmd, {}, 'hotkey')).rejects.toThrow('Nothing to undo');

    await rt.run(act, {}, 'menu');
    const toast = store.get(toastsAtom).at(-1)!;
    expect(toast).toMatchObject({ kind: 'success', summary: 'Removed 1 thing.', action: { label: 'Undo' } });
    expect(store.get(undoAtom)?.title).toBe('Remove thing');

    const done = await rt.run(undoCmd, {}, 'hotkey');
    expect(undo).toHaveBeenCalledTimes(1);
    expect(done?.message).toBe('Undone: Remove thing.');
    expect(store.get(undoAtom)).toBeNull();
    // Once undone, there is nothing left to undo.
    await expect(rt.run(undoCmd, {}, 'console')).rejects.toThrow('Nothing to undo');
    expect(undo).toHaveBeenCalledTimes(1);
  });

  it('undoes from the toast’s button as well', async () => {
    const undo = vi.fn(async () => {});
    const { rt, store, act } = runtimeWith(async () => ({ message: 'Removed.', undo }));
    await rt.run(act, {}, 'toolbar');
    store.get(toastsAtom).at(-1)!.action!.run();
    await vi.waitFor(() => expect(store.get(toastsAtom).at(-1)?.summary).toBe('Undone: Remove thing.'));
    expect(undo).toHaveBeenCalledTimes(1);
  });

  it('a 403 from the API reads as the spec’s refusal, the server’s reason kept', async () => {
    const { rt, store, act } = runtimeWith(async () => {
      throw new ApiError(
        'Forbidden',
        'forbidden',
        403,
        'You do not have the correct permissions on service s1',
      );
    });
    await expect(rt.run(act, {}, 'menu')).rejects.toMatchObject({ message: Msg.noPermission });
    expect(store.get(toastsAtom).at(-1)).toMatchObject({
      kind: 'error',
      summary: `Remove thing: ${Msg.noPermission}`,
      reason: 'You do not have the correct permissions on service s1',
    });
  });
});

describe('answers in full', () => {
  const sections = [
    { heading: 'Island PvE', text: '0. Kai Tamer, 000232a1e12692f36e6ae5765b3c4d21' },
    { heading: 'Scorched PvP: failed', text: 'The server is not connected.', failed: true },
  ];

  it('open in the info dialog, the message its first row, and nothing else, when run from the palette', async () => {
    const { rt, store, act } = runtimeWith(async () => ({ message: 'Sent to 1 of 2 servers.', sections }));
    const toasts = store.get(toastsAtom).length;
    await rt.run(act, {}, 'palette');
    // Shown once: no toast repeats what the dialog says.
    expect(store.get(toastsAtom)).toHaveLength(toasts);
    expect(store.get(dialogAtom)).toEqual({
      type: 'info',
      title: 'Remove thing',
      rows: [['Result', 'Sent to 1 of 2 servers.'], ...sections.map((s) => [s.heading, s.text])],
    });
  });

  it('are left to a box on the page that shows them under itself', async () => {
    const { rt, store, act } = runtimeWith(async () => ({ message: 'Sent.', sections }));
    const toasts = store.get(toastsAtom).length;
    await rt.run(act, {}, 'toolbar', { shownHere: true });
    expect(store.get(dialogAtom)).toBeNull();
    expect(store.get(toastsAtom)).toHaveLength(toasts);
  });

  it('are left to the console pane, which prints them itself', async () => {
    const { rt, store, act } = runtimeWith(async () => ({ message: 'Sent.', sections }));
    await rt.run(act, {}, 'console');
    expect(store.get(dialogAtom)).toBeNull();
  });
});
