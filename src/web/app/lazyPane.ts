// Code that is not needed for the first paint (xterm, the palette's cmdk) loads as its own chunk,
// fetched when the browser is idle so that it is there before the user's first key press.

import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

// biome-ignore lint/suspicious/noExplicitAny: the same bound as React.lazy's own signature
export function lazyWhenIdle<C extends ComponentType<any>>(
  load: () => Promise<{ default: C }>,
): LazyExoticComponent<C> {
  let started: Promise<{ default: C }> | null = null;
  const once = () => {
    started ??= load();
    return started;
  };
  if (typeof window !== 'undefined') {
    const idle = window.requestIdleCallback ?? ((fn: () => void) => window.setTimeout(fn, 1000));
    idle(() => void once());
  }
  return lazy(once);
}
