// Rehearses typing in a detached copy of the palette's list while the palette waits for its first
// key. The first keys otherwise run React's, cmdk's and our update paths cold: `r`, `re` and
// `rex` cost 2–3× the main-thread time of a later key (bench/palette/profile.mjs). Rendering the
// rows alone left the first key's commit about 2 ms slower than a rehearsed one: a keystroke also
// goes through React's event dispatch and cmdk's input, so the rehearsal types as a user does.

import { Command } from 'cmdk';
import { useState } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { COMMAND_PROPS, RowList, selectedValue } from './RowList.tsx';
import type { PaletteRow } from './rows.ts';

const ignore = () => {};

/** The input's value is the index of the row set shown, alternating the active row. */
function Rehearsal({ rowSets }: { rowSets: readonly PaletteRow[][] }) {
  const [step, setStep] = useState(0);
  const rows = rowSets[step];
  return (
    <Command {...COMMAND_PROPS} value={selectedValue(rows, step % 2)}>
      <Command.Input value={String(step)} onValueChange={(v) => setStep(Number(v))} />
      <RowList rows={rows} active={step % 2} scrollTick={step} label="" onChoose={ignore} onHover={ignore} />
    </Command>
  );
}

const setInputValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;

/** One step per row set after the first: a key typed into the rehearsal's input; then unmounts. */
export function* warmRows(rowSets: readonly PaletteRow[][]): Generator<void> {
  const host = document.createElement('div');
  const root = createRoot(host);
  try {
    flushSync(() => root.render(<Rehearsal rowSets={rowSets} />));
    yield;
    const input = host.querySelector('input');
    if (!input || !setInputValue) return;
    for (let step = 1; step < rowSets.length; step++) {
      // Keydown first, as typing goes (cmdk's root handles it); the input event then renders the
      // next row set synchronously, on React's discrete-event path.
      input.dispatchEvent(new KeyboardEvent('keydown', { key: 'x', bubbles: true }));
      setInputValue.call(input, String(step));
      input.dispatchEvent(new InputEvent('input', { bubbles: true, data: 'x', inputType: 'insertText' }));
      yield;
    }
  } finally {
    // Cancelling happens in an effect's cleanup, where a root may not unmount synchronously.
    queueMicrotask(() => root.unmount());
  }
}
