// Condition operators (SPEC §3), by the type of the field they compare: 13 for text (six with a
// case-sensitive variant, and regex, which is case-sensitive unless its pattern says otherwise),
// 6 for numbers, equals for booleans. One table says how each compares, so the editor, the
// validator and the engine cannot disagree.

import type { FieldType } from './fields.ts';

type Compare = (actual: unknown, expected: unknown) => boolean;

export interface OperatorSpec {
  label: string;
  test: Compare;
}

const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));

/** A text operator and its case-sensitive twin. */
function textPair(name: string, label: string, op: (a: string, b: string) => boolean) {
  return {
    [name]: {
      label,
      test: (a: unknown, b: unknown) => op(text(a).toLowerCase(), text(b).toLowerCase()),
    },
    [`${name}CaseSensitive`]: {
      label: `${label} (case-sensitive)`,
      test: (a: unknown, b: unknown) => op(text(a), text(b)),
    },
  } satisfies Record<string, OperatorSpec>;
}

const number = (v: unknown) => (typeof v === 'number' ? v : Number(v));
const numeric = (label: string, op: (a: number, b: number) => boolean): OperatorSpec => ({
  label,
  test: (a, b) => {
    const x = number(a);
    const y = number(b);
    return Number.isFinite(x) && Number.isFinite(y) && op(x, y);
  },
});

/** Patterns are limited so a condition cannot stall the engine on catastrophic backtracking. */
const REGEX_MAX_LENGTH = 200;

export function regexProblem(pattern: unknown): string | null {
  if (typeof pattern !== 'string') return 'The pattern must be text.';
  if (pattern.length > REGEX_MAX_LENGTH) return `The pattern can be at most ${REGEX_MAX_LENGTH} characters.`;
  try {
    new RegExp(pattern, 'u');
    return null;
  } catch (e) {
    return `The pattern is not valid: ${(e as Error).message}.`;
  }
}

const TEXT = {
  ...textPair('contains', 'contains', (a, b) => a.includes(b)),
  ...textPair('notContains', 'does not contain', (a, b) => !a.includes(b)),
  ...textPair('equals', 'equals', (a, b) => a === b),
  ...textPair('notEquals', 'does not equal', (a, b) => a !== b),
  ...textPair('beginsWith', 'begins with', (a, b) => a.startsWith(b)),
  ...textPair('endsWith', 'ends with', (a, b) => a.endsWith(b)),
  regex: {
    label: 'matches the regular expression',
    test: (a: unknown, b: unknown) => regexProblem(b) === null && new RegExp(String(b), 'u').test(text(a)),
  },
} satisfies Record<string, OperatorSpec>;

const NUMBER = {
  equals: numeric('=', (a, b) => a === b),
  notEquals: numeric('≠', (a, b) => a !== b),
  lessThan: numeric('<', (a, b) => a < b),
  lessThanEquals: numeric('≤', (a, b) => a <= b),
  greaterThan: numeric('>', (a, b) => a > b),
  greaterThanEquals: numeric('≥', (a, b) => a >= b),
} satisfies Record<string, OperatorSpec>;

const BOOLEAN = {
  equals: {
    label: 'equals',
    test: (a: unknown, b: unknown) => (a === true || a === 'true') === (b === true || b === 'true'),
  },
} satisfies Record<string, OperatorSpec>;

/** Operators by the type of the field they compare; a name means what its type says. */
export const OPERATORS: Record<FieldType, Record<string, OperatorSpec>> = {
  String: TEXT,
  Number: NUMBER,
  Boolean: BOOLEAN,
};
