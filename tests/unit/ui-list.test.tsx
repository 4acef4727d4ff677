import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore, Provider } from 'jotai';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ref, text } from '../../commands/args.ts';
import type { CommandContext } from '../../commands/context.ts';
import { LIST_KEYS } from '../../commands/listKeys.ts';
import { defineCommand, Registry } from '../../commands/registry.ts';
import { shellCommands } from '../../commands/shell.ts';
import { type CommandRuntime, CommandRuntimeContext } from '../../src/web/app/runtime.ts';
import { paletteAtom } from '../../src/web/palette/state.ts';
import { getActiveList } from '../../src/web/ui/activeList.ts';
import { ListPlaceContext } from '../../src/web/ui/listPlace.ts';
import { type Column, VirtualList, type VirtualListProps } from '../../src/web/ui/VirtualList.tsx';

interface Srv {
  id: string;
  name: string;
  pop: number;
  status: string;
}

const makeRows = (n: number): Srv[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `s${i}`,
    name: `Server ${i}`,
    pop: i % 7,
    status: i % 2 ? 'connected' : 'disconnected',
  }));

const columns: Column<Srv>[] = [
  { id: 'name', title: 'Name', value: (r) => r.name },
  { id: 'status', title: 'Status', value: (r) => r.status },
  { id: 'pop', title: 'Population', value: (r) => r.pop, align: 'end' },
  { id: 'id', title: 'Id', value: (r) => r.id, defaultVisible: false },
];

const VIEWPORT = { width: 800, height: 240 }; // 10 rows of 24 px

function setup(
  props: Partial<VirtualListProps<Srv>> = {},
  runtime?: CommandRuntime,
  place: string | null = null,
) {
  const onOpen = vi.fn();
  const onSelectionChange = vi.fn();
  const user = userEvent.setup();
  const store = createStore();
  const list = (
    <Provider store={store}>
      <ListPlaceContext.Provider value={place}>
        <VirtualList
          name="test"
          label="Servers"
          rows={makeRows(50)}
          rowKey={(r) => r.id}
          columns={columns}
          onOpen={onOpen}
          onSelectionChange={onSelectionChange}
          initialRect={VIEWPORT}
          {...props}
        />
      </ListPlaceContext.Provider>
    </Provider>
  );
  const view = render(
    runtime ? <CommandRuntimeContext.Provider value={runtime}>{list}</CommandRuntimeContext.Provider> : list,
  );
  const grid = screen.getByRole('grid', { name: 'Servers' });
  const active = () => document.getElementById(grid.getAttribute('aria-activedescendant') ?? '');
  const activeName = () => active()?.querySelector('[role=gridcell]')?.textContent;
  const bodyRows = () =>
    within(grid)
      .getAllByRole('row')
      .filter((r) => r.getAttribute('aria-rowindex') !== '1');
  const marked = () => bodyRows().filter((r) => r.getAttribute('aria-selected') === 'true');
  return { user, grid, active, activeName, bodyRows, marked, onOpen, onSelectionChange, store, ...view };
}

