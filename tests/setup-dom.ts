import { vi } from 'vitest';
import { prefetch } from '../src/web/app/lazyPane.ts';

// jsdom has no canvas to draw on: the charts draw nothing here (browser tests see them drawn).
vi.mock('uplot', () => ({
  default: class {
    static paths = {};
    bbox = { left: 0, top: 0, width: 0, height: 0 };
    setSize() {}
    setSelect() {}
    destroy() {}
    valToPos = () => 0;
    posToVal = () => 0;
  },
}));

// jsdom lacks these; cmdk and the virtual list call them.
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
(globalThis as { ResizeObserver?: unknown }).ResizeObserver ??= ResizeObserverStub;
if (typeof Element !== 'undefined' && !Element.prototype.scrollIntoView)
  Element.prototype.scrollIntoView = () => {};

// Views load when they render; fetching them all when idle would go on after a test file ends.
prefetch.whenIdle = () => {};
