// Work kept off the thread that answers requests (src/server/offThread.ts).

import { once } from 'node:events';
import { getPriority } from 'node:os';
import { describe, expect, it } from 'vitest';
import { startLowProcess } from '../../src/server/offThread.ts';

describe('startLowProcess', () => {
  it.runIf(process.platform === 'linux')(
    'runs every thread of the process at the least priority from its start, this one keeping its own',
    async () => {
      const before = getPriority();
      const child = startLowProcess(new URL('./lowProcess-fixture.ts', import.meta.url));
      const [nices] = (await once(child, 'message')) as [number[]];
      // The main thread, V8's helpers (its garbage collector's among them), libuv's pool.
      expect(nices.length).toBeGreaterThan(1);
      expect(new Set(nices)).toEqual(new Set([19]));
      expect(getPriority()).toBe(before);
      await once(child, 'exit');
    },
  );
});
