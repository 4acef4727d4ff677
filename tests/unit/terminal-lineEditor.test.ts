import xh from '@xterm/headless';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeInput,
  edit,
  type Key,
  type LineState,
  lineAtEnd,
  type PromptLine,
  renderPrompt,
} from '../../src/web/terminal/lineEditor.ts';
import { sanitise } from '../../src/web/terminal/sanitise.ts';

const keys = (data: string) => decodeInput(data);
const run = (state: LineState, data: string) => keys(data).reduce(edit, state);

describe('decodeInput', () => {
  it('splits typed text, bound keys and unbound escape sequences', () => {
    expect(keys('ab\x1b[Dc\r')).toEqual([
      { kind: 'text', text: 'ab' },
      { kind: 'left' },
      { kind: 'text', text: 'c' },
      { kind: 'enter' },
    ]);
    expect(keys('\x1b[15~x\x1bOPy')).toEqual([
      { kind: 'text', text: 'x' },
      { kind: 'text', text: 'y' },
    ]);
    expect(keys('\x1bb\x1bf\x12\x03\x0c\x1b')).toEqual(
      ['wordLeft', 'wordRight', 'search', 'interrupt', 'clearScreen', 'escape'].map(
        (kind) => ({ kind }) as Key,
      ),
    );
    expect(keys('constructor\x9b\x00')).toEqual([{ kind: 'text', text: 'constructor' }]);
  });
});

describe('edit', () => {
  const s = (text: string, cursor: number): LineState => ({ text, cursor });

  it('inserts, deletes and moves', () => {
    expect(run(s('', 0), 'helo\x1b[Dl')).toEqual(s('hello', 4));
    expect(run(s('hello', 5), '\x7f\x7f')).toEqual(s('hel', 3));
    expect(run(s('hello', 0), '\x1b[3~')).toEqual(s('ello', 0));
    expect(run(s('hello', 2), '\x01')).toEqual(s('hello', 0));
    expect(run(s('hello', 2), '\x05')).toEqual(s('hello', 5));
    expect(run(s('hello', 0), '\x7f\x1b[D')).toEqual(s('hello', 0));
    expect(run(s('hello', 5), '\x1b[C\x1b[3~')).toEqual(s('hello', 5));
  });

  it('kills to start, to end and the word before the cursor', () => {
    expect(run(s('ban Bob 7d', 4), '\x15')).toEqual(s('Bob 7d', 0));
    expect(run(s('ban Bob 7d', 4), '\x0b')).toEqual(s('ban ', 4));
    expect(run(s('ban Big Bob  ', 13), '\x17')).toEqual(s('ban Big ', 8));
  });

  it('moves by words with Alt+B / Alt+F', () => {
    expect(run(s('ban Big Bob', 11), '\x1bb')).toEqual(s('ban Big Bob', 8));
    expect(run(s('ban Big Bob', 11), '\x1bb\x1bb')).toEqual(s('ban Big Bob', 4));
    expect(run(s('ban Big Bob', 0), '\x1bf\x1bf')).toEqual(s('ban Big Bob', 7));
  });

  it('steps over surrogate pairs as one character', () => {
    expect(run(lineAtEnd('a🦖'), '\x7f')).toEqual(s('a', 1));
    expect(run(lineAtEnd('a🦖b'), '\x1b[D\x1b[D')).toEqual(s('a🦖b', 1));
  });
});

describe('renderPrompt', () => {
  const prompt = sanitise('p> ');
  const rows = (t: InstanceType<typeof xh.Terminal>, n: number) =>
    Array.from({ length: n }, (_, y) => t.buffer.active.getLine(y)!.translateToString(true));

  /** Draws each state over the previous one; checks the screen and cursor match the last. */
  async function check(states: LineState[], cols: number) {
    const t = new xh.Terminal({ cols, rows: 40, allowProposedApi: true });
    let prev: PromptLine | null = null;
    for (const state of states) {
      const next = { prompt, state };
      await new Promise<void>((r) => t.write(renderPrompt(prev, next, cols), r));
      prev = next;
    }
    const last = states.at(-1)!;
    const screen = rows(t, 40);
    const used = screen.findLastIndex((l) => l !== '') + 1;
    expect(screen.slice(0, used).join('')).toBe(`p> ${last.text}`);
    const { cursorX, cursorY } = t.buffer.active;
    const under = t.buffer.active.getLine(cursorY)!.getCell(cursorX)!.getChars();
    const expected = String.fromCodePoint(last.text.codePointAt(last.cursor) ?? 0).replace('\0', '');
    expect(under).toBe(expected);
  }

  it('wraps long lines and puts the cursor on the right cell, wide characters included', async () => {
    await check([lineAtEnd('abcdefghijklmnop'), { text: 'abcdefghijklmnop', cursor: 3 }], 10);
    await check([lineAtEnd('漢字漢字漢字漢字'), { text: '漢字漢字漢字漢字', cursor: 3 }], 10);
    await check([lineAtEnd('abcdefg'), lineAtEnd('a')], 10);
  });

  it('redraws any state over any other, at any width', async () => {
    const alphabet = fc.constantFrom('a', 'b', 'é', '漢', '字', 'x');
    const state = fc
      .array(alphabet, { maxLength: 40 })
      .chain((chars) =>
        fc
          .nat({ max: chars.length })
          .map((n) => ({ text: chars.join(''), cursor: chars.slice(0, n).join('').length })),
      );
    await fc.assert(
      fc.asyncProperty(
        fc.array(state, { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 5, max: 30 }),
        (s, cols) => check(s, cols),
      ),
      { numRuns: 60 },
    );
  });

  it('shows control characters in the buffer visibly', () => {
    expect(renderPrompt(null, { prompt, state: lineAtEnd('a\x1b[2Jb') }, 80)).toContain('p> a␛[2Jb');
  });
});
