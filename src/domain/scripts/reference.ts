// The script authors' reference (docs/scripting.md), written from the catalogue alone, so it says
// what the engine runs and the validator accepts. scripts/script-reference.ts writes it; a unit
// test fails when the committed file differs from what this produces.

import { ACTIONS, type ActionSpec, type OptionSpec } from './actions.ts';
import { actionSignature, BEACON_MEMBERS, type BeaconMember } from './beacon.ts';
import { CONTEXTS } from './contexts.ts';
import { FIELDS, type FieldSpec, fieldsOf } from './fields.ts';
import { LIMITS_TEXT, SCRIPT_LIMITS } from './limits.ts';
import { OPERATORS, REGEX_HELP } from './operators.ts';

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const table = (head: string[], rows: string[][]) =>
  [
    `| ${head.join(' | ')} |`,
    `| ${head.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
  ].join('\n');

function optionNote(o: OptionSpec): string {
  const notes = [o.description];
  if (o.values) notes.push(`One of ${o.values.join(', ')}.`);
  if (o.min !== undefined && o.max !== undefined) notes.push(`From ${o.min} to ${o.max}.`);
  else if (o.min !== undefined) notes.push(`At least ${o.min}.`);
  return notes.join(' ');
}

const jsValue = (v: unknown) =>
  typeof v === 'string' && /^\{[A-Za-z]+\}$/.test(v)
    ? `beacon.eventData.${v.slice(1, -1)}`
    : JSON.stringify(v);

/** Positional arguments while they have no gaps, else the options object. */
function jsExample(a: ActionSpec): string {
  const given = a.options.filter((o) => a.example[o.name] !== undefined);
  const positional = given.every((o, i) => a.options[i] === o);
  const args = positional
    ? given.map((o) => jsValue(a.example[o.name]))
    : [`{ ${given.map((o) => `${o.name}: ${jsValue(a.example[o.name])}`).join(', ')} }`];
  return `beacon.${a.fn}(${args.join(', ')});`;
}

function actionSection(type: string, a: ActionSpec): string {
  const simple = JSON.stringify({ type, options: a.example });
  return [
    `### ${a.label} (\`${type}\`)`,
    '',
    a.description,
    '',
    `JavaScript: \`${actionSignature(a)}\`${a.options.length > 0 ? ', or one object of the options' : ''}`,
    '',
    a.options.length > 0
      ? table(
          ['option', 'type', 'required', 'meaning'],
          a.options.map((o) => [`\`${o.name}\``, o.type, o.required ? 'yes' : 'no', optionNote(o)]),
        )
      : 'No options.',
    '',
    'Simple:',
    '',
    '```json',
    simple,
    '```',
    '',
    'JavaScript:',
    '',
    '```js',
    jsExample(a),
    '```',
  ].join('\n');
}

function fieldRow(name: string, f: FieldSpec): string[] {
  const notes = [f.description];
  if (f.conditionOnly) notes.push('Conditions only.');
  if (f.random) notes.push('Random.');
  return [
    `\`${name}\``,
    f.type,
    f.contexts === 'all' ? 'every context' : f.contexts.join(', '),
    notes.join(' '),
  ];
}

