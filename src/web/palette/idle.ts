// Runs a generator's steps while the browser is idle, so background preparation never delays
// a keystroke or a frame by a long task.

/** Longest slice: an idle period may offer 50 ms, which would make a long task of the last step. */
const SLICE_MS = 10;

export function runWhenIdle(steps: Generator<void>): () => void {
  let cancelled = false;
  let cancelSlot = () => {};
  const slice = (idleLeft: () => number) => {
    if (cancelled) return;
    const end = performance.now() + SLICE_MS;
    while (Math.min(idleLeft(), end - performance.now()) > 1) if (steps.next().done) return;
    schedule();
  };
  const schedule = () => {
    if (typeof requestIdleCallback === 'function') {
      const id = requestIdleCallback((d) => slice(() => d.timeRemaining()), { timeout: 1000 });
      cancelSlot = () => cancelIdleCallback(id);
    } else {
      const id = setTimeout(() => slice(() => SLICE_MS), 0);
      cancelSlot = () => clearTimeout(id);
    }
  };
  schedule();
  return () => {
    cancelled = true;
    cancelSlot();
    steps.return(undefined);
  };
}
