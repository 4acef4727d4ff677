// The console grammar: `<id or alias> [positionals] [--flag value] [--flag=value] [--bool] [--no-bool]`.
// It maps words to each argument's raw text; parseArgs (commands/registry.ts) then types and
// validates them with the same messages every other surface shows.

import type { Arg } from '../../../commands/args.ts';
import { type Command, type Registry, unknownCommandMessage, usage } from '../../../commands/registry.ts';

import { type Token, tokenize } from './tokenize.ts';

export interface ParsedLine {
  /** Null for a blank line or an unknown command. */
  cmd: Command | null;
  /** The first word as typed. */
  name: string;
  raw: Record<string, string>;
  /** Where each given value was typed: offsets in the line, `end` exclusive. */
  spans: Record<string, { start: number; end: number }>;
  errors: string[];
}

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** The argument a flag names: its declared name or the kebab-case form (`--expires-at`). */
export function argForFlag(cmd: Command, flag: string): string | undefined {
  return Object.keys(cmd.args ?? {}).find((name) => name === flag || kebab(name) === flag);
}

const COORD_PART = /^~?(-?\d+(\.\d+)?)?$|^_$/;

/** How many words from `at` a value takes: coordinates may be typed as three bare numbers. */
function valueSpan(tokens: readonly Token[], at: number, arg: Arg<unknown>): number {
  if (arg.type !== 'coords') return 1;
  let n = 0;
  while (n < 3 && at + n < tokens.length && !tokens[at + n].flag && COORD_PART.test(tokens[at + n].text)) n++;
  return Math.max(n, 1);
}

const joinTexts = (tokens: readonly Token[]) => tokens.map((t) => t.text).join(' ');

/** Assigns the words after the command name to its arguments, collecting every problem found. */
export function parseLine(line: string, registry: Registry): ParsedLine {
  const tokens = tokenize(line);
  if (tokens.length === 0) return { cmd: null, name: '', raw: {}, spans: {}, errors: [] };
  const name = tokens[0].text;
  const cmd = registry.find(name) ?? null;
  if (!cmd) {
    const near = suggestions(name, registry.names());
    const errors = [unknownCommandMessage(name)];
    if (near.length > 0) errors.push(`Did you mean ${near.map((n) => `"${n}"`).join(' or ')}?`);
    return { cmd: null, name, raw: {}, spans: {}, errors };
  }
  const args = cmd.args ?? {};
  const raw: Record<string, string> = {};
  const spans: ParsedLine['spans'] = {};
  const errors: string[] = [];
  const positional: Token[] = [];

  const give = (argName: string, value: string, start: number, end: number) => {
    if (argName in raw) errors.push(`--${argName} is given more than once.`);
    raw[argName] = value;
    spans[argName] = { start, end };
  };
  /** The words as one value, with where they were typed. */
  const giveWords = (argName: string, words: readonly Token[]) =>
    give(argName, joinTexts(words), words[0].start, words[words.length - 1].end);

  for (let i = 1; i < tokens.length; i++) {
    const t = tokens[i];
    if (!t.flag) {
      positional.push(t);
      continue;
    }
    const body = t.text.slice(2);
    const eq = body.indexOf('=');
    const flag = eq < 0 ? body : body.slice(0, eq);
    const inline = eq < 0 ? undefined : body.slice(eq + 1);
    const direct = argForFlag(cmd, flag);
    const negated = !direct && flag.startsWith('no-') ? argForFlag(cmd, flag.slice(3)) : undefined;
    if (negated && args[negated].type === 'boolean' && inline === undefined) {
      give(negated, 'false', t.start, t.end);
    } else if (!direct) {
      errors.push(unknownFlagMessage(cmd, flag));
    } else if (inline !== undefined) {
      // `--flag=value`: the value starts after the `=` (quotes, if any, are part of the span).
      give(direct, inline, t.start + 3 + flag.length, t.end);
    } else if (args[direct].type === 'boolean') {
      give(direct, 'true', t.start, t.end);
    } else {
      const next = tokens[i + 1];
      if (!next || next.flag) {
        errors.push(`--${flag} needs a value.`);
      } else {
        const span = valueSpan(tokens, i + 1, args[direct]);
        giveWords(direct, tokens.slice(i + 1, i + 1 + span));
        i += span;
      }
    }
  }

  let p = 0;
  for (const [argName, arg] of Object.entries(args)) {
    if (argName in raw || p >= positional.length) continue;
    const span = arg.isRest ? positional.length - p : valueSpan(positional, p, arg);
    giveWords(argName, positional.slice(p, p + span));
    p += span;
  }
  if (p < positional.length)
    errors.push(`Too many values: ${joinTexts(positional.slice(p))}. Usage: ${usage(cmd)}`);
  return { cmd, name, raw, spans, errors };
}

/** What a secret (a password) typed on a line becomes in the history and the scrollback. */
export const SECRET_MASK = '********';

/**
 * The line with each secret argument's value replaced: by SECRET_MASK (what is kept: history,
 * scrollback), or `sameLength` by one `*` per character (the prompt being edited, whose cursor
 * positions must not move). Only a command with a secret argument is parsed.
 */
export function withoutSecrets(line: string, registry: Registry, sameLength = false): string {
  const first = tokenize(line)[0];
  const cmd = first ? registry.find(first.text) : undefined;
  if (!cmd || !Object.values(cmd.args ?? {}).some((a) => a.isSecret)) return line;
  const { spans } = parseLine(line, registry);
  const secret = Object.entries(cmd.args ?? {})
    .filter(([name, arg]) => arg.isSecret && spans[name] && spans[name].end > spans[name].start)
    .map(([name]) => spans[name])
    .sort((a, b) => b.start - a.start);
  let out = line;
  for (const { start, end } of secret)
    out = `${out.slice(0, start)}${sameLength ? '*'.repeat(end - start) : SECRET_MASK}${out.slice(end)}`;
  return out;
}

function unknownFlagMessage(cmd: Command, flag: string): string {
  const names = Object.keys(cmd.args ?? {});
  if (names.length === 0) return `Unknown flag --${flag}: ${cmd.id} takes no flags.`;
  return `Unknown flag --${flag}. Valid flags: ${names.map((n) => `--${n}`).join(', ')}.`;
}

/** Edit distance with adjacent transpositions (optimal string alignment). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** Up to three known names close to a mistyped one, nearest first. */
export function suggestions(name: string, known: readonly string[]): string[] {
  const typed = name.toLowerCase();
  const limit = typed.length <= 3 ? 1 : 2;
  return known
    .map((k) => ({ k, d: k.toLowerCase().startsWith(typed) ? 0.5 : editDistance(typed, k.toLowerCase()) }))
    .filter((x) => x.d <= limit)
    .sort((x, y) => x.d - y.d || x.k.localeCompare(y.k))
    .slice(0, 3)
    .map((x) => x.k);
}
