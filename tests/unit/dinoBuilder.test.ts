// The Custom Dino Creator's rules (SPEC §5): wild points against the asked and the maximum level,
// trait caps with the spec's message, and the console's typed forms of stats and colours.

import { describe, expect, it } from 'vitest';
import {
  addTraitProblem,
  DINO_MAX_LEVEL,
  parseColors,
  parseStatPoints,
  pointsRemaining,
  statPointsProblem,
  traitsProblem,
} from '../../src/domain/dinoBuilder.ts';
import { giveDinoPayload } from '../../src/domain/validate.ts';

describe('wild stat points', () => {
  it('a dino of level L has L − 1 points; without a level the maximum level bounds them', () => {
    expect(pointsRemaining({ 0: 10, 8: 20 }, 50)).toBe(19);
    expect(pointsRemaining({}, null)).toBe(DINO_MAX_LEVEL - 1);
    expect(pointsRemaining({ 0: 30 }, 20)).toBe(-11);
  });

  it('refuses points that need a higher level than asked, and accepts exactly enough', () => {
    expect(statPointsProblem({ 0: 10, 8: 9 }, 20)).toBeNull();
    expect(statPointsProblem({ 0: 10, 8: 10 }, 20)).toBe(
      'The stat points need level 21, higher than the level asked (20).',
    );
  });

  it('refuses points that do not fit under the maximum dino level, whatever level is asked', () => {
    const many = { 0: 255, 1: 255 };
    expect(statPointsProblem(many, null)).toBe(
      `The stat points need level 511, above the maximum dino level of ${DINO_MAX_LEVEL}.`,
    );
    expect(statPointsProblem({ 0: 200, 1: 249 }, null)).toBeNull();
  });

  it('the API check says the same: invalidStats with the message', () => {
    expect(giveDinoPayload({ dinoPath: '/Game/X.X', level: 5, stats: { 0: 5 } })).toEqual({
      code: 'invalidStats',
      message: 'The stat points need level 6, higher than the level asked (5).',
      field: 'stats',
    });
    expect(giveDinoPayload({ dinoPath: '/Game/X.X', level: 6, stats: { 0: 5 } })).toBeNull();
    expect(giveDinoPayload({ dinoPath: '/Game/X.X', level: DINO_MAX_LEVEL + 1 })?.code).toBe('invalidLevel');
  });

  it('reads stats by name or number, each 0 to 255', () => {
    expect(parseStatPoints('melee=20 Health=10, 11:3')).toEqual({ value: { 8: 20, 0: 10, 11: 3 } });
    expect(parseStatPoints('')).toEqual({ value: {} });
    expect(parseStatPoints('melee=256')).toEqual({
      error: 'Wild stat points must be a whole number from 0 to 255, or blank.',
    });
    expect(parseStatPoints('luck=3')).toHaveProperty('error');
    expect(parseStatPoints('12:3')).toHaveProperty('error');
  });
});

describe('traits', () => {
  it('caps each trait with the spec message', () => {
    expect(addTraitProblem(['Robust', 'Robust'], 'Robust')).toBeNull();
    expect(addTraitProblem(['Robust', 'Robust', 'Robust'], 'Robust')).toBe(
      'You cannot add any more Robust traits.',
    );
    expect(addTraitProblem([], 'Frail')).toBeNull();
    expect(addTraitProblem(['Frail'], 'Frail')).toBe('You cannot add any more Frail traits.');
    expect(addTraitProblem([], 'Lucky')).toBe('Lucky is not a trait.');
  });

  it('checks a whole list, and the API refuses it as invalidTraits', () => {
    expect(traitsProblem(['Robust', 'Frail', 'Robust'])).toBeNull();
    expect(traitsProblem(['Frail', 'Robust', 'Frail'])).toBe('You cannot add any more Frail traits.');
    expect(giveDinoPayload({ dinoPath: '/Game/X.X', traits: ['Frail', 'Frail'] })).toMatchObject({
      code: 'invalidTraits',
      message: 'You cannot add any more Frail traits.',
    });
  });
});

describe('colours', () => {
  it('takes exactly six ids 0 to 255', () => {
    expect(parseColors('1, 2 3,0,0,0')).toEqual({ value: [1, 2, 3, 0, 0, 0] });
    expect(parseColors('1,2,3')).toHaveProperty('error');
    expect(parseColors('1,2,3,4,5,256')).toHaveProperty('error');
  });
});
