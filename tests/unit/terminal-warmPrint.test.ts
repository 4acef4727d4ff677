// The console's idle warm-up: formatted tables written to a scratch terminal that is never opened,
// and always disposed, whether the warm-up ran to its end or the pane closed first.

import { Terminal } from '@xterm/xterm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { warmPrint } from '../../src/web/terminal/warmPrint.ts';

afterEach(() => vi.restoreAllMocks());

describe('warmPrint', () => {
  it('writes formatted tables, a step at a time, then disposes its terminal', () => {
    const write = vi.spyOn(Terminal.prototype, 'write').mockImplementation(() => {});
    const dispose = vi.spyOn(Terminal.prototype, 'dispose');
    const steps = [...warmPrint(80, 24)];
    expect(steps.length).toBeGreaterThan(1);
    expect(write.mock.calls.length).toBeGreaterThanOrEqual(steps.length);
    const first = String(write.mock.calls[0][0]);
    expect(first).toContain('Name');
    expect(first.endsWith('\r\n')).toBe(true);
    expect(dispose).toHaveBeenCalledTimes(1);
  });

  it('disposes its terminal when cancelled half way', () => {
    vi.spyOn(Terminal.prototype, 'write').mockImplementation(() => {});
    const dispose = vi.spyOn(Terminal.prototype, 'dispose');
    const steps = warmPrint(80, 24);
    steps.next();
    steps.next();
    steps.return(undefined);
    expect(dispose).toHaveBeenCalledTimes(1);
  });
});
