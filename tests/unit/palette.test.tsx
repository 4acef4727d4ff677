import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore, Provider } from 'jotai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type EntityLookup, type EntityRef, int, ref, text } from '../../commands/args.ts';
import type { AppServices, CommandContext, Surface } from '../../commands/context.ts';
import { type Command, defineCommand, execute, Registry } from '../../commands/registry.ts';
import { ApiError } from '../../src/web/api/http.ts';
import { type CommandRuntime, CommandRuntimeContext } from '../../src/web/app/runtime.ts';
import { Palette } from '../../src/web/palette/Palette.tsx';
import { commandRow, entityRow } from '../../src/web/palette/rows.ts';
import { openPalette, paletteAtom } from '../../src/web/palette/state.ts';
import { warmRows } from '../../src/web/palette/warmRows.tsx';
import { EntityIndex } from '../../src/web/store/entityIndex.ts';

const rex15: EntityRef = {
  kind: 'dino',
  id: 'd15',
  label: 'Rex 15 (Lvl 150)',
  detail: 'Tribe of Bob — The Island',
};
const entities: EntityRef[] = [
  rex15,
  { kind: 'dino', id: 'd16', label: 'Rex 16 (Lvl 20)', detail: 'Tribe of Alice — Ragnarok' },
  { kind: 'dino', id: 'd17', label: 'Giga 3 (Lvl 300)', detail: 'Tribe of Bob — Aberration' },
  { kind: 'player', id: 'p1', label: 'Bob', detail: 'EOS 0002' },
];

const navOpen = defineCommand({
  id: 'nav.open',
  title: 'Open',
  group: 'Navigation',
  args: { target: ref('server', 'player', 'dino') },
  run: () => undefined,
});
const setLevel = defineCommand({
  id: 'dino.setLevel',
  title: 'Set dino level',
  group: 'Dinos',
  args: {
    dino: ref('dino').describe('Dino'),
    level: int({ min: 1, max: 450 }).describe('Level', 'Between 1 and 450.'),
    note: text().optional().describe('Note'),
  },
  keys: ['mod+l'],
  run: () => undefined,
});
const kick = defineCommand({
  id: 'player.kick',
  title: 'Kick player',
  group: 'Players',
  enabled: () => 'Needs the control permission',
  run: () => undefined,
});
const refresh = defineCommand({
  id: 'ui.list.refresh',
  title: 'Refresh list',
  group: 'UI',
  run: () => undefined,
});
const hidden = defineCommand({
  id: 'ui.hidden',
  title: 'Hidden thing',
  group: 'UI',
  when: () => false,
  run: () => undefined,
});

interface Fake {
  runtime: CommandRuntime;
  run: ReturnType<typeof vi.fn>;
}

function fakeRuntime(
  opts: { selection?: EntityRef['kind']; recent?: string[]; fail?: unknown; form?: () => void } = {},
): Fake {
  const registry = new Registry().register(navOpen, refresh, setLevel, kick, hidden);
  const index = new EntityIndex();
  index.upsert(entities);
  const entitiesLookup: EntityLookup = {
    search: () => [],
    resolve: async (kinds, t) =>
      index
        .all()
        .filter((e) => kinds.includes(e.kind) && (e.id === t || e.label.toLowerCase() === t.toLowerCase())),
  };
  const context = (surface: Surface): CommandContext => ({
    route: '/',
    selection: { kind: opts.selection ?? null, ids: [] },
    user: null,
    surface,
    entities: entitiesLookup,
    app: { dialogs: { form: opts.form } } as unknown as AppServices,
    permissions: () => null,
  });
  const run = vi.fn(async (cmd: Command, values: Record<string, unknown>, surface: Surface) => {
    if (opts.fail) throw opts.fail;
    return execute(cmd, values, context(surface));
  });
  return {
    run,
    runtime: { registry, entities: entitiesLookup, index, context, run, recent: () => opts.recent ?? [] },
  };
}