beforeEach(() => {
  localStorage.clear();
  // jsdom has no layout: give the list's scroller the viewport's size, as a browser would.
  for (const [prop, size] of [
    ['clientHeight', VIEWPORT.height],
    ['clientWidth', VIEWPORT.width],
  ] as const) {
    vi.spyOn(HTMLElement.prototype, prop, 'get').mockImplementation(function (this: HTMLElement) {
      return this.classList.contains('vl-grid') ? size : 0;
    });
  }
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('VirtualList ARIA', () => {
  it('is a grid with row count, column headers with sort state, rows and cells', () => {
    const { grid, bodyRows, active } = setup({ defaultSort: { column: 'name', direction: 'asc' } });
    expect(grid).toHaveProperty('tabIndex', 0);
    expect(grid.getAttribute('aria-rowcount')).toBe('51');
    expect(grid.getAttribute('aria-multiselectable')).toBe('true');
    const headers = within(grid).getAllByRole('columnheader');
    expect(headers.map((h) => h.textContent)).toEqual(['Name▲', 'Status', 'Population']);
    expect(headers.map((h) => h.getAttribute('aria-sort'))).toEqual(['ascending', 'none', 'none']);
    const first = bodyRows()[0];
    expect(first.getAttribute('aria-rowindex')).toBe('2');
    expect(first.getAttribute('aria-selected')).toBe('false');
    expect(within(first).getAllByRole('gridcell')).toHaveLength(3);
    expect(active()).toBe(first);
    expect(first.className).toContain('is-active');
  });

  it('puts only a window of 100,000 rows in the DOM, and keeps the active row in it', async () => {
    const { user, grid, bodyRows, active } = setup({ rows: makeRows(100_000) });
    expect(grid.getAttribute('aria-rowcount')).toBe('100001');
    expect(bodyRows().length).toBeGreaterThan(9);
    expect(bodyRows().length).toBeLessThan(40);
    grid.focus();
    await user.keyboard('{End}');
    expect(active()?.getAttribute('aria-rowindex')).toBe('100001');
    expect(bodyRows().length).toBeLessThan(40);
  });

  it('shows the empty text, the loading state and errors', () => {
    const { rerender } = setup({ rows: [], emptyText: 'No servers yet.' });
    expect(screen.getByText('No servers yet.')).toBeTruthy();
    rerender(
      <Provider store={createStore()}>
        <VirtualList
          name="e"
          label="Servers"
          rows={[]}
          rowKey={(r: Srv) => r.id}
          columns={columns}
          error="Unable to load server list"
        />
      </Provider>,
    );
    expect(screen.getByRole('alert').textContent).toBe('Unable to load server list');
  });
});

describe('VirtualList keyboard', () => {
  it('moves with arrows, j/k, Home/End and PgUp/PgDn', async () => {
    const { user, grid, activeName } = setup();
    grid.focus();
    await user.keyboard('j');
    expect(activeName()).toBe('Server 1');
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(activeName()).toBe('Server 3');
    await user.keyboard('k');
    expect(activeName()).toBe('Server 2');
    await user.keyboard('{PageDown}');
    expect(activeName()).toBe('Server 11');
    await user.keyboard('{PageUp}{ArrowUp}');
    expect(activeName()).toBe('Server 1');
    await user.keyboard('{End}');
    expect(activeName()).toBe('Server 49');
    await user.keyboard('j');
    expect(activeName()).toBe('Server 49');
    await user.keyboard('{Home}');
    expect(activeName()).toBe('Server 0');
  });

  it('opens the active row on Enter', async () => {
    const { user, grid, onOpen } = setup();
    grid.focus();
    await user.keyboard('jj{Enter}');
    expect(onOpen).toHaveBeenCalledWith(expect.objectContaining({ id: 's2' }));
  });

  it('marks with Space, extends with Shift+arrows, reports the selection, clears on Esc', async () => {
    const { user, grid, marked, onSelectionChange } = setup();
    grid.focus();
    await user.keyboard(' ');
    expect(marked().map((r) => r.textContent)).toEqual([expect.stringContaining('Server 0')]);
    await user.keyboard('jj{Shift>}{ArrowDown}{ArrowDown}{/Shift}');
    expect(marked().map((r) => r.getAttribute('aria-rowindex'))).toEqual(['2', '4', '5', '6']);
    await user.keyboard('{Shift>}{ArrowUp}{/Shift}');
    expect(marked().map((r) => r.getAttribute('aria-rowindex'))).toEqual(['2', '4', '5']);
    const [rows, activeRow] = onSelectionChange.mock.lastCall!;
    expect(rows.map((r: Srv) => r.id)).toEqual(['s0', 's2', 's3']);
    expect(activeRow.id).toBe('s3');
    await user.keyboard(' ');
    expect(marked()).toHaveLength(2);
    await user.keyboard('{Escape}');
    expect(marked()).toHaveLength(0);
  });
});

describe('VirtualList place', () => {
  it('starts where the user left it when the view at that place shows again (Back), not elsewhere', async () => {
    const first = setup({}, undefined, 'pane1 /servers');
    first.grid.focus();
    await first.user.keyboard('{PageDown}{PageDown}jj');
    expect(first.activeName()).toBe('Server 20');
    first.unmount();
    expect(setup({}, undefined, 'pane1 /servers').activeName()).toBe('Server 20');
    cleanup();
    expect(setup({}, undefined, 'pane2 /servers').activeName()).toBe('Server 0');
  });
});

describe('VirtualList sort, filter, columns', () => {
  it('sorts by header click or Enter, asc then desc, and stores it', async () => {
    const { user, grid, activeName } = setup();
    const pop = within(grid).getByRole('button', { name: 'Population' });
    await user.click(pop);
    const header = () => within(grid).getAllByRole('columnheader')[2];
    expect(header().getAttribute('aria-sort')).toBe('ascending');
    expect(activeName()).toBe('Server 0');
    pop.focus();
    await user.keyboard('{Enter}');
    expect(header().getAttribute('aria-sort')).toBe('descending');
    expect(activeName()).toBe('Server 6');
    expect(JSON.parse(localStorage.getItem('palisade.pref.list.test')!).sort).toEqual({
      column: 'pop',
      direction: 'desc',
    });
  });

  it('restores the stored sort, filter and columns', () => {
    localStorage.setItem(
      'palisade.pref.list.test',
      JSON.stringify({
        filter: 'Server 4',
        sort: { column: 'name', direction: 'desc' },
        columns: ['name', 'id'],
      }),
    );
    const { grid, activeName } = setup();
    expect((screen.getByRole('searchbox') as HTMLInputElement).value).toBe('Server 4');
    expect(
      within(grid)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Name▼', 'Id']);
    // Every word must appear in a shown column: "server" and "4" → 4, 14, 24, 34, 40–49.
    expect(grid.getAttribute('aria-rowcount')).toBe('15');
    expect(activeName()).toBe('Server 49');
  });

  it('focuses the filter on / and narrows the rows; Esc clears it', async () => {
    const { user, grid } = setup();
    grid.focus();
    await user.keyboard('/');
    const box = screen.getByRole('searchbox', { name: 'Filter Servers' });
    expect(document.activeElement).toBe(box);
    await user.keyboard('DISCONNECTED');
    expect(grid.getAttribute('aria-rowcount')).toBe('26');
    await user.keyboard('{Escape}');
    expect(grid.getAttribute('aria-rowcount')).toBe('51');
    await user.keyboard('{Escape}');
    expect(document.activeElement).toBe(grid);
  });

  it('toggles column visibility from the columns popover and stores it', async () => {
    const { user, grid } = setup();
    await user.click(screen.getByRole('button', { name: 'Columns' }));
    const boxes = await screen.findAllByRole('checkbox');
    expect(boxes.map((b) => [b.parentElement?.textContent, (b as HTMLInputElement).checked])).toEqual([
      ['Name', true],
      ['Status', true],
      ['Population', true],
      ['Id', false],
    ]);
    expect(document.activeElement).toBe(boxes[0]);
    await user.keyboard('{ArrowUp} ');
    await user.click(screen.getByRole('checkbox', { name: 'Status' }));
    expect(
      within(grid)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Name', 'Population', 'Id']);
    expect(JSON.parse(localStorage.getItem('palisade.pref.list.test')!).columns).toEqual([
      'name',
      'pop',
      'id',
    ]);
  });
});

describe('VirtualList as the active list', () => {
  it('registers on focus, drives filter/refresh through the controller, releases on unmount', async () => {
    const onRefresh = vi.fn();
    const { grid, unmount } = setup({ onRefresh });
    act(() => grid.focus());
    const ctrl = getActiveList();
    expect(ctrl?.name).toBe('test');
    act(() => ctrl!.focusFilter());
    expect(document.activeElement).toBe(screen.getByRole('searchbox'));
    ctrl!.refresh();
    expect(onRefresh).toHaveBeenCalledOnce();
    await act(async () => ctrl!.openColumns());
    expect(document.activeElement).toBe(await screen.findByRole('checkbox', { name: 'Name' }));
    unmount();
    expect(getActiveList()).toBeNull();
  });

  it('pages from the server: placeholders for rows not loaded, the visible range reported', () => {
    const onRangeChange = vi.fn();
    const onFilter = vi.fn();
    const onSort = vi.fn();
    const serverSide = { onFilter, onSort };
    const { grid, bodyRows } = setup({
      rows: makeRows(5),
      totalRows: 1_000_000,
      onRangeChange,
      serverSide,
      defaultSort: { column: 'name', direction: 'desc' },
    });
    expect(grid.getAttribute('aria-rowcount')).toBe('1000001');
    expect(onRangeChange).toHaveBeenCalledWith(0, expect.any(Number));
    expect(bodyRows()[0].textContent).toContain('Server 0'); // order is the server's
    expect(bodyRows()[6].textContent).toBe('Loading…');
    expect(onSort).toHaveBeenCalledWith({ column: 'name', direction: 'desc' });
  });
});

describe('VirtualList context menu', () => {
  const server = (r: Srv) => ({ kind: 'server' as const, id: r.id, label: r.name });

  function fakeRuntime(route = '/servers') {
    const registry = new Registry()
      .reserve(...LIST_KEYS)
      .register(...shellCommands.filter((c) => c.id === 'ui.list.filter' || c.id === 'ui.contextMenu'))
      .register(
        defineCommand({
          id: 'server.viewEvents',
          title: 'View events',
          group: 'Servers',
          keys: ['mod+e'],
          args: { server: ref('server') },
          run: () => undefined,
        }),
        defineCommand({
          id: 'server.remove',
          title: 'Remove server',
          group: 'Servers',
          enabled: (ctx) => (ctx.selection.ids.length === 1 ? 'Needs control permission' : true),
          run: () => undefined,
        }),
        defineCommand({
          id: 'server.rename',
          title: 'Rename server',
          group: 'Servers',
          args: { name: text() },
          run: () => undefined,
        }),
        defineCommand({
          id: 'server.tag',
          title: 'Tag server',
          group: 'Servers',
          keys: ['t'],
          scope: 'list',
          args: {
            server: ref('server'),
            owner: ref('group').optional(),
            note: text(),
            loud: text().default('no'),
          },
          run: () => undefined,
        }),
        defineCommand({
          id: 'server.ping',
          title: 'Ping server',
          group: 'Servers',
          keys: ['p'],
          scope: 'list',
          args: { server: ref('server') },
          run: () => undefined,
        }),
        defineCommand({ id: 'hidden', title: 'Hidden', group: 'X', when: () => false, run: () => undefined }),
        defineCommand({
          id: 'ui.list.refresh',
          title: 'Refresh',
          group: 'X',
          keys: ['r'],
          scope: 'list',
          run: () => undefined,
        }),
      );
    const paletteOpen = vi.fn();
    const ctx = {
      route,
      selection: { kind: null, ids: [] },
      entities: {
        label: (kind: string, id: string) => (kind === 'group' && id === 'g1' ? 'Cluster' : undefined),
      },
      permissions: () => null,
      app: { palette: { open: paletteOpen } },
    } as unknown as CommandContext;
    const runtime = {
      registry,
      context: () => ctx,
      run: vi.fn(async () => undefined),
    } as unknown as CommandRuntime;
    return { runtime, paletteOpen };
  }

  it('opens on Shift+F10 with titles, keys and disabled reasons; runs with the row as its argument', async () => {
    const { runtime } = fakeRuntime();
    const { user, grid } = setup(
      { menu: () => ['server.viewEvents', 'server.remove', 'hidden'], entity: server },
      runtime,
    );
    grid.focus();
    await user.keyboard('r');
    expect(runtime.run).toHaveBeenCalledWith(runtime.registry.get('ui.list.refresh'), {}, 'hotkey');
    vi.mocked(runtime.run).mockClear();
    await user.keyboard('j{Shift>}{F10}{/Shift}');
    const menu = await screen.findByRole('menu');
    const items = within(menu).getAllByRole('menuitem');
    expect(items.map((i) => i.textContent)).toEqual([
      'View eventsCtrl+E',
      'Remove serverNeeds control permission',
    ]);
    expect(items[1].getAttribute('aria-disabled')).toBe('true');
    await user.click(items[1]);
    expect(runtime.run).not.toHaveBeenCalled();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    // Focus comes back a frame later, once it is clear the command opened no dialog.
    await waitFor(() => expect(document.activeElement).toBe(grid));
    await user.keyboard('{ContextMenu}');
    await user.click(within(await screen.findByRole('menu')).getByRole('menuitem', { name: /View events/ }));
    expect(runtime.run).toHaveBeenCalledWith(
      runtime.registry.get('server.viewEvents'),
      { server: { kind: 'server', id: 's1', label: 'Server 1' } },
      'menu',
    );
  });

  it('acts on all marked rows and asks the palette for arguments the rows do not supply', async () => {
    const { runtime, paletteOpen } = fakeRuntime();
    const { user, grid, store } = setup(
      { menu: () => ['server.remove', 'server.rename'], entity: server },
      runtime,
    );
    grid.focus();
    await user.keyboard(' {Shift>}{ArrowDown}{/Shift}{Shift>}{F10}{/Shift}');
    const menu = await screen.findByRole('menu');
    const remove = within(menu).getByRole('menuitem', { name: /Remove server/ });
    expect(remove.getAttribute('aria-disabled')).toBeNull(); // two rows: allowed
    await user.click(within(menu).getByRole('menuitem', { name: /Rename server/ }));
    expect(paletteOpen).not.toHaveBeenCalled();
    expect(store.get(paletteAtom)).toEqual({
      open: true,
      query: '',
      pending: { commandId: 'server.rename', values: {} },
    });
    expect(runtime.run).not.toHaveBeenCalled();
  });

  it('runs a list key the rows offer with the rows, the entity of the route and declared defaults', async () => {
    const { runtime } = fakeRuntime('/groups/g1/bans');
    const { user, grid, store } = setup(
      { menu: () => ['server.tag', 'server.ping'], entity: server },
      runtime,
    );
    grid.focus();
    await user.keyboard('jp');
    expect(runtime.run).toHaveBeenCalledWith(
      runtime.registry.get('server.ping'),
      { server: { kind: 'server', id: 's1', label: 'Server 1' } },
      'hotkey',
    );
    // A required argument is still missing: the palette opens at the command with all that is known.
    await user.keyboard('t');
    expect(store.get(paletteAtom)).toEqual({
      open: true,
      query: '',
      pending: {
        commandId: 'server.tag',
        values: {
          server: { kind: 'server', id: 's1', label: 'Server 1' },
          owner: { kind: 'group', id: 'g1', label: 'Cluster' },
          loud: 'no',
        },
      },
    });
    expect(runtime.run).toHaveBeenCalledTimes(1);
  });

  it('leaves a list key alone when the rows do not offer its command', async () => {
    const { runtime } = fakeRuntime();
    const { user, grid } = setup({ menu: () => ['server.viewEvents'], entity: server }, runtime);
    grid.focus();
    await user.keyboard('p');
    expect(runtime.run).not.toHaveBeenCalled();
  });
});

describe('a parent that keeps the selection', () => {
  it('is told of a change once, not on each of its renders', async () => {
    let renders = 0;
    const told: string[] = [];
    // Rows as a query holds them: the same array from render to render.
    const rows = makeRows(5);
    // As views do: the callback inline, the selection in the parent's state (a new object each time).
    function Parent() {
      const [, setSelection] = useState<{ ids: string[] }>({ ids: [] });
      // A loop would never end the test: it fails at once instead.
      if (++renders > 50) throw new Error('The list re-renders its parent without end.');
      return (
        <VirtualList
          name="test"
          label="Servers"
          rows={rows}
          rowKey={(r) => r.id}
          columns={columns}
          initialRect={VIEWPORT}
          onSelectionChange={(marked, active) => {
            told.push(active?.id ?? '');
            setSelection({ ids: (marked.length ? marked : active ? [active] : []).map((r) => r.id) });
          }}
        />
      );
    }
    render(
      <Provider store={createStore()}>
        <Parent />
      </Provider>,
    );
    await act(async () => {});
    // Told once for the first active row; one more render for the state it set, and no more.
    expect(told).toEqual(['s0']);
    expect(renders).toBeLessThanOrEqual(3);
    const user = userEvent.setup();
    await user.click(screen.getByRole('grid', { name: 'Servers' }));
    await user.keyboard('j');
    expect(told).toEqual(['s0', 's1']);
  });
});
