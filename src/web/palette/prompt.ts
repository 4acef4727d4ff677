// Argument prompting: the palette asks for each argument of a chosen command in declaration
// order, parsing each with the schema's own `Arg.parse` so the console and the palette give the
// same messages.

import type { Arg, EntityLookup, EntityRef, ParseResult } from '../../../commands/args.ts';
import { type Command, CommandError } from '../../../commands/registry.ts';
import { ApiError } from '../api/http.ts';
import type { PaletteRow } from './rows.ts';

export interface Prompt {
  cmd: Command;
  names: string[];
  step: number;
  /** What was typed for each argument, kept when moving back and forth or after an error. */
  raws: string[];
  /** An entity taken from the suggestions, used as is while its label is still what is typed. */
  picked: (EntityRef | undefined)[];
  /** Parsed values of the steps before `step`. */
  values: Record<string, unknown>;
}

export const SUGGESTION_LIMIT = 50;

export function startPrompt(cmd: Command): Prompt {
  const names = Object.keys(cmd.args ?? {});
  return { cmd, names, step: 0, raws: names.map(() => ''), picked: [], values: {} };
}

export function currentArg(p: Prompt): Arg<unknown> {
  return p.cmd.args![p.names[p.step]];
}

export function argLabel(p: Prompt, step = p.step): string {
  const name = p.names[step];
  return p.cmd.args![name].label ?? name;
}

export function withRaw(p: Prompt, raw: string, picked?: EntityRef): Prompt {
  const raws = p.raws.slice();
  const picks = p.picked.slice();
  raws[p.step] = raw;
  picks[p.step] = picked;
  return { ...p, raws, picked: picks };
}

/** Entity references (with their detail and kind) for a ref argument, the schema's strings otherwise. */
export function suggestions(arg: Arg<unknown>, raw: string, lookup: EntityLookup): PaletteRow[] {
  if (arg.type === 'ref')
    return lookup.search(arg.kinds ?? [], raw, SUGGESTION_LIMIT).map((ref) => ({
      type: 'suggestion',
      text: ref.label,
      ref,
    }));
  return arg.complete(raw, lookup, SUGGESTION_LIMIT).map((text) => ({ type: 'suggestion', text }));
}

/** Parses the current step; a picked entity is taken by id, so two of one name stay apart. */
export function parseStep(p: Prompt, lookup: EntityLookup): Promise<ParseResult<unknown>> {
  const raw = p.raws[p.step] ?? '';
  const picked = p.picked[p.step];
  if (picked && picked.label === raw) return Promise.resolve({ ok: true, value: picked });
  return currentArg(p).parse(raw, lookup);
}

export interface RunFailure {
  summary: string;
  reason?: string;
  /** The argument the error is about, when a command names one. */
  field?: string;
}

export function describeFailure(e: unknown): RunFailure {
  if (e instanceof ApiError)
    return { summary: e.message, reason: e.reason === e.message ? undefined : e.reason };
  if (e instanceof CommandError) return { summary: e.message, field: e.field };
  return { summary: e instanceof Error ? e.message : String(e) };
}
