import { describe, expect, it } from 'vitest';
import { ActionEvent } from '../../src/domain/api.ts';
import { createGameResults } from '../../src/web/store/gameResults.ts';

describe("a script test's output as it comes", () => {
  it('hands over lines that came before anyone followed, then the rest as they come, until stopped', () => {
    const results = createGameResults();
    const say = results.handlers[ActionEvent.scriptTestOutput];
    say({ requestId: 'r1', lines: ['one'] });
    say({ requestId: 'r1', lines: ['two'] });
    say({ requestId: 'other', lines: ['not mine'] });
    const seen: string[][] = [];
    const stop = results.follow('r1', (lines) => seen.push(lines));
    say({ requestId: 'r1', lines: ['three', 'four'] });
    stop();
    say({ requestId: 'r1', lines: ['after'] });
    expect(seen).toEqual([
      ['one', 'two'],
      ['three', 'four'],
    ]);
    // What came for another test is still waiting for it.
    const others: string[][] = [];
    results.follow('other', (lines) => others.push(lines));
    expect(others).toEqual([['not mine']]);
  });

  it('ignores events that are not a test output', () => {
    const results = createGameResults();
    const say = results.handlers[ActionEvent.scriptTestOutput];
    say(null);
    say({ requestId: 7, lines: ['x'] });
    say({ requestId: 'r', lines: 'x' });
    const seen: string[][] = [];
    results.follow('r', (lines) => seen.push(lines));
    expect(seen).toEqual([]);
  });
});
