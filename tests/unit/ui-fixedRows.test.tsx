import { renderHook } from '@testing-library/react';
import { expect, it, vi } from 'vitest';
import { useFixedRows } from '../../src/web/ui/fixedRows.ts';

// The list's header stays on top inside the scroller (ui.css); its scroll-padding-top says how
// much of the scroller the rows do not get. A row moved to must show whole below the header.

function scroller(height: number, header: number): HTMLElement {
  const el = document.createElement('div');
  el.style.scrollPaddingTop = `${header}px`;
  vi.spyOn(el, 'clientHeight', 'get').mockReturnValue(height);
  document.body.append(el);
  return el;
}

it('scrolls a row at the bottom into the part of the scroller below the header', () => {
  const el = scroller(240, 25);
  const { result } = renderHook(() =>
    useFixedRows({ scrollRef: { current: el }, count: 100, rowHeight: 24, overscan: 0 }),
  );
  expect(result.current.viewportHeight).toBe(215);
  result.current.scrollToIndex(20);
  // Row 20 ends at 504 px; 215 px of rows show, so the rows start at 289.
  expect(el.scrollTop).toBe(289);
  result.current.scrollToIndex(5);
  // Above the view: it comes to the top, right under the header.
  expect(el.scrollTop).toBe(120);
});
