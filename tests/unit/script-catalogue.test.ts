// The script catalogue: the committed reference matches the generator, the operators and fields
// the SPEC names are all there, Simple scripts are checked against the context and run in order.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ACTION_TYPES,
  ACTIONS,
  actionProblem,
  cronExpression,
  cronSchedule,
  evaluate,
  FIELDS,
  firesAt,
  OPERATORS,
  parseSimple,
  RESTRICTED_USE,
  type SimpleScript,
} from '../../src/domain/scripts/index.ts';
import { scriptReference } from '../../src/domain/scripts/reference.ts';

it('docs/scripting.md is what the catalogue generates (npm run script-reference)', () => {
  const committed = readFileSync(new URL('../../docs/scripting.md', import.meta.url), 'utf8');
  expect(committed).toBe(scriptReference());
});

it('has every action, operator count and special field of SPEC §3', () => {
  expect(ACTION_TYPES).toHaveLength(19);
  expect(Object.keys(OPERATORS.String)).toHaveLength(13);
  expect(Object.keys(OPERATORS.Number)).toEqual([
    'equals',
    'notEquals',
    'lessThan',
    'lessThanEquals',
    'greaterThan',
    'greaterThanEquals',
  ]);
  expect(Object.keys(OPERATORS.Boolean)).toEqual(['equals']);
  expect(FIELDS.randomDigit).toMatchObject({ random: true, type: 'Number' });
  expect(FIELDS.hateScore).toMatchObject({ conditionOnly: true, contexts: ['chat'] });
  expect(new Set(ACTION_TYPES.map((t) => ACTIONS[t].fn)).size).toBe(19);
});

describe('operators', () => {
  const s = OPERATORS.String;
  it.each([
    ['contains', 'Hello World', 'world', true],
    ['containsCaseSensitive', 'Hello World', 'world', false],
    ['notContains', 'abc', 'd', true],
    ['beginsWith', 'Raptor', 'rap', true],
    ['endsWithCaseSensitive', 'Raptor', 'OR', false],
    ['regex', 'buy gold now', '^buy .* now$', true],
    ['equals', 'ABC', 'abc', true],
    ['notEqualsCaseSensitive', 'ABC', 'abc', true],
  ])('%s(%s, %s) is %s', (op, a, b, expected) => {
    expect(s[op].test(a, b)).toBe(expected);
  });
  it('compares numbers and booleans', () => {
    expect(OPERATORS.Number.greaterThanEquals.test(5, 5)).toBe(true);
    expect(OPERATORS.Number.lessThan.test('nope', 5)).toBe(false);
    expect(OPERATORS.Boolean.equals.test(true, true)).toBe(true);
    expect(OPERATORS.Boolean.equals.test(undefined, true)).toBe(false);
  });
});

