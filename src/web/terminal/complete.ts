// Tab completion over the command registry: command names first, then `--flag` names, then the
// values of the argument under the cursor from Arg.complete (entity names come from the store).

import type { Arg, EntityLookup } from '../../../commands/args.ts';
import type { Command, Registry } from '../../../commands/registry.ts';
import { argForFlag } from './parse.ts';
import { quoteWord, type Token, tokenize } from './tokenize.ts';

export interface Completion {
  /** The span of the line the chosen candidate replaces. */
  from: number;
  to: number;
  candidates: string[];
}

const unique = (xs: string[]) => [...new Set(xs)];

export function complete(
  line: string,
  cursor: number,
  registry: Registry,
  entities: EntityLookup,
): Completion {
  const tokens = tokenize(line.slice(0, cursor));
  const last = tokens.at(-1);
  const current = last && last.end === cursor ? last : null;
  const index = current ? tokens.length - 1 : tokens.length;
  const from = current ? current.start : cursor;
  const prefix = current?.text ?? '';
  const result = (candidates: string[]): Completion => ({ from, to: cursor, candidates: unique(candidates) });

  if (index === 0) {
    const p = prefix.toLowerCase();
    return result(
      registry
        .names()
        .filter((n) => n.toLowerCase().startsWith(p))
        .sort(),
    );
  }
  const cmd = registry.find(tokens[0].text);
  if (!cmd) return result([]);
  const args = cmd.args ?? {};

  if (current?.flag) {
    const eq = prefix.indexOf('=');
    if (eq >= 0) {
      const name = argForFlag(cmd, prefix.slice(2, eq));
      const arg = name ? args[name] : undefined;
      return result(
        arg ? values(arg, prefix.slice(eq + 1), entities).map((v) => prefix.slice(0, eq + 1) + v) : [],
      );
    }
    const given = flagsGiven(cmd, tokenize(line));
    const flags = Object.entries(args)
      .filter(([n]) => !given.has(n))
      .flatMap(([n, a]) => (a.type === 'boolean' ? [`--${n}`, `--no-${n}`] : [`--${n}`]));
    return result(flags.filter((f) => f.startsWith(prefix)));
  }

  const arg = argAt(cmd, tokens.slice(1, index), tokenize(line));
  return result(arg ? values(arg, prefix, entities) : []);
}

const values = (arg: Arg<unknown>, prefix: string, entities: EntityLookup) =>
  arg.complete(prefix, entities).map(quoteWord);

/** Arguments set by a `--flag` anywhere in the line. */
function flagsGiven(cmd: Command, tokens: readonly Token[]): Set<string> {
  const given = new Set<string>();
  for (const t of tokens) {
    if (!t.flag) continue;
    const flag = t.text.slice(2).split('=')[0];
    const name = argForFlag(cmd, flag) ?? argForFlag(cmd, flag.replace(/^no-/, ''));
    if (name) given.add(name);
  }
  return given;
}

/** The argument the next word fills, given the words typed before it (after the command name). */
function argAt(cmd: Command, before: readonly Token[], whole: readonly Token[]): Arg<unknown> | undefined {
  const args = cmd.args ?? {};
  const prev = before.at(-1);
  if (prev?.flag && !prev.text.includes('=')) {
    const name = argForFlag(cmd, prev.text.slice(2));
    if (name && args[name].type !== 'boolean') return args[name];
  }
  let positionals = 0;
  for (let i = 0; i < before.length; i++) {
    const t = before[i];
    if (!t.flag) positionals++;
    else if (!t.text.includes('=')) {
      const name = argForFlag(cmd, t.text.slice(2));
      if (name && args[name].type !== 'boolean') i++; // the flag's value is not a positional
    }
  }
  const given = flagsGiven(cmd, whole);
  for (const [name, arg] of Object.entries(args)) {
    if (given.has(name)) continue;
    if (arg.isRest || positionals === 0) return arg;
    positionals--;
  }
  return undefined;
}

export interface Applied {
  line: string;
  cursor: number;
  /** Candidates to list below the prompt when more than one remains. */
  listed: string[];
}

function commonPrefix(words: readonly string[]): string {
  let p = words[0] ?? '';
  for (const w of words) while (!w.startsWith(p)) p = p.slice(0, -1);
  return p;
}

/** Tab: one candidate is inserted with a space after it; several insert what they share and are listed. */
export function applyCompletion(line: string, c: Completion): Applied {
  const typed = line.slice(c.from, c.to);
  const replace = (text: string): Applied => ({
    line: line.slice(0, c.from) + text + line.slice(c.to),
    cursor: c.from + text.length,
    listed: [],
  });
  if (c.candidates.length === 0) return { line, cursor: c.to, listed: [] };
  if (c.candidates.length === 1) return replace(`${c.candidates[0]} `);
  const shared = commonPrefix(c.candidates);
  // Compared as words, so `bi` grows into `"Big B` (quoted, other case).
  const word = (s: string) => (tokenize(s)[0]?.text ?? '').toLowerCase();
  const grows = shared.length > typed.length && word(shared).startsWith(word(typed));
  return { ...(grows ? replace(shared) : { line, cursor: c.to }), listed: c.candidates };
}
