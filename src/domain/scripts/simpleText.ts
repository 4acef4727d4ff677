// A Simple script in words, for whoever reads one: the editor's lists, the tester's report and the
// Workshop's preview of someone else's script show sentences, not the JSON it is stored as.

import { inWords } from '../words.ts';
import { ACTIONS } from './actions.ts';
import { FIELDS, type FieldSpec } from './fields.ts';
import { OPERATORS } from './operators.ts';
import type { Action, Condition, SimpleScript } from './simple.ts';

const fieldSpec = (name: string): FieldSpec | undefined => (FIELDS as Record<string, FieldSpec>)[name];

export const operatorLabel = (c: Condition): string =>
  OPERATORS[fieldSpec(c.field)?.type ?? 'String'][c.operator]?.label ?? inWords(c.operator);

export const actionLabel = (a: Pick<Action, 'type'>): string =>
  (ACTIONS as Record<string, { label: string }>)[a.type]?.label ?? inWords(a.type);

/** "Message: Welcome!; Sender name: Greeter": the options given, by their names in words. */
export const optionsSummary = (a: Pick<Action, 'options'>): string =>
  Object.entries(a.options ?? {})
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `${inWords(k)}: ${String(v)}`)
    .join('; ');

/** 'Message begins with "hello"', 'Level is greater than 40'. */
export const conditionText = (c: Condition): string =>
  `${inWords(c.field)} ${operatorLabel(c)} ${typeof c.value === 'string' ? `"${c.value}"` : String(c.value)}`;

/** The script as a heading and items: when it acts, and what it does. */
export function simpleSentences(s: SimpleScript): { when: string; conditions: string[]; actions: string[] } {
  return {
    when:
      s.conditions.length === 0
        ? 'On every event of its context.'
        : `When ${s.match === 'all' ? 'all' : 'any'} of these hold:`,
    conditions: s.conditions.map(conditionText),
    actions: s.actions.map((a) => {
      const options = optionsSummary(a);
      return options ? `${actionLabel(a)} (${options})` : actionLabel(a);
    }),
  };
}
