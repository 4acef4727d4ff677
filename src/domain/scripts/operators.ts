// Condition operators (SPEC §3), by the type of the field they compare: 13 for text (six with a
// case-sensitive variant, and regex, which is case-sensitive unless its pattern says otherwise),
// 6 for numbers, equals for booleans. One table says how each compares, so the editor, the
// validator and the engine cannot disagree.

import { RE2JS } from 're2js';
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

/**
 * Patterns run on RE2 (re2js, a port of Go's regexp): matching takes time linear in the text
 * whatever the pattern, where a backtracking engine took seconds over `^(a+)+$` and 26 a's, on
 * the API's thread. RE2 has no back-references or look-around; a pattern using them is refused
 * when the script is saved. The length cap keeps a compiled program small.
 */
const REGEX_MAX_LENGTH = 200;
const COMPILED_KEPT = 256;
const compiled = new Map<string, RE2JS>();

/** The compiled pattern, or why it cannot be used. */
function compilePattern(pattern: string): RE2JS | string {
  const kept = compiled.get(pattern);
  if (kept) return kept;
  try {
    const re = RE2JS.compile(pattern);
    if (compiled.size >= COMPILED_KEPT) compiled.delete(compiled.keys().next().value as string);
    compiled.set(pattern, re);
    return re;
  } catch (e) {
    const reason = (e as Error).message.replace(/^error parsing regexp: /, '');
    return `The pattern cannot be used: ${reason}. Patterns follow RE2 syntax, which has no back-references or look-around.`;
  }
}

/** What a regex condition accepts, for authors (the script reference). */
export const REGEX_HELP = `\`regex\` finds the pattern anywhere in the text, case-sensitive unless the pattern starts with \`(?i)\`, at most ${REGEX_MAX_LENGTH} characters. Patterns follow RE2 syntax (the one Go and Google's RE2 use): matching takes time in proportion to the text, whatever the pattern, so no pattern can hold the server up. RE2 has no back-references (\`\\1\`) and no look-around (\`(?=…)\`, \`(?<!…)\`); a script using them is refused when it is saved, saying which part of the pattern cannot be used.`;

export function regexProblem(pattern: unknown): string | null {
  if (typeof pattern !== 'string') return 'The pattern must be text.';
  if (pattern.length > REGEX_MAX_LENGTH) return `The pattern can be at most ${REGEX_MAX_LENGTH} characters.`;
  const re = compilePattern(pattern);
  return typeof re === 'string' ? re : null;
}

/** Whether the pattern occurs in the text; a pattern that cannot be used matches nothing. */
function matchesPattern(actual: unknown, pattern: unknown): boolean {
  if (regexProblem(pattern) !== null) return false;
  return (compilePattern(String(pattern)) as RE2JS).matcher(text(actual)).find();
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
    test: matchesPattern,
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
