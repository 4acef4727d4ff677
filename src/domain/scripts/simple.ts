// Simple (Workflow) scripts: the code is JSON,
//   {"match": "all" | "any", "conditions": [{field, operator, value}], "actions": [{type, options}]}
// checked against the catalogue (fields valid in the context, operators of the field's type,
// options of the action) and run by evaluate(): conditions over the event's values, then the
// actions with their {field} placeholders filled. Nothing here touches a server; the engine takes
// the actions this returns.

import { ACTIONS, type ActionType, isActionType, type OptionSpec } from './actions.ts';
import { FIELDS, type FieldSpec, fieldValidIn } from './fields.ts';
import { OPERATORS, regexProblem } from './operators.ts';

export interface Condition {
  field: string;
  operator: string;
  value: string | number | boolean;
}

export interface Action {
  type: ActionType;
  options: Record<string, unknown>;
}

export interface SimpleScript {
  match: 'all' | 'any';
  conditions: Condition[];
  actions: Action[];
}

/** Event values by field name; random fields are produced on reading. */
export type EventValues = Record<string, unknown>;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Where each placeholder sits: {fieldName}. */
const PLACEHOLDER = /\{([A-Za-z][A-Za-z0-9]*)\}/g;
/** A blueprint class path: /Path/To/Name.Name or Name_C. The catalogue check is blueprintPathProblem. */
const CLASS_PATH = /^\/[^\s]+$/;

/**
 * The one place a give-item or create-dino class path is checked. Loose for now (a path that
 * starts with /); the item and species catalogue replaces this body when it lands.
 */
export function blueprintPathProblem(path: string): string | null {
  return CLASS_PATH.test(path.trim()) ? null : 'must be a class path starting with /';
}

function optionProblem(spec: OptionSpec, v: unknown): string | null {
  if (spec.type === 'Number') {
    if (typeof v !== 'number' || !Number.isFinite(v)) return 'must be a number';
    if (spec.min !== undefined && v < spec.min) return `must be at least ${spec.min}`;
    if (spec.max !== undefined && v > spec.max) return `must be at most ${spec.max}`;
    return null;
  }
  if (spec.type === 'Boolean') return typeof v === 'boolean' ? null : 'must be true or false';
  if (typeof v !== 'string') return 'must be text';
  if (spec.required && v.trim() === '') return 'must not be empty';
  if (spec.values && !spec.values.includes(v)) return `must be one of ${spec.values.join(', ')}`;
  if (spec.format === 'blueprintPath') return blueprintPathProblem(v);
  if (spec.format === 'url' && !/^https?:\/\/[^\s]+$/i.test(v)) return 'must be an http(s) address';
  if (spec.format === 'json') {
    try {
      JSON.parse(v);
    } catch {
      return 'must be JSON';
    }
  }
  return null;
}

/** A single placeholder, as Number and Boolean options may be given before the event fills them. */
const hasPlaceholder = (v: string) => /\{[A-Za-z][A-Za-z0-9]*\}/.test(v);
const wholePlaceholder = (v: unknown) => typeof v === 'string' && /^\{[A-Za-z][A-Za-z0-9]*\}$/.test(v);

/**
 * What is wrong with an action's options, or null. `filled` is false while placeholders still
 * stand in for values (saving a Simple script); run-time checks pass true.
 */
export function actionProblem(type: unknown, options: unknown, filled = true): string | null {
  if (!isActionType(type)) return `${String(type)} is not an action.`;
  const spec = ACTIONS[type];
  const opts = options ?? {};
  if (!isRecord(opts)) return `${spec.label}: options must be an object.`;
  const known = new Set(spec.options.map((o) => o.name));
  const unknown = Object.keys(opts).filter((k) => !known.has(k));
  if (unknown.length > 0) return `${spec.label} has no option ${unknown.join(', ')}.`;
  for (const option of spec.options as readonly OptionSpec[]) {
    const v = opts[option.name];
    const unless = option.requiredUnless;
    const required =
      option.required ||
      (unless !== undefined && String(opts[unless.option] ?? unless.value) !== unless.value);
    if (v === undefined || v === null || v === '') {
      if (required) return `${spec.label} needs ${option.name}.`;
      continue;
    }
    // Before the event fills them, placeholders stand for values of any shape.
    if (
      !filled &&
      typeof v === 'string' &&
      (wholePlaceholder(v) || (option.type === 'String' && hasPlaceholder(v)))
    )
      continue;
    const problem = optionProblem(option, v);
    if (problem) return `${spec.label}: ${option.name} ${problem}.`;
  }
  return null;
}

const placeholdersIn = (text: string) => [...text.matchAll(PLACEHOLDER)].map((m) => m[1]);

/** A readable field for placeholders: known, valid in the context, not a condition-only one. */
function placeholderProblem(name: string, context: string): string | null {
  const f = (FIELDS as Record<string, FieldSpec>)[name];
  if (!f) return `{${name}} is not a field.`;
  if (!fieldValidIn(name, context)) return `{${name}} is not available in ${context} scripts.`;
  if (f.conditionOnly) return `{${name}} can be used in conditions only.`;
  return null;
}

