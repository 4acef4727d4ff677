// The console pane, docked at the bottom. xterm is loaded only when first opened.

import { useAtomValue, useStore } from 'jotai';
import { Suspense, useEffect, useRef } from 'react';
import { focusActivePane } from './focusPane.ts';
import { lazyWhenIdle } from './lazyPane.ts';
import { PaneBoundary } from './PaneBoundary.tsx';
import type { CommandRuntime } from './runtime.ts';
import { terminalAtom } from './state.ts';

const TerminalPane = lazyWhenIdle(() => import('../terminal/TerminalPane.tsx'));

export function TerminalDock({ rt, userId }: { rt: CommandRuntime; userId: string }) {
  const { open, focusSignal } = useAtomValue(terminalAtom);
  const store = useStore();
  const dock = useRef<HTMLElement>(null);
  const wasOpen = useRef(open);
  // Hiding the console must not leave focus on nothing, or in the hidden terminal.
  useEffect(() => {
    const closed = wasOpen.current && !open;
    wasOpen.current = open;
    const lost = document.activeElement === document.body || dock.current?.contains(document.activeElement);
    if (closed && lost) focusActivePane(store);
  }, [open, store]);
  if (!open && focusSignal === 0) return null;
  return (
    <section ref={dock} className="terminal-dock" hidden={!open} aria-label="Console">
      <PaneBoundary what="The console pane" resetKey={userId}>
        <Suspense fallback={<div className="terminal-loading">Loading console…</div>}>
          <TerminalPane runtime={rt} userId={userId} promptFocusSignal={focusSignal} />
        </Suspense>
      </PaneBoundary>
    </section>
  );
}
