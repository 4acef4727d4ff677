// The log view's list under live lines: rows arriving above keep the reader's active row.
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore, Provider } from 'jotai';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { type Column, VirtualList } from '../../src/web/ui/VirtualList.tsx';

interface Line {
  id: string;
  message: string;
}

const columns: Column<Line>[] = [{ id: 'message', title: 'Message', value: (l) => l.message }];
const lines = (from: number, to: number): Line[] =>
  Array.from({ length: to - from }, (_, i) => ({ id: `m${to - 1 - i}`, message: `line ${to - 1 - i}` }));

const VIEWPORT = { width: 800, height: 240 };

beforeEach(() => {
  localStorage.clear();
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (this: HTMLElement) {
    return this.classList.contains('vl-grid') ? VIEWPORT.height : 0;
  });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function list(rows: Line[], total: number) {
  return (
    <VirtualList
      name="logs-test"
      label="Log messages"
      rows={rows}
      totalRows={total}
      rowKey={(l) => l.id}
      columns={columns}
      serverSide={{ onFilter() {}, onSort() {} }}
      initialRect={VIEWPORT}
    />
  );
}

it('keeps the active line when new lines arrive above it, and moves from there', async () => {
  const store = createStore();
  const user = userEvent.setup();
  // Newest first: line 99 at the top of a million.
  const { rerender } = render(<Provider store={store}>{list(lines(0, 100), 1_000_000)}</Provider>);
  const grid = screen.getByRole('grid', { name: 'Log messages' });
  const activeText = () =>
    document.getElementById(grid.getAttribute('aria-activedescendant') ?? '')?.textContent;
  grid.focus();
  await user.keyboard('{ArrowDown}{ArrowDown}');
  expect(activeText()).toBe('line 97');

  // Three live lines are shown at the top: the active row is still line 97, now three further down.
  act(() => rerender(<Provider store={store}>{list(lines(0, 103), 1_000_003)}</Provider>));
  expect(activeText()).toBe('line 97');
  expect(grid.getAttribute('aria-rowcount')).toBe('1000004');
  await user.keyboard('{ArrowUp}');
  expect(activeText()).toBe('line 98');

  // A line that is no longer held leaves the active place where it was.
  act(() => rerender(<Provider store={store}>{list(lines(500, 600), 1_000_003)}</Provider>));
  expect(grid.getAttribute('aria-activedescendant')).toMatch(/-row-4$/);
});

it('stays at the top, where new lines show, until the reader reaches the list', () => {
  const store = createStore();
  const { rerender } = render(<Provider store={store}>{list(lines(0, 100), 1_000_000)}</Provider>);
  const grid = screen.getByRole('grid', { name: 'Log messages' });
  act(() => rerender(<Provider store={store}>{list(lines(0, 103), 1_000_003)}</Provider>));
  expect(grid.getAttribute('aria-activedescendant')).toMatch(/-row-0$/);
  grid.focus();
  act(() => rerender(<Provider store={store}>{list(lines(0, 104), 1_000_004)}</Provider>));
  expect(grid.getAttribute('aria-activedescendant')).toMatch(/-row-1$/);
});

it('follows at the very top when lines arrive above the active one, and keeps the place further down', async () => {
  // jsdom does not scroll: the grid's scrollTop is kept as set.
  const scrolled = new WeakMap<Element, number>();
  vi.spyOn(Element.prototype, 'scrollTop', 'get').mockImplementation(function (this: Element) {
    return scrolled.get(this) ?? 0;
  });
  vi.spyOn(Element.prototype, 'scrollTop', 'set').mockImplementation(function (this: Element, v: number) {
    scrolled.set(this, v);
  });
  const store = createStore();
  const { rerender } = render(<Provider store={store}>{list(lines(0, 100), 1_000_000)}</Provider>);
  const grid = screen.getByRole('grid', { name: 'Log messages' });
  grid.focus();
  act(() => rerender(<Provider store={store}>{list(lines(0, 130), 1_000_030)}</Provider>));
  // The reader's row moved down with its line, out of the ten rows of 24 px that show; the view
  // stayed at the top, on the newest lines: the reader only reached the list.
  expect(grid.getAttribute('aria-activedescendant')).toMatch(/-row-30$/);
  expect(grid.scrollTop).toBe(0);
  // A row the reader chose by key is kept in view: pushed past the bottom edge, the view leaves
  // the top only as far as shows it whole, at the bottom.
  await userEvent.setup().keyboard('{Home}{ArrowDown}');
  expect(grid.getAttribute('aria-activedescendant')).toMatch(/-row-1$/);
  act(() => rerender(<Provider store={store}>{list(lines(0, 135), 1_000_035)}</Provider>));
  expect(grid.getAttribute('aria-activedescendant')).toMatch(/-row-6$/);
  expect(grid.scrollTop).toBe(0);
  act(() => rerender(<Provider store={store}>{list(lines(0, 160), 1_000_060)}</Provider>));
  expect(grid.getAttribute('aria-activedescendant')).toMatch(/-row-31$/);
  expect(grid.scrollTop).toBe(32 * 24 - VIEWPORT.height);
  // Scrolled down to read, the view moves with the lines, so what is read stays put.
  grid.scrollTop = 600;
  act(() => rerender(<Provider store={store}>{list(lines(0, 163), 1_000_063)}</Provider>));
  expect(grid.getAttribute('aria-activedescendant')).toMatch(/-row-34$/);
  expect(grid.scrollTop).toBe(600 + 3 * 24);
});