function conditionProblem(c: unknown, context: string, i: number): string | null {
  const at = `Condition ${i + 1}`;
  if (!isRecord(c)) return `${at} must be an object.`;
  const field = (FIELDS as Record<string, FieldSpec>)[String(c.field)];
  if (!field) return `${at}: ${String(c.field)} is not a field.`;
  if (!fieldValidIn(String(c.field), context))
    return `${at}: ${String(c.field)} is not available in ${context} scripts.`;
  const op = OPERATORS[field.type][String(c.operator)];
  if (!op || !Object.hasOwn(OPERATORS[field.type], String(c.operator)))
    return `${at}: ${String(c.operator)} does not compare ${field.type} fields (use ${Object.keys(OPERATORS[field.type]).join(', ')}).`;
  const expected = field.type === 'String' ? 'string' : field.type === 'Number' ? 'number' : 'boolean';
  if (typeof c.value !== expected) return `${at}: the value must be a ${field.type}.`;
  if (c.operator === 'regex') {
    const p = regexProblem(c.value);
    if (p) return `${at}: ${p}`;
  }
  return null;
}

/** Parses and checks a Simple script for a context; the script, or what is wrong with it. */
export function parseSimple(code: string, context: string): SimpleScript | string {
  let data: unknown;
  try {
    data = JSON.parse(code);
  } catch {
    return 'A Simple script is JSON: {"match", "conditions", "actions"}.';
  }
  if (!isRecord(data)) return 'A Simple script is a JSON object.';
  const match = data.match ?? 'all';
  if (match !== 'all' && match !== 'any') return 'match must be all or any.';
  const conditions = data.conditions ?? [];
  const actions = data.actions ?? [];
  if (!Array.isArray(conditions)) return 'conditions must be a list.';
  if (!Array.isArray(actions)) return 'actions must be a list.';
  for (const [i, c] of conditions.entries()) {
    const p = conditionProblem(c, context, i);
    if (p) return p;
  }
  for (const [i, a] of actions.entries()) {
    if (!isRecord(a)) return `Action ${i + 1} must be an object.`;
    const p = actionProblem(a.type, a.options, false);
    if (p) return `Action ${i + 1}: ${p}`;
    for (const v of Object.values(isRecord(a.options) ? a.options : {}))
      if (typeof v === 'string')
        for (const name of placeholdersIn(v)) {
          const q = placeholderProblem(name, context);
          if (q) return `Action ${i + 1}: ${q}`;
        }
  }
  return {
    match,
    conditions: conditions as Condition[],
    actions: (actions as Record<string, unknown>[]).map((a) => ({
      type: a.type as ActionType,
      options: (a.options as Record<string, unknown> | undefined) ?? {},
    })),
  };
}

/** Reads a field, drawing random fields fresh each time. */
function readField(values: EventValues, name: string, random: () => number): unknown {
  switch (name) {
    case 'randomNumber':
      return random();
    case 'randomDigit':
      return Math.floor(random() * 10);
    case 'generateRandomUsername':
      return randomUsername(random);
    default:
      return values[name];
  }
}

const NAME_PARTS = [
  ['Brave', 'Swift', 'Silent', 'Lucky', 'Grumpy', 'Sunny', 'Iron', 'Misty'],
  ['Dodo', 'Raptor', 'Trike', 'Parasaur', 'Otter', 'Ptera', 'Mammoth', 'Bronto'],
];
function randomUsername(random: () => number): string {
  const pick = (list: string[]) => list[Math.floor(random() * list.length)];
  return `${pick(NAME_PARTS[0])}${pick(NAME_PARTS[1])}${Math.floor(random() * 1000)}`;
}

/** Text with every {field} replaced by the event's value (empty when the event has none). */
function fillPlaceholders(text: string, values: EventValues, random: () => number): string {
  return text.replace(PLACEHOLDER, (_m, name: string) => {
    const v = readField(values, name, random);
    return v === undefined || v === null ? '' : String(v);
  });
}

/** An option's value with placeholders filled; a whole placeholder keeps the field's own type. */
function fillOption(v: unknown, values: EventValues, random: () => number): unknown {
  if (typeof v !== 'string') return v;
  if (wholePlaceholder(v)) {
    const value = readField(values, v.slice(1, -1), random);
    return value === undefined ? null : value;
  }
  return fillPlaceholders(v, values, random);
}

/** Whether the conditions hold; a script without conditions always runs. */
export const matches = (script: SimpleScript, values: EventValues, random = Math.random): boolean => {
  if (script.conditions.length === 0) return true;
  const test = (c: Condition) => {
    const field = (FIELDS as Record<string, FieldSpec>)[c.field];
    return OPERATORS[field.type][c.operator].test(readField(values, c.field, random), c.value);
  };
  return script.match === 'all' ? script.conditions.every(test) : script.conditions.some(test);
};

/**
 * The actions a Simple script takes for these values: none unless its conditions match, then each
 * in order with placeholders filled, up to (not including) the first Stop processing.
 */
export function evaluate(script: SimpleScript, values: EventValues, random = Math.random): Action[] {
  if (!matches(script, values, random)) return [];
  const taken: Action[] = [];
  for (const a of script.actions) {
    if (a.type === 'stopProcessing') break;
    taken.push({
      type: a.type,
      options: Object.fromEntries(
        Object.entries(a.options).map(([k, v]) => [k, fillOption(v, values, random)]),
      ),
    });
  }
  return taken;
}
