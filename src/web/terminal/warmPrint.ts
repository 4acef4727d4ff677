// Prints made-up tables into a terminal that is never opened while the console waits for its first
// command. A page's first print otherwise runs xterm's parser and our formatting cold, as the
// palette's first keys did before warmRows: in alternate bench runs (bench/terminal) the first
// print of 10,000 rows painted in 228–249 ms without this and 179–188 ms with it.

import { Terminal } from '@xterm/xterm';
import { tableSlices } from './format.ts';

/** Steps of a few hundred rows: enough calls for the JIT to compile the per-cell paths. */
const STEPS = 12;
const ROWS_PER_STEP = 200;

const sampleTable = (step: number) => ({
  columns: ['Name', 'Id', 'Server', 'Level', 'Online'],
  rows: Array.from({ length: ROWS_PER_STEP }, (_, i) => [
    `Survivor ${step}-${i} ✓`,
    `4d6f8a10-1c2b-4e3d-9f80-${i.toString(16).padStart(12, '0')}`,
    ['Island PvE', 'Scorched PvP'][i % 2],
    1 + ((i * 37) % 450),
    i % 3 === 0,
  ]),
});

/** One step per format-and-write, for runWhenIdle; the terminal is made and disposed here. */
export function* warmPrint(cols: number, rows: number): Generator<void> {
  // Not opened, so it has no renderer and nothing shows: only the parser and buffer run.
  const scratch = new Terminal({ cols, rows, scrollback: 0 });
  try {
    for (let step = 0; step < STEPS; step++) {
      for (const lines of tableSlices(sampleTable(step), cols)) {
        if (lines.length > 0) scratch.write(`${lines.join('\r\n')}\r\n`);
      }
      yield;
    }
  } finally {
    scratch.dispose();
  }
}
