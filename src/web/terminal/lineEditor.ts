// The prompt line as a pure state machine: keys from xterm's onData in, a new state out, and an
// ANSI string that redraws the line (wrapping over several rows, wide characters included).

import { type Safe, sanitise } from './sanitise.ts';
import { charWidth } from './width.ts';

export interface LineState {
  text: string;
  /** A UTF-16 offset into text, always on a code-point boundary. */
  cursor: number;
}

export const emptyLine: LineState = { text: '', cursor: 0 };
export const lineAtEnd = (text: string): LineState => ({ text, cursor: text.length });

type EditKind =
  | 'left'
  | 'right'
  | 'home'
  | 'end'
  | 'backspace'
  | 'delete'
  | 'killStart'
  | 'killEnd'
  | 'killWord'
  | 'wordLeft'
  | 'wordRight';
type ActionKind =
  | 'enter'
  | 'tab'
  | 'up'
  | 'down'
  | 'interrupt'
  | 'clearScreen'
  | 'search'
  | 'cancel'
  | 'escape';

export type Key = { kind: 'text'; text: string } | { kind: EditKind } | { kind: ActionKind };

const BINDINGS: Record<string, EditKind | ActionKind> = {
  '\r': 'enter',
  '\n': 'enter',
  '\t': 'tab',
  '\x7f': 'backspace',
  '\b': 'backspace',
  '\x1b[3~': 'delete',
  '\x1b[D': 'left',
  '\x1bOD': 'left',
  '\x1b[C': 'right',
  '\x1bOC': 'right',
  '\x1b[A': 'up',
  '\x1bOA': 'up',
  '\x1b[B': 'down',
  '\x1bOB': 'down',
  '\x1b[H': 'home',
  '\x1bOH': 'home',
  '\x1b[1~': 'home',
  '\x01': 'home',
  '\x1b[F': 'end',
  '\x1bOF': 'end',
  '\x1b[4~': 'end',
  '\x05': 'end',
  '\x15': 'killStart',
  '\x0b': 'killEnd',
  '\x17': 'killWord',
  '\x1b\x7f': 'killWord',
  '\x1bb': 'wordLeft',
  '\x1b[1;5D': 'wordLeft',
  '\x1b[1;3D': 'wordLeft',
  '\x1bf': 'wordRight',
  '\x1b[1;5C': 'wordRight',
  '\x1b[1;3C': 'wordRight',
  '\x03': 'interrupt',
  '\x0c': 'clearScreen',
  '\x12': 'search',
  '\x07': 'cancel',
  '\x1b': 'escape',
};
// A Map, not the object, for lookups: pasted text must never hit Object.prototype names.
const SEQUENCES = new Map(Object.entries(BINDINGS));
const LONGEST = Math.max(...[...SEQUENCES.keys()].map((s) => s.length));
/** Escape sequences we do not bind (F-keys, Insert, …) are swallowed whole, never inserted. */
const UNBOUND = /^\x1b(\[[0-9;?]*[ -/]*[@-~]|O.|.)/;

/** Splits what xterm sends (a key, or pasted text) into keys; unbound controls are dropped. */
export function decodeInput(data: string): Key[] {
  const keys: Key[] = [];
  let text = '';
  const flush = () => {
    if (text) keys.push({ kind: 'text', text });
    text = '';
  };
  let i = 0;
  while (i < data.length) {
    let len = Math.min(LONGEST, data.length - i);
    while (len > 0 && !SEQUENCES.has(data.slice(i, i + len))) len--;
    if (len > 0 && !(len === 1 && data[i] === '\x1b' && i + 1 < data.length)) {
      flush();
      keys.push({ kind: SEQUENCES.get(data.slice(i, i + len)) } as Key);
      i += len;
      continue;
    }
    const code = data.charCodeAt(i);
    if (code === 0x1b) {
      flush();
      i += UNBOUND.exec(data.slice(i))?.[0].length ?? 1;
    } else {
      if (code >= 0x20 && code !== 0x7f && !(code >= 0x80 && code <= 0x9f)) text += data[i];
      i++;
    }
  }
  flush();
  return keys;
}

const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;
const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const prevPoint = (s: string, i: number) =>
  i >= 2 && isLow(s.charCodeAt(i - 1)) && isHigh(s.charCodeAt(i - 2)) ? i - 2 : Math.max(0, i - 1);
const nextPoint = (s: string, i: number) =>
  i < s.length - 1 && isHigh(s.charCodeAt(i)) && isLow(s.charCodeAt(i + 1))
    ? i + 2
    : Math.min(s.length, i + 1);
const isSpaceAt = (s: string, i: number) => s[i] === ' ' || s[i] === '\t';

function wordStart(s: string, i: number): number {
  while (i > 0 && isSpaceAt(s, i - 1)) i--;
  while (i > 0 && !isSpaceAt(s, i - 1)) i--;
  return i;
}
function wordEnd(s: string, i: number): number {
  while (i < s.length && isSpaceAt(s, i)) i++;
  while (i < s.length && !isSpaceAt(s, i)) i++;
  return i;
}

/** Applies an editing key; keys that are not edits (Enter, Tab, …) leave the state as it is. */
export function edit(state: LineState, key: Key): LineState {
  const { text, cursor } = state;
  const cut = (from: number, to: number, at: number): LineState => ({
    text: text.slice(0, from) + text.slice(to),
    cursor: at,
  });
  switch (key.kind) {
    case 'text':
      return {
        text: text.slice(0, cursor) + key.text + text.slice(cursor),
        cursor: cursor + key.text.length,
      };
    case 'left':
      return { text, cursor: prevPoint(text, cursor) };
    case 'right':
      return { text, cursor: nextPoint(text, cursor) };
    case 'home':
      return { text, cursor: 0 };
    case 'end':
      return { text, cursor: text.length };
    case 'backspace':
      return cursor === 0 ? state : cut(prevPoint(text, cursor), cursor, prevPoint(text, cursor));
    case 'delete':
      return cut(cursor, nextPoint(text, cursor), cursor);
    case 'killStart':
      return cut(0, cursor, 0);
    case 'killEnd':
      return cut(cursor, text.length, cursor);
    case 'killWord': {
      const from = wordStart(text, cursor);
      return cut(from, cursor, from);
    }
    case 'wordLeft':
      return { text, cursor: wordStart(text, cursor) };
    case 'wordRight':
      return { text, cursor: wordEnd(text, cursor) };
    default:
      return state;
  }
}

interface Position {
  row: number;
  col: number;
}

/** Where the terminal's cursor ends after printing `text` from the start of a row `cols` wide. */
function positionAfter(text: string, cols: number): Position {
  let row = 0;
  let col = 0;
  for (const ch of text) {
    const w = charWidth(ch.codePointAt(0)!);
    if (w === 0) continue;
    if (col + w > cols) {
      row++;
      col = 0;
    }
    col += w;
  }
  return col >= cols ? { row: row + 1, col: 0 } : { row, col };
}

export interface PromptLine {
  prompt: Safe;
  state: LineState;
}

/**
 * Where the cursor stands: after the text before it, or at the start of the next row when the
 * character under it is wide and will not fit in the cell left on this one.
 */
function cursorPosition(line: PromptLine, cols: number): Position {
  const { text, cursor } = line.state;
  const at = positionAfter(line.prompt + sanitise(text.slice(0, cursor), Infinity), cols);
  const under = text.codePointAt(cursor);
  const wide = under !== undefined && charWidth(under) === 2 && at.col + 2 > cols;
  return wide ? { row: at.row + 1, col: 0 } : at;
}

/** The row, counted from the prompt's first row, on which the cursor stands. */
const cursorRow = (line: PromptLine, cols: number): number => cursorPosition(line, cols).row;

/** ANSI that erases the prompt drawn as `prev`, leaving the cursor where it started. */
export function erasePrompt(prev: PromptLine | null, cols: number): string {
  const up = prev ? cursorRow(prev, cols) : 0;
  return `${up > 0 ? `\x1b[${up}A` : ''}\r\x1b[J`;
}

/**
 * ANSI that replaces the prompt drawn as `prev` (null: the cursor is at the start of a fresh row)
 * with `next`. Control characters in the line are shown as sanitise shows them.
 */
export function renderPrompt(prev: PromptLine | null, next: PromptLine, cols: number): string {
  const all = next.prompt + sanitise(next.state.text, Infinity);
  const end = positionAfter(all, cols);
  const at = cursorPosition(next, cols);
  let out = erasePrompt(prev, cols) + all;
  // A line that exactly fills its last row leaves xterm's cursor pending at the edge: print a
  // space (wrapping), step back and erase it, so the cursor really stands on the next row.
  if (end.col === 0 && end.row > 0) out += ' \b\x1b[K';
  if (end.row > at.row) out += `\x1b[${end.row - at.row}A`;
  out += `\r${at.col > 0 ? `\x1b[${at.col}C` : ''}`;
  return out;
}
