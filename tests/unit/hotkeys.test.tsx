import { cleanup, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore, Provider } from 'jotai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRegistry } from '../../commands/index.ts';
import { GlobalHotkeys } from '../../src/web/app/Hotkeys.tsx';
import type { KeyPress } from '../../src/web/terminal/shellKeys.ts';
import { keyNames } from '../../src/web/ui/keyNames.ts';
import { fakeCommandRuntime } from './commandRuntime-fixture.ts';

afterEach(cleanup);

function setup() {
  const runtime = fakeCommandRuntime(createRegistry(), '/servers');
  render(
    <Provider store={createStore()}>
      <GlobalHotkeys rt={runtime} />
      <input aria-label="Field" />
    </Provider>,
  );
  const ran = () => vi.mocked(runtime.run).mock.calls.map(([cmd]) => cmd.id);
  return { user: userEvent.setup(), ran };
}

describe('the global key dispatcher', () => {
  it('runs chords, sequences and typed characters from the registry', async () => {
    const { user, ran } = setup();
    await user.keyboard('{Control>}k{/Control}');
    await user.keyboard('gp');
    await user.keyboard('?');
    await user.keyboard('{F6}');
    expect(ran()).toEqual(['ui.palette', 'nav.players', 'ui.shortcuts', 'ui.pane.focusNext']);
  });

  it('leaves plain keys to a text field, not chords, and forgets a sequence not finished', async () => {
    const { user, ran } = setup();
    await user.click(document.querySelector('input')!);
    await user.keyboard('gs?');
    expect(ran()).toEqual([]);
    // Ctrl+Z undoes the field's text, not a command (its keysInFields says so).
    await user.keyboard('{Control>}z{/Control}{F6}{Control>}[Backquote]{/Control}');
    expect(ran()).toEqual(['ui.pane.focusNext', 'ui.console.toggle']);
    (document.activeElement as HTMLElement).blur();
    await user.keyboard('gqs{Control>}z{/Control}');
    expect(ran()).toEqual(['ui.pane.focusNext', 'ui.console.toggle', 'ui.undo']);
  });
});

describe('key names', () => {
  const press = (key: string, code: string, mods: Partial<KeyPress> = {}): KeyPress => ({
    key,
    code,
    ctrlKey: false,
    altKey: false,
    metaKey: false,
    shiftKey: false,
    ...mods,
  });
  it('names a plain key by what it types and a chord by the physical key, most specific first', () => {
    // AZERTY: the key in QWERTY's Q place types `a`.
    expect(keyNames(press('a', 'KeyQ'), false)[0]).toBe('a');
    expect(keyNames(press('a', 'KeyQ', { ctrlKey: true }), false)).toEqual([
      'ctrl+q',
      'a+ctrl',
      'mod+q',
      'a+mod',
    ]);
    expect(keyNames(press('J', 'KeyJ', { shiftKey: true }), false)).toEqual(['j+shift', 'j']);
    expect(keyNames(press('?', 'Slash', { shiftKey: true }), false)).toEqual(['?+shift', 'shift+slash', '?']);
  });

  it('spells the command key mod on each platform, and Ctrl as itself on Apple', () => {
    expect(keyNames(press('k', 'KeyK', { metaKey: true }), true)).toContain('k+mod');
    expect(keyNames(press('k', 'KeyK', { metaKey: true }), false)).not.toContain('k+mod');
    expect(keyNames(press('`', 'Backquote', { ctrlKey: true }), true)).toContain('backquote+ctrl');
    expect(keyNames(press('`', 'Backquote', { ctrlKey: true }), true)).not.toContain('backquote+mod');
  });
});
