// Cell widths as xterm's default Unicode 6 provider measures them, so the prompt's cursor maths and
// table alignment agree with what the terminal draws. Emoji are narrow under Unicode 6; that is what
// xterm does unless the unicode11 addon is loaded, so we follow it.

/** [start, end] inclusive code-point ranges that occupy two cells. */
const WIDE: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f],
  [0x2329, 0x232a],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x20000, 0x2fffd],
  [0x30000, 0x3fffd],
];

/** Combining marks and zero-width characters: drawn on the previous cell. */
const ZERO: readonly (readonly [number, number])[] = [
  [0x0300, 0x036f],
  [0x0483, 0x0489],
  [0x0591, 0x05bd],
  [0x0610, 0x061a],
  [0x064b, 0x065f],
  [0x200b, 0x200d],
  [0x20d0, 0x20ff],
  [0xfe00, 0xfe0f],
  [0xfe20, 0xfe2f],
];

const inRanges = (cp: number, ranges: readonly (readonly [number, number])[]): boolean => {
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [a, b] = ranges[mid];
    if (cp < a) hi = mid - 1;
    else if (cp > b) lo = mid + 1;
    else return true;
  }
  return false;
};

/** Cells taken by one code point (0, 1 or 2). Control characters never reach here: sanitise first. */
export function charWidth(cp: number): 0 | 1 | 2 {
  if (cp < 0x300) return 1;
  if (inRanges(cp, ZERO)) return 0;
  return inRanges(cp, WIDE) ? 2 : 1;
}

// Below U+0300 every UTF-16 unit is a whole code point one cell wide: such text is as wide as it is long.
const NARROW = /^[\u0000-\u02ff]*$/;

export function stringWidth(text: string): number {
  if (NARROW.test(text)) return text.length;
  let w = 0;
  for (const ch of text) w += charWidth(ch.codePointAt(0)!);
  return w;
}

/** The longest start of `text` that fits `width` cells, ending in … when cut. */
export function truncateToWidth(text: string, width: number): string {
  if (stringWidth(text) <= width) return text;
  if (width <= 0) return '';
  let out = '';
  let w = 0;
  for (const ch of text) {
    const cw = charWidth(ch.codePointAt(0)!);
    if (w + cw > width - 1) break;
    out += ch;
    w += cw;
  }
  return `${out}…`;
}

/**
 * Exactly `width` cells: cut with … when wider, padded with spaces (on the left when `right` is set).
 * `natural` is the text's width when the caller has measured it already.
 */
export function fitToWidth(text: string, width: number, right = false, natural = stringWidth(text)): string {
  const fitted = natural > width ? truncateToWidth(text, width) : text;
  const gap = ' '.repeat(Math.max(0, width - (fitted === text ? natural : stringWidth(fitted))));
  return right ? gap + fitted : fitted + gap;
}
