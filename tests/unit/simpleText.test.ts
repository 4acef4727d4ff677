// A Simple script in words: what the Workshop preview, the editor's lists and the tester show
// instead of the JSON it is stored as, option and field names in words, never identifiers.

import { describe, expect, it } from 'vitest';
import { parseSimple } from '../../src/domain/scripts/simple.ts';
import { optionsSummary, simpleSentences } from '../../src/domain/scripts/simpleText.ts';
import { inWords } from '../../src/domain/words.ts';

describe('a Simple script in words', () => {
  it('says when it acts and what it does', () => {
    const script = parseSimple(
      JSON.stringify({
        match: 'all',
        conditions: [
          { field: 'message', operator: 'beginsWith', value: 'hello' },
          { field: 'playerName', operator: 'equals', value: 'Ann' },
        ],
        actions: [
          { type: 'sendChat', options: { message: 'Welcome, {playerName}!', senderName: 'Greeter' } },
        ],
      }),
      'chat',
    );
    if (typeof script === 'string') throw new Error(script);
    const said = simpleSentences(script);
    expect(said.when).toBe('When all of these hold:');
    expect(said.conditions[0]).toMatch(/^Message .+ "hello"$/);
    expect(said.conditions[1]).toMatch(/^Player name .+ "Ann"$/);
    expect(said.actions).toEqual(['Send chat (Message: Welcome, {playerName}!; Sender name: Greeter)']);
    expect(JSON.stringify(said)).not.toMatch(/senderName|beginsWith|"match"/);
  });

  it('names options and events in words', () => {
    expect(optionsSummary({ options: { recipientType: 'Tribe', asBlueprint: true, empty: '' } })).toBe(
      'Recipient type: Tribe; As blueprint: true',
    );
    expect(inWords('playerJoined')).toBe('Player joined');
    expect(inWords('tribeLog')).toBe('Tribe log');
  });
});