export function scriptReference(): string {
  const fields = FIELDS as Record<string, FieldSpec>;
  return [
    '# Script reference',
    '',
    '<!-- Written by `npm run script-reference` from src/domain/scripts; do not edit by hand. -->',
    '',
    'A script handles one or more contexts: a game event, or a trigger that runs it by name. Each',
    'handler is written in Simple (conditions over the event’s fields, then actions) or in JavaScript',
    '(the `beacon` object below). The same catalogue checks both when a script is saved.',
    '',
    '## Simple scripts',
    '',
    'The code is JSON: `match` is `all` (every condition must hold) or `any`; `conditions` compare a',
    'field with a value; `actions` run in order, stopping at the first `stopProcessing`. Text options',
    'may hold `{field}` placeholders, filled from the event; an option that is exactly one placeholder',
    'takes the field’s own type.',
    '',
    '```json',
    JSON.stringify(
      {
        match: 'all',
        conditions: [{ field: 'message', operator: 'contains', value: 'hello' }],
        actions: [{ type: 'sendChat', options: { message: 'Hello, {playerName}!' } }],
      },
      null,
      2,
    ),
    '```',
    '',
    '## Contexts',
    '',
    table(
      ['context', 'what starts it', 'keyword', 'fields'],
      Object.entries(CONTEXTS).map(([name, c]) => [
        `\`${name}\``,
        c.description,
        c.keyword ?? '',
        fieldsOf(name)
          .filter((f) => fields[f].contexts !== 'all')
          .join(', '),
      ]),
    ),
    '',
    'Every context also has the server fields and the random fields.',
    '',
    '## Fields',
    '',
    table(
      ['field', 'type', 'contexts', 'meaning'],
      Object.entries(fields).map(([n, f]) => fieldRow(n, f)),
    ),
    '',
    '## Condition operators',
    '',
    table(
      ['field type', 'operator', 'meaning'],
      Object.entries(OPERATORS).flatMap(([type, ops]) =>
        Object.entries(ops).map(([name, op]) => [type, `\`${name}\``, op.label]),
      ),
    ),
    '',
    REGEX_HELP,
    '',
    '## Actions',
    '',
    ...Object.entries(ACTIONS).flatMap(([type, a]) => [actionSection(type, a as ActionSpec), '']),
    '## The beacon object',
    '',
    'Besides one function per action, a JavaScript script has:',
    '',
    table(
      ['member', 'meaning', 'review'],
      Object.values(BEACON_MEMBERS as Record<string, BeaconMember>).map((m) => [
        `\`${m.signature}\``,
        m.description,
        m.restricted ? 'needs review' : '',
      ]),
    ),
    '',
    'A script that uses a member marked “needs review” waits for a reviewer before that revision',
    'runs; until then, and after a rejection, the last approved revision runs. Other JavaScript',
    'runs on probation. The script’s Common JavaScript is placed before each handler.',
    '',
    'Example, a bucket counter per player:',
    '',
    '```js',
    'const bucket = beacon.params.bucketId;',
    "const visits = Number(beacon.getBucketValue(bucket, 'visits', beacon.eventData.playerId) ?? 0) + 1;",
    "beacon.setBucketValue(bucket, 'visits', String(visits), beacon.eventData.playerId);",
    "beacon.sendChat('Welcome back, ' + beacon.eventData.playerName + ': visit ' + visits + '.');",
    '```',
    '',
    '## Limits',
    '',
    `A JavaScript run stops with an error when it runs longer than ${LIMITS_TEXT.time}, allocates more than`,
    `${LIMITS_TEXT.memory}, uses more than ${LIMITS_TEXT.stack} of stack, or prints more than ${LIMITS_TEXT.output}.`,
    `A subroutine chain stops after ${SCRIPT_LIMITS.subroutineDepth} calls. A test run may take up to ${LIMITS_TEXT.test}.`,
    '',
    'Script time: the JavaScript runs of one account (the person who attached the script, or who',
    `tests it) share a running time of ${SCRIPT_LIMITS.secondsPerMinute} seconds a minute, saved up to ${SCRIPT_LIMITS.burstSeconds} seconds after a quiet`,
    "while. Only the script's own work counts, not its waits for the server or for an http answer, so",
    'a script of a few milliseconds never meets it. A run that uses up what is left stops there, and',
    "the account's runs are refused until a second is saved (queued ones, webhooks, menu items and",
    "delayed subroutines, wait for it instead); the run's log line, or the tester, says when scripts",
    "run again. It keeps one account's endless loops from holding a script thread, and the server's",
    'cores, for good. A self-hosted install sets it with',
    '`PALISADE_SCRIPT_SECONDS_PER_MINUTE` (docs/api.md "Configuration").',
    '',
  ].join('\n');
}
