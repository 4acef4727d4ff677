// The console pane, docked at the bottom. xterm is loaded only when first opened.

import { useAtomValue } from 'jotai';
import { lazy, Suspense, useEffect } from 'react';
import type { CommandRuntime } from './runtime.ts';
import { terminalAtom } from './state.ts';

const loadPane = () => import('../terminal/TerminalPane.tsx');
const TerminalPane = lazy(loadPane);

export function TerminalDock({ rt, userId }: { rt: CommandRuntime; userId: string }) {
  const { open, focusSignal } = useAtomValue(terminalAtom);
  // Fetch xterm once the console is idle, so `:` then typing straight away loses no keys.
  useEffect(() => {
    const idle = window.requestIdleCallback ?? ((fn: () => void) => window.setTimeout(fn, 1500));
    idle(() => void loadPane());
  }, []);
  if (!open && focusSignal === 0) return null;
  return (
    <section className="terminal-dock" hidden={!open} aria-label="Console">
      <Suspense fallback={<div className="terminal-loading">Loading console…</div>}>
        <TerminalPane runtime={rt} userId={userId} promptFocusSignal={focusSignal} />
      </Suspense>
    </section>
  );
}