function mount(fake: Fake, query = '') {
  const store = createStore();
  const user = userEvent.setup();
  const utils = render(
    <Provider store={store}>
      <CommandRuntimeContext.Provider value={fake.runtime}>
        <button type="button">before</button>
        <Palette />
      </CommandRuntimeContext.Provider>
    </Provider>,
  );
  screen.getByRole('button', { name: 'before' }).focus();
  act(() => openPalette(store, query));
  return { ...utils, store, user, input: screen.getByRole('combobox') as HTMLInputElement };
}

const optionTexts = () => screen.queryAllByRole('option').map((o) => o.textContent ?? '');
const activeText = () => document.querySelector('[role=option][aria-selected=true]')?.textContent ?? '';

describe('Palette', () => {
  let fake: Fake;
  beforeEach(() => {
    fake = fakeRuntime();
  });
  afterEach(cleanup);

  it('lists visible commands, the selection’s first, then recent ones, with keys and disabled reasons', () => {
    mount(fakeRuntime({ selection: 'player', recent: ['dino.setLevel'] }));
    const texts = optionTexts();
    expect(texts.map((t) => t.split(/Needs|Navigation|Dinos|Players|UI/)[0])).toEqual([
      'Open', // takes a player ref
      'Kick player', // player.* id
      'Set dino level', // recent
      'Refresh list',
    ]);
    expect(texts.join()).not.toContain('Hidden thing');
    const kickRow = screen.getByRole('option', { name: /Kick player/ });
    expect(kickRow.getAttribute('aria-disabled')).toBe('true');
    expect(kickRow.textContent).toContain('Needs the control permission');
    expect(screen.getByRole('option', { name: /Set dino level/ }).querySelector('kbd')?.textContent).toBe(
      'Ctrl+L',
    );
  });

  it('does not run a disabled command and says why', async () => {
    const { user } = mount(fakeRuntime({ selection: 'player' }));
    await user.keyboard('{ArrowDown}{Enter}');
    expect(fake.run).not.toHaveBeenCalled();
    expect(screen.getByRole('alert').textContent).toBe('Needs the control permission');
  });

  it('filters commands and entities with uFuzzy, commands first, entities with kind badges', async () => {
    const { user, input } = mount(fake);
    await user.type(input, 'rex 15');
    expect(optionTexts()).toEqual(['Rex 15 (Lvl 150)Tribe of Bob — The Islanddino']);
    await user.clear(input);
    await user.type(input, 'bob');
    const texts = optionTexts();
    expect(texts).toHaveLength(3);
    expect(texts.every((t) => t.includes('Bob'))).toBe(true);
    await user.clear(input);
    await user.type(input, 'level');
    expect(optionTexts()[0]).toMatch(/^Set dino level/);
    expect(optionTexts()).toHaveLength(1);
  });

  it('opens a chosen entity through nav.open, closes and gives focus back', async () => {
    const { user, input, store } = mount(fake);
    await user.type(input, 'giga');
    await user.keyboard('{Enter}');
    expect(fake.run).toHaveBeenCalledWith(navOpen, { target: entities[2] }, 'palette');
    expect(store.get(paletteAtom).open).toBe(false);
    expect(screen.queryByRole('combobox')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'before' }));
  });

  it('prompts for each argument: suggestion, invalid value kept with its message, valid, optional blank', async () => {
    const { user, input } = mount(fake, 'set level');
    await user.keyboard('{Enter}');
    expect(screen.getByText(/Set dino level › Dino/)).toBeTruthy();
    await user.type(input, 'rex');
    expect(optionTexts()).toHaveLength(2);
    await user.keyboard('{Enter}'); // takes the highlighted suggestion: the better-ranked Rex
    expect(screen.getByText(/Set dino level › Level/)).toBeTruthy();
    expect(screen.getByText(/Between 1 and 450/)).toBeTruthy();
    await user.type(input, '500{Enter}');
    expect(screen.getByRole('alert').textContent).toBe('Level must be at most 450.');
    expect(input.value).toBe('500');
    await user.clear(input);
    await user.type(input, '150{Enter}');
    expect(screen.getByText(/Set dino level › Note/)).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    await user.keyboard('{Enter}');
    expect(fake.run).toHaveBeenCalledTimes(1);
    const [cmd, values] = fake.run.mock.calls[0];
    expect(cmd).toBe(setLevel);
    expect(values).toEqual({
      dino: expect.objectContaining({ id: expect.stringMatching(/^d1[56]$/) }),
      level: 150,
      note: undefined,
    });
  });

  it('opens a command of three or more arguments as a form on Ctrl+Enter, with what the prompt has', async () => {
    const form = vi.fn();
    const withForm = fakeRuntime({ form });
    const { user, input, store } = mount(withForm, 'set level');
    expect(screen.getByText(/opens it as a form/).textContent).toBe('Ctrl+Enter opens it as a form');
    await user.keyboard('{Enter}');
    await user.type(input, 'rex');
    await user.keyboard('{Enter}');
    await user.type(input, '500');
    expect(screen.getByText(/opens Set dino level as a form/)).toBeTruthy();
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(form).toHaveBeenCalledWith('dino.setLevel', {
      dino: expect.objectContaining({ id: expect.stringMatching(/^d1[56]$/) }),
      level: '500',
    });
    expect(store.get(paletteAtom).open).toBe(false);
    expect(withForm.run).not.toHaveBeenCalled();
    // Fewer arguments: no form on offer, Ctrl+Enter does nothing.
    act(() => openPalette(store, 'open'));
    expect(screen.queryByText(/as a form/)).toBeNull();
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(form).toHaveBeenCalledTimes(1);
  });

  it('goes back to the previous argument with its value on Backspace in an empty input', async () => {
    const { user, input } = mount(fake, 'set level');
    await user.keyboard('{Enter}');
    await user.type(input, 'giga');
    await user.keyboard('{Tab}');
    expect(input.value).toBe('Giga 3 (Lvl 300)');
    await user.keyboard('{Enter}');
    expect(input.value).toBe('');
    await user.keyboard('{Backspace}');
    expect(screen.getByText(/Set dino level › Dino/)).toBeTruthy();
    expect(input.value).toBe('Giga 3 (Lvl 300)');
    await user.clear(input);
    await user.keyboard('{Backspace}');
    // Leaving the first argument returns to the command list with the query as typed.
    expect(screen.queryByText(/Set dino level ›/)).toBeNull();
    expect(input.value).toBe('set level');
  });

  it('shows a run error in place and keeps everything typed', async () => {
    fake = fakeRuntime({
      fail: new ApiError(
        'Forbidden: You do not have the required permission',
        'forbidden',
        403,
        'Needs control',
      ),
    });
    const { user, input } = mount(fake, 'set level');
    await user.keyboard('{Enter}');
    await user.type(input, 'giga{Enter}150{Enter}griefing{Enter}');
    expect(fake.run).toHaveBeenCalledTimes(1);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Forbidden: You do not have the required permission');
    expect(within(alert).getByText('Needs control')).toBeTruthy();
    expect(input.value).toBe('griefing');
    await user.keyboard('{Backspace}'.repeat(8));
    await user.keyboard('{Backspace}');
    expect(input.value).toBe('150');
  });

  it('highlights the row under the pointer and runs a clicked one, typing focus staying in the input', async () => {
    const { user, input } = mount(fake);
    await user.hover(screen.getByRole('option', { name: /Refresh list/ }));
    expect(activeText()).toMatch(/^Refresh list/);
    expect(input.getAttribute('aria-activedescendant')).toBe(
      screen.getByRole('option', { name: /Refresh list/ }).id,
    );
    await user.click(screen.getByRole('option', { name: /Set dino level/ }));
    expect(screen.getByText(/Set dino level › Dino/)).toBeTruthy();
    expect(document.activeElement).toBe(input);
    await user.keyboard('giga');
    await user.click(screen.getByRole('option', { name: /Giga 3/ }));
    expect(screen.getByText(/Set dino level › Level/)).toBeTruthy();
    expect(fake.run).not.toHaveBeenCalled();
  });

  it('keeps a disabled first row active after a search, where cmdk would pick the first enabled one', async () => {
    const { user, input } = mount(fake);
    await user.type(input, 'kick');
    expect(activeText()).toMatch(/^Kick player/);
    await user.keyboard('{Enter}');
    expect(fake.run).not.toHaveBeenCalled();
    expect(screen.getByRole('alert').textContent).toBe('Needs the control permission');
  });

  it('mounts cmdk items for the visible window only, keeps them while typing, and points at the active one', async () => {
    const many: EntityRef[] = Array.from({ length: 5000 }, (_, i) => ({
      kind: 'dino',
      id: `m${i}`,
      label: `Raptor ${i}`,
      detail: `Tribe ${i % 7}`,
    }));
    fake.runtime.index.upsert(many);
    const { user, input } = mount(fake);
    await user.type(input, 'rapt');
    const items = document.querySelectorAll('[cmdk-root] [cmdk-list] [cmdk-item]');
    expect(items.length).toBeGreaterThan(10);
    expect(items.length).toBeLessThan(40);
    await user.type(input, 'o');
    // The same elements show the narrower results: cmdk registers nothing anew on a keystroke.
    expect(document.querySelector('[cmdk-item]')).toBe(items[0]);
    await user.keyboard('{PageDown}{ArrowDown}');
    expect(activeText()).toMatch(/^Raptor /);
    const activeId = document.querySelector('[role=option][aria-selected=true]')?.id;
    expect(activeId).toBeTruthy();
    expect(input.getAttribute('aria-activedescendant')).toBe(activeId);
    expect(screen.getByRole('listbox').getAttribute('aria-activedescendant')).toBe(activeId);
    // jsdom does not scroll, so the last row stays unmounted: the input then points at nothing,
    // never at an option that is not in the document.
    await user.keyboard('{End}');
    const pointed = input.getAttribute('aria-activedescendant');
    expect(
      pointed === null || document.getElementById(pointed)?.getAttribute('aria-selected') === 'true',
    ).toBe(true);
    await user.keyboard('{Home}');
    expect(input.getAttribute('aria-activedescendant')).toBe(document.querySelector('[cmdk-item]')?.id);
  });

  it('moves through the list with arrows, End and Home, and closes on Escape', async () => {
    const { user, store } = mount(fake);
    expect(activeText()).toMatch(/^Open/);
    await user.keyboard('{End}');
    expect(activeText()).toMatch(/^Kick player/);
    await user.keyboard('{Home}{ArrowDown}');
    expect(activeText()).toMatch(/^Refresh list/);
    const input = screen.getByRole('combobox');
    expect(input.getAttribute('aria-activedescendant')).toBe(
      document.querySelector('[role=option][aria-selected=true]')?.id,
    );
    await user.keyboard('{Escape}');
    expect(store.get(paletteAtom).open).toBe(false);
  });
});

