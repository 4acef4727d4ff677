// The console pane, docked at the bottom. xterm is loaded only when first opened.

import { useAtomValue } from 'jotai';
import { Suspense } from 'react';
import { lazyWhenIdle } from './lazyPane.ts';
import type { CommandRuntime } from './runtime.ts';
import { terminalAtom } from './state.ts';

const TerminalPane = lazyWhenIdle(() => import('../terminal/TerminalPane.tsx'));

export function TerminalDock({ rt, userId }: { rt: CommandRuntime; userId: string }) {
  const { open, focusSignal } = useAtomValue(terminalAtom);
  if (!open && focusSignal === 0) return null;
  return (
    <section className="terminal-dock" hidden={!open} aria-label="Console">
      <Suspense fallback={<div className="terminal-loading">Loading console…</div>}>
        <TerminalPane runtime={rt} userId={userId} promptFocusSignal={focusSignal} />
      </Suspense>
    </section>
  );
}
