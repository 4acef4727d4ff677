// Renders the result list into a detached element a few times while the palette waits for its
// first key. The first keys otherwise run React's update paths, cmdk's and ours cold: `r`, `re`
// and `rex` cost 2–3× the main-thread time of a later key (bench/palette/profile.mjs).

import { Command } from 'cmdk';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { COMMAND_PROPS, RowList, selectedValue } from './RowList.tsx';
import type { PaletteRow } from './rows.ts';

const ignore = () => {};

/** One render per step, each with the next row set, alternating the active row; then unmounts. */
export function* warmRows(rowSets: readonly PaletteRow[][]): Generator<void> {
  const root = createRoot(document.createElement('div'));
  try {
    for (const [i, rows] of rowSets.entries()) {
      flushSync(() =>
        root.render(
          <Command {...COMMAND_PROPS} value={selectedValue(rows, i % 2)}>
            <RowList rows={rows} active={i % 2} scrollTick={i} label="" onChoose={ignore} onHover={ignore} />
          </Command>,
        ),
      );
      yield;
    }
  } finally {
    // Cancelling happens in an effect's cleanup, where a root may not unmount synchronously.
    queueMicrotask(() => root.unmount());
  }
}
