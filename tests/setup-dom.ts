import { prefetch } from '../src/web/app/lazyPane.ts';

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
