import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { getDefaultStore } from 'jotai';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { text } from '../../commands/args.ts';
import type { CommandContext } from '../../commands/context.ts';
import { createRegistry } from '../../commands/index.ts';
import { defineCommand, Registry } from '../../commands/registry.ts';
import { Shortcuts } from '../../src/web/app/Dialogs.tsx';
import { type CommandRuntime, CommandRuntimeContext } from '../../src/web/app/runtime.ts';
import { paletteAtom } from '../../src/web/palette/state.ts';
import { ConfirmDialog, InfoDialog } from '../../src/web/ui/Dialog.tsx';
import { Toolbar } from '../../src/web/ui/Toolbar.tsx';

afterEach(cleanup);

/** A button that opens the dialog, so focus restoration can be checked. */
function ConfirmHarness({ onResult }: { onResult(ok: boolean): void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Remove
      </button>
      <ConfirmDialog
        open={open}
        message="Remove server Alpha?"
        onResult={(ok) => {
          setOpen(false);
          onResult(ok);
        }}
      />
    </>
  );
}

describe('ConfirmDialog', () => {
  it('focuses OK, answers true on OK and false on Esc, and gives focus back', async () => {
    const user = userEvent.setup();
    const onResult = vi.fn();
    render(<ConfirmHarness onResult={onResult} />);
    const opener = screen.getByRole('button', { name: 'Remove' });
    await user.click(opener);
    const dialog = await screen.findByRole('dialog', { name: 'Are you sure?' });
    expect(dialog.textContent).toContain('Remove server Alpha?');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'OK' }));
    await user.keyboard('{Escape}');
    expect(onResult).toHaveBeenLastCalledWith(false);
    expect(screen.queryByRole('dialog')).toBeNull();
    await vi.waitFor(() => expect(document.activeElement).toBe(opener));
    await user.click(opener);
    await user.click(await screen.findByRole('button', { name: 'OK' }));
    expect(onResult).toHaveBeenLastCalledWith(true);
  });
});

describe('InfoDialog', () => {
  it('shows key/value rows, each value copyable', async () => {
    const user = userEvent.setup();
    const copy = vi.fn(async () => {});
    render(
      <InfoDialog
        open
        title="User info"
        rows={[
          ['User id', 'u-123'],
          ['Device id', 'd-456'],
        ]}
        onClose={() => {}}
        copy={copy}
      />,
    );
    expect(screen.getByRole('dialog', { name: 'User info' }).textContent).toContain('d-456');
    await user.click(screen.getByRole('button', { name: 'Copy Device id' }));
    expect(copy).toHaveBeenCalledWith('d-456');
    expect(screen.getByRole('button', { name: 'Copy Device id' }).textContent).toBe('Copied');
  });

  it('says None for an empty value, with no Copy that would copy nothing', () => {
    render(
      <InfoDialog
        open
        title="Account"
        rows={[
          ['Username', 'Ann#1a2b3c4d'],
          ['Public key', ''],
        ]}
        onClose={() => {}}
      />,
    );
    expect(screen.getByRole('button', { name: 'Copy Username' })).toBeDefined();
    expect(screen.queryByRole('button', { name: 'Copy Public key' })).toBeNull();
    expect(screen.getByText('Public key').nextElementSibling?.textContent).toBe('None');
  });
});

describe('Shortcuts', () => {
  it('lists every key of the console by scope, the keys lists handle themselves included', async () => {
    const registry = createRegistry();
    render(
      <CommandRuntimeContext.Provider value={{ registry } as unknown as CommandRuntime}>
        <Shortcuts onClose={() => undefined} />
      </CommandRuntimeContext.Provider>,
    );
    const table = (caption: string) => screen.getByText(caption).closest('table')!;
    const row = (caption: string, title: string) =>
      [...table(caption).querySelectorAll('tr')].find((r) => r.cells[1]?.textContent === title);
    expect(row('Anywhere', 'Open command palette')?.cells[0].textContent).toBe('Ctrl+K');
    expect(row('Anywhere', 'Go to Players')?.cells[0].textContent).toBe('G then P');
    expect(row('In lists', 'Next row')?.cells[0].textContent).toBe('↓J');
    expect(row('In lists', 'Mark on to the next row')?.cells[0].textContent).toBe('Shift+↓Shift+J');
    expect(row('In lists', 'Filter the list')?.cells[0].textContent).toBe('/');
    expect(row('In lists', 'Row menu')?.cells[0].textContent).toBe('Shift+F10Menu');
    const listed = [...document.querySelectorAll('tbody tr')].length;
    const keyed = registry.all().filter((c) => c.keys?.length).length + registry.reserved().length;
    expect(listed).toBe(keyed);
    await userEvent.setup().type(screen.getByRole('textbox', { name: 'Search shortcuts' }), 'mark');
    expect(screen.queryByText('Anywhere')).toBeNull();
    expect(row('In lists', 'Mark on to the first row')).toBeDefined();
  });
});

describe('Toolbar', () => {
  it('shows each command with its key, explains why one is disabled, runs the enabled one', async () => {
    const user = userEvent.setup();
    const registry = new Registry().register(
      defineCommand({
        id: 'a.refresh',
        title: 'Refresh',
        group: 'X',
        keys: ['r'],
        scope: 'list',
        run: () => undefined,
      }),
      defineCommand({
        id: 'a.revive',
        title: 'Revive',
        group: 'X',
        enabled: () => 'Select a dead dino first',
        run: () => undefined,
      }),
      defineCommand({
        id: 'a.locate',
        title: 'Locate',
        group: 'X',
        args: { dino: text() },
        run: () => undefined,
      }),
    );
    const paletteOpen = vi.fn();
    const ctx = {
      selection: { kind: null, ids: [] },
      permissions: () => null,
      app: { palette: { open: paletteOpen } },
    };
    const runtime = {
      registry,
      context: () => ctx as unknown as CommandContext,
      run: vi.fn(async () => undefined),
    } as unknown as CommandRuntime;
    render(
      <CommandRuntimeContext.Provider value={runtime}>
        <Toolbar label="Dinos" commandIds={['a.refresh', 'a.revive', 'a.locate', 'missing']} />
      </CommandRuntimeContext.Provider>,
    );
    const bar = screen.getByRole('toolbar', { name: 'Dinos' });
    expect([...bar.querySelectorAll('button')].map((b) => b.textContent)).toEqual([
      'RefreshR',
      'Revive',
      'Locate',
    ]);
    const revive = screen.getByRole('button', { name: 'Revive' });
    expect(revive.getAttribute('aria-disabled')).toBe('true');
    expect(screen.getByRole('tooltip', { hidden: true }).textContent).toBe('Select a dead dino first');
    expect(revive.getAttribute('aria-describedby')).toBe(screen.getByRole('tooltip', { hidden: true }).id);
    await user.click(revive);
    expect(runtime.run).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: /Refresh/ }));
    expect(runtime.run).toHaveBeenCalledWith(registry.get('a.refresh'), {}, 'toolbar');
    // A missing argument: the palette opens at the command itself, not merely searching its title.
    await user.click(screen.getByRole('button', { name: 'Locate' }));
    expect(paletteOpen).not.toHaveBeenCalled();
    expect(getDefaultStore().get(paletteAtom)).toMatchObject({
      open: true,
      pending: { commandId: 'a.locate' },
    });
  });
});