describe('Simple scripts', () => {
  const code = (s: unknown) => JSON.stringify(s);
  it('refuses fields of other contexts, wrong operators and bad options, saying which', () => {
    expect(parseSimple('nope', 'chat')).toMatch(/JSON/);
    expect(
      parseSimple(code({ conditions: [{ field: 'dinoName', operator: 'equals', value: 'x' }] }), 'chat'),
    ).toBe('Condition 1: dinoName is not available in chat scripts.');
    expect(
      parseSimple(code({ conditions: [{ field: 'hateScore', operator: 'contains', value: 'x' }] }), 'chat'),
    ).toMatch(/contains does not compare Number fields/);
    expect(
      parseSimple(code({ conditions: [{ field: 'message', operator: 'regex', value: '(' }] }), 'chat'),
    ).toMatch(/pattern cannot be used/);
    expect(parseSimple(code({ actions: [{ type: 'explode' }] }), 'chat')).toBe(
      'Action 1: explode is not an action.',
    );
    expect(parseSimple(code({ actions: [{ type: 'sendChat', options: {} }] }), 'chat')).toBe(
      'Action 1: Send chat needs message.',
    );
    // A line to one survivor or tribe names it; to Everyone (or no one said) it needs none.
    const chatTo = (options: Record<string, string>) =>
      parseSimple(code({ actions: [{ type: 'sendChat', options: { message: 'hi', ...options } }] }), 'chat');
    expect(chatTo({ recipientType: 'Tribe' })).toBe('Action 1: Send chat needs recipient.');
    expect(chatTo({ recipientType: 'Survivor', recipient: '' })).toBe('Action 1: Send chat needs recipient.');
    expect(typeof chatTo({ recipientType: 'Survivor', recipient: '{characterId}' })).toBe('object');
    expect(typeof chatTo({ recipientType: 'Everyone' })).toBe('object');
    expect(typeof chatTo({})).toBe('object');
    expect(chatTo({ recipientType: 'Alliance', recipient: 'x' })).toMatch(/recipientType must be one of/);
    expect(
      parseSimple(code({ actions: [{ type: 'sendChat', options: { message: 'hi {hateScore}' } }] }), 'chat'),
    ).toBe('Action 1: {hateScore} can be used in conditions only.');
    expect(
      parseSimple(
        code({ actions: [{ type: 'giveItem', options: { characterId: '{characterId}', itemPath: 'x' } }] }),
        'chat',
      ),
    ).toMatch(/itemPath must be a class path/);
  });

  it('runs the actions in order with placeholders filled, up to Stop processing', () => {
    const script = parseSimple(
      code({
        match: 'any',
        conditions: [
          { field: 'message', operator: 'contains', value: 'hello' },
          { field: 'hateScore', operator: 'greaterThan', value: 0.9 },
        ],
        actions: [
          { type: 'sendChat', options: { message: 'Hi {playerName} on {serviceName}' } },
          {
            type: 'giveItem',
            options: { characterId: '{characterId}', itemPath: '/Game/X.X_C', quantity: '{randomDigit}' },
          },
          { type: 'stopProcessing' },
          { type: 'kickPlayer', options: { playerId: '{playerId}' } },
        ],
      }),
      'chat',
    ) as SimpleScript;
    const values = {
      message: 'well HELLO',
      playerName: 'Ann',
      serviceName: 'Island',
      characterId: 'c1',
      hateScore: 0,
    };
    expect(evaluate(script, values, () => 0.55)).toEqual([
      { type: 'sendChat', options: { message: 'Hi Ann on Island' } },
      { type: 'giveItem', options: { characterId: 'c1', itemPath: '/Game/X.X_C', quantity: 5 } },
    ]);
    expect(evaluate(script, { ...values, message: 'bye' })).toEqual([]);
    expect(evaluate(script, { ...values, message: 'bye', hateScore: 0.95 })).toHaveLength(2);
  });

  it('checks filled options at run time', () => {
    expect(actionProblem('giveItem', { characterId: 'c', itemPath: '/Game/X', quantity: 0 })).toBe(
      'Give item: quantity must be at least 1.',
    );
    expect(actionProblem('toggleBuff', { targetId: 'c', mode: 'flip', buffPath: 'x' })).toMatch(/one of add/);
  });
});

it('reads cron with names and nicknames, once a minute', () => {
  expect(cronExpression('@daily')).toBe(true);
  expect(cronExpression('*/5 9-17 * * MON-FRI')).toBe(true);
  expect(cronExpression('* * * * * *')).toBe(false);
  expect(cronExpression('61 * * * *')).toBe(false);
  const s = cronSchedule('30 4 * * *')!;
  expect(firesAt(s, new Date('2026-03-01T04:30:00Z'))).toBe(true);
  expect(firesAt(s, new Date('2026-03-01T04:31:00Z'))).toBe(false);
});

it('spots restricted beacon members however they are spelled', () => {
  expect(RESTRICTED_USE.test('beacon . httpRequest("x")')).toBe(true);
  expect(RESTRICTED_USE.test("beacon['hmac']('sha256', k, t)")).toBe(true);
  expect(RESTRICTED_USE.test('beacon.sendChat("hash")')).toBe(false);
});
