// Splits a console line into words the way a shell does (quotes, backslash escapes), keeping each
// word's offsets so completion knows which word the cursor is in and what to replace.

export interface Token {
  /** The word's value: quotes removed, escapes applied. */
  text: string;
  /** Offsets in the line; `end` is exclusive. */
  start: number;
  end: number;
  /** The word began with an unquoted `--`. */
  flag: boolean;
}

const isSpace = (ch: string) => ch === ' ' || ch === '\t';

/**
 * Words of `line`. A backslash keeps the next character as is (`Big\ Bob`, `"say \"hi\""`),
 * except inside single quotes, which take everything literally. An unclosed quote
 * runs to the end of the line rather than failing: the line may be half typed (completion).
 */
export function tokenize(line: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < line.length) {
    while (i < line.length && isSpace(line[i])) i++;
    if (i >= line.length) break;
    const start = i;
    let text = '';
    let quote: '"' | "'" | null = null;
    while (i < line.length && (quote || !isSpace(line[i]))) {
      const ch = line[i];
      if (quote === "'") {
        if (ch === "'") quote = null;
        else text += ch;
      } else if (ch === '\\' && i + 1 < line.length) {
        text += line[++i];
      } else if (quote === '"' && ch === '"') {
        quote = null;
      } else if (!quote && (ch === '"' || ch === "'")) {
        quote = ch;
      } else {
        text += ch;
      }
      i++;
    }
    tokens.push({ text, start, end: i, flag: line.startsWith('--', start) });
  }
  return tokens;
}

/** A value as it must be typed to come back as one word: quoted when it holds spaces or quotes. */
export function quoteWord(value: string): string {
  if (value !== '' && !/[\s"'\\]/.test(value)) return value;
  return `"${value.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}