describe('warmRows', () => {
  it('types through every row set off the page, leaving the page and its focus alone', () => {
    const field = document.createElement('input');
    document.body.append(field);
    field.focus();
    const page = document.body.innerHTML;
    const noop = defineCommand({ id: 'server.noop', title: 'Noop', group: 'Servers', run: () => undefined });
    const dino = (n: number): EntityRef => ({
      kind: 'dino',
      id: `d${n}`,
      label: `Rex ${n}`,
      detail: 'Tribe of Bob',
    });
    // Only the last set shows this command: reading its keys shows that typing got that far.
    let lastShown = 0;
    const last = Object.defineProperty({ ...noop }, 'keys', { get: () => void lastShown++ });
    const rowSets = [
      [commandRow({ cmd: noop, avail: true })],
      Array.from({ length: 30 }, (_, n) => entityRow(dino(n))),
      [],
      [commandRow({ cmd: last, avail: 'Not now.' }), entityRow(dino(99))],
    ];
    const errors = vi.spyOn(console, 'error');
    let steps = 0;
    for (const _ of warmRows(rowSets)) steps++;
    expect(steps).toBe(rowSets.length);
    expect(lastShown).toBeGreaterThan(0);
    expect(errors).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(field);
    expect(document.body.innerHTML).toBe(page);
    field.remove();
  });
});
