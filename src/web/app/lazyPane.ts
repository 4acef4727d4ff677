// Code that is not needed for the first paint (xterm, the palette's cmdk) loads as its own chunk,
// fetched when the browser is idle so that it is there before the user's first key press.

import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

/**
 * When chunks are fetched ahead of use. The component tests turn it off: there a fetch that
 * outlives its test file fails the run, and each view loads when it renders anyway.
 */
export const prefetch = {
  whenIdle(fn: () => void): void {
    if (typeof window === 'undefined') return;
    const idle = window.requestIdleCallback ?? ((f: () => void) => window.setTimeout(f, 1000));
    idle(fn);
  },
};

/**
 * A chunk that fails to load (a dropped connection, the server restarting) is asked for twice more
 * before its view says it could not be shown: React keeps a lazy component's failure for good.
 */
async function retried<T>(load: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await load();
    } catch (e) {
      if (attempt >= attempts) throw e;
      await new Promise((r) => setTimeout(r, 500 * attempt));
    }
  }
}

// biome-ignore lint/suspicious/noExplicitAny: the same bound as React.lazy's own signature
export function lazyWhenIdle<C extends ComponentType<any>>(
  load: () => Promise<{ default: C }>,
): LazyExoticComponent<C> {
  let started: Promise<{ default: C }> | null = null;
  const once = () => {
    started ??= retried(load);
    return started;
  };
  prefetch.whenIdle(() => void once());
  return lazy(once);
}
