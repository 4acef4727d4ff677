// Completion of the script API (SPEC §3) from the one catalogue in src/domain/scripts: `beacon.`
// lists its members and one function per action; `beacon.eventData.` lists the fields of the
// handler's context. A Common JavaScript block runs before every handler whatever its event, so
// it is offered the beacon API only.

import type {
  Completion,
  CompletionContext,
  CompletionResult,
  CompletionSource,
} from '@codemirror/autocomplete';
import { syntaxTree } from '@codemirror/language';
import { ACTIONS, type ActionSpec } from '../../../../domain/scripts/actions.ts';
import { actionSignature, BEACON_MEMBERS, type BeaconMember } from '../../../../domain/scripts/beacon.ts';
import { FIELDS, type FieldSpec, fieldsOf } from '../../../../domain/scripts/fields.ts';

export type CodePart = 'script' | 'common';

/** `beacon.hash(algorithm, text)` → `(algorithm, text)`; a value has none. */
const argumentsOf = (signature: string) => /\(.*\)$/.exec(signature)?.[0];

const REVIEW_NOTE = ' Needs review before the script runs.';

const memberOptions: Completion[] = Object.entries(BEACON_MEMBERS as Record<string, BeaconMember>).map(
  ([name, m]) => {
    const args = argumentsOf(m.signature);
    return {
      label: name,
      type: args ? 'function' : 'property',
      detail: args,
      info: m.description + (m.restricted ? REVIEW_NOTE : ''),
    };
  },
);

const actionOptions: Completion[] = Object.values(ACTIONS as Record<string, ActionSpec>).map((a) => ({
  label: a.fn,
  type: 'function',
  detail: argumentsOf(actionSignature(a)),
  info: `${a.label}: ${a.description}`,
}));

const BEACON_OPTIONS = [...memberOptions, ...actionOptions];

/** What `beacon.eventData` holds in a JavaScript run: the event's values. Random fields are Simple's placeholders only. */
export function eventFieldOptions(context: string | null): Completion[] {
  if (!context) return [];
  const fields = FIELDS as Record<string, FieldSpec>;
  return fieldsOf(context)
    .filter((name) => !fields[name].random)
    .map((name) => ({
      label: name,
      type: 'property',
      detail: fields[name].type,
      info: fields[name].description,
    }));
}

/** Inside a string or a comment nothing is completed. */
const NOT_CODE = new Set(['String', 'TemplateString', 'LineComment', 'BlockComment']);

export function beaconCompletion(part: CodePart, context: string | null): CompletionSource {
  const fieldOptions = part === 'script' ? eventFieldOptions(context) : [];
  return (ctx: CompletionContext): CompletionResult | null => {
    if (NOT_CODE.has(syntaxTree(ctx.state).resolveInner(ctx.pos, -1).name)) return null;
    const member = ctx.matchBefore(/\bbeacon\s*\.\s*(?:eventData\s*\.\s*)?[\w$]*$/);
    if (member) {
      const word = /[\w$]*$/.exec(member.text)?.[0] ?? '';
      const inEventData = /\beventData\s*\.\s*[\w$]*$/.test(member.text);
      const options = inEventData ? fieldOptions : BEACON_OPTIONS;
      if (options.length === 0) return null;
      return { from: member.to - word.length, options, validFor: /^[\w$]*$/ };
    }
    // The `beacon` global itself, for a word being typed (not a property of something else).
    const word = ctx.matchBefore(/(?<![\w$.]\s*)[\w$]+$/);
    if (!word && !ctx.explicit) return null;
    return {
      from: word?.from ?? ctx.pos,
      options: [{ label: 'beacon', type: 'variable', info: 'The script API: the run, helpers and actions.' }],
      validFor: /^[\w$]*$/,
    };
  };
}
