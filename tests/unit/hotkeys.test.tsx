import { cleanup, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore, Provider } from 'jotai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRegistry } from '../../commands/index.ts';
import { GlobalHotkeys } from '../../src/web/app/Hotkeys.tsx';
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
    await user.keyboard('{F6}{Control>}[Backquote]{/Control}');
    expect(ran()).toEqual(['ui.pane.focusNext', 'ui.console.toggle']);
    (document.activeElement as HTMLElement).blur();
    await user.keyboard('gxs');
    expect(ran()).toEqual(['ui.pane.focusNext', 'ui.console.toggle']);
  });
});
