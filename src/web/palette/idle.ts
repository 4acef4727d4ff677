// Runs a generator's steps in the background, so preparation never delays a keystroke or a frame
// by a long task.

/** Longest slice: a key that arrives during one waits for it. */
const SLICE_MS = 10;

interface Scheduling {
  isInputPending?(): boolean;
}
const scheduling = (globalThis.navigator as { scheduling?: Scheduling } | undefined)?.scheduling;
/** Chromium tells whether input waits; elsewhere a slice runs its full length. */
const inputPending = () => scheduling?.isInputPending?.() ?? false;

// When the user last pressed a key or the pointer: background work then waits for their frame.
let lastInput = 0;
if (typeof addEventListener === 'function')
  for (const type of ['keydown', 'pointerdown'])
    addEventListener(type, () => (lastInput = performance.now()), { capture: true, passive: true });

/**
 * Starts when the browser is first idle after two frames, then runs slice after slice as tasks of
 * their own: preparing the palette's search over 100k entities takes about 100 ms that way, and
 * took 330 ms with one 10 ms slice per 50 ms idle period. A slice ends early when input is
 * pending, and after input the next one waits for an idle period, so the keystroke's frame is
 * painted first.
 */
export function runWhenIdle(steps: Generator<void>): () => void {
  let cancelled = false;
  let cancelSlot = () => {};
  let sliceStart = 0;
  const channel = typeof MessageChannel === 'function' ? new MessageChannel() : null;
  const whenIdle = () => {
    if (typeof requestIdleCallback !== 'function') return false;
    const id = requestIdleCallback(() => slice(true), { timeout: 1000 });
    cancelSlot = () => cancelIdleCallback(id);
    return true;
  };
  const next = () => {
    if (channel) channel.port2.postMessage(null);
    else {
      const id = setTimeout(() => slice(false), 0);
      cancelSlot = () => clearTimeout(id);
    }
  };
  const finish = () => channel?.port1.close();
  const slice = (idle: boolean) => {
    if (cancelled) return;
    // Input since the last slice: its frame goes first.
    if (!idle && lastInput >= sliceStart && whenIdle()) return;
    sliceStart = performance.now();
    const end = sliceStart + SLICE_MS;
    while (performance.now() < end && !inputPending()) if (steps.next().done) return finish();
    next();
  };
  if (channel) channel.port1.onmessage = () => slice(false);
  const start = () => {
    if (!whenIdle()) next();
  };
  // Two frames first: the one showing what asked for the work (the palette opening) is painted
  // before the work competes with it.
  if (typeof requestAnimationFrame === 'function') {
    const first = requestAnimationFrame(() => {
      const second = requestAnimationFrame(start);
      cancelSlot = () => cancelAnimationFrame(second);
    });
    cancelSlot = () => cancelAnimationFrame(first);
  } else start();
  return () => {
    cancelled = true;
    cancelSlot();
    finish();
    steps.return(undefined);
  };
}
