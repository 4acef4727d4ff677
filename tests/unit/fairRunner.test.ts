// Queued script runs between owners: one owner's flood waits behind itself, never in front of
// another owner's run; each owner at most its share at once; all of the flood runs in the end.

import { expect, it } from 'vitest';
import { createFairRunner } from '../../src/server/scripts/fairRunner.ts';

/** A job that runs until released, noting when it started. */
function holdable(started: string[], name: string) {
  let release = () => {};
  const done = new Promise<void>((r) => {
    release = r;
  });
  const job = () => {
    started.push(name);
    return done;
  };
  return { job, release: () => release() };
}

it('starts another owner’s run at once behind one owner’s flood, and runs the flood in turn', async () => {
  const started: string[] = [];
  const runner = createFairRunner({ total: 2, perOwner: 1 });
  const flood = Array.from({ length: 8 }, (_, i) => holdable(started, `a${i}`));
  for (const f of flood) runner.add('A', f.job);
  const b = holdable(started, 'b0');
  runner.add('B', b.job);
  expect(started).toEqual(['a0', 'b0']);
  expect(runner.busyOwners()).toEqual(['A']);
  b.release();
  for (const f of flood) {
    f.release();
    await Promise.resolve();
    await new Promise((r) => setImmediate(r));
  }
  expect(started).toEqual(['a0', 'b0', 'a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7']);
  expect(runner.busyOwners()).toEqual([]);
});
