// The one gate between untrusted text (names, chat, log lines, API messages, table cells) and xterm.
// Anything a terminal would interpret — C0/C1 controls (ESC starts OSC 52 clipboard writes, OSC 8
// links, cursor moves, device queries that make the terminal answer as if typed), DEL, bidi
// overrides that reorder what the admin reads — is replaced by a visible stand-in.
// `Safe` brands the result so only sanitised text can be painted (see format.ts).

declare const safeBrand: unique symbol;
export type Safe = string & { readonly [safeBrand]: true };

export const DEFAULT_LINE_LIMIT = 2000;

const BIDI = new Set([
  0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069,
]);

// Printable ASCII has nothing to replace, so most cells skip the pass per character.
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

const codePoint = (cp: number) => `<U+${cp.toString(16).toUpperCase().padStart(4, '0')}>`;

function visible(ch: string): string {
  const cp = ch.codePointAt(0)!;
  if (cp < 0x20) return String.fromCodePoint(0x2400 + cp); // control pictures: ␛ ␇ ␈ ␍ ␊ …
  if (cp === 0x7f) return '\u2421'; // ␡
  if (cp >= 0x80 && cp <= 0x9f) return codePoint(cp);
  if (BIDI.has(cp)) return codePoint(cp);
  if (cp >= 0xd800 && cp <= 0xdfff) return '\ufffd'; // a lone surrogate
  return ch;
}

/**
 * One line, every control shown visibly (including LF: split first with sanitiseLines to keep line
 * breaks). Lines over `limit` characters are cut with a visible count of what was dropped.
 */
export function sanitise(text: string, limit = DEFAULT_LINE_LIMIT): Safe {
  if (text.length <= limit && PRINTABLE_ASCII.test(text)) return text as Safe;
  let out = '';
  let n = 0;
  let rest = 0;
  for (const ch of text) {
    if (n < limit) out += visible(ch);
    else rest++;
    n++;
  }
  if (rest > 0) out += ` … (${rest} more characters)`;
  return out as Safe;
}

/** Several lines: LF and CRLF break lines, every other control is shown. */
export function sanitiseLines(text: string, limit = DEFAULT_LINE_LIMIT): Safe[] {
  return text.split(/\r?\n/).map((line) => sanitise(line, limit));
}
