import xh from '@xterm/headless';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sanitise, sanitiseLines } from '../../src/web/terminal/sanitise.ts';

const COLS = 2100;

const corpus = [
  'clip \x1b]52;c;aGVsbG8gd29ybGQ=\x07 done',
  'link \x1b]8;;https://evil.example/\x07click me\x1b]8;;\x07',
  'title \x1b]0;pwned\x07 and \x1b]2;pwned2\x1b\\',
  'erase \x1b[2J home \x1b[H up \x1b[10A',
  'queries \x1b[6n \x1b[c \x1b[>c \x1b[5n',
  'c1 csi \x9b6n c1 osc \x9d52;c;aGk=\x9c',
  'dcs \x1bP$qm\x1b\\ and decrqss',
  'bell \x07 backspace \b\b carriage \r return, del \x7f, nul \x00',
  'bidi \u202Egnp.exe\u202C \u2066iso\u2069 \u200F \u061C',
  'A'.repeat(100_000),
];

interface Probe {
  term: InstanceType<typeof xh.Terminal>;
  replies: string[];
  osc: number[];
  titles: string[];
}

function probe(): Probe {
  const term = new xh.Terminal({ allowProposedApi: true, cols: COLS, rows: 40, logLevel: 'off' });
  const p: Probe = { term, replies: [], osc: [], titles: [] };
  term.onData((d) => p.replies.push(d));
  term.onTitleChange((t) => p.titles.push(t));
  // Returning false lets xterm's own handler run too, so a title change would still be seen.
  for (const id of [52, 8, 0, 2])
    term.parser.registerOscHandler(id, () => {
      p.osc.push(id);
      return false;
    });
  return p;
}

const write = (term: Probe['term'], data: string) => new Promise<void>((r) => term.write(data, r));
const row = (term: Probe['term'], y: number) => term.buffer.active.getLine(y)?.translateToString(true) ?? '';

describe('sanitise', () => {
  it('shows C0, DEL, C1 and bidi controls visibly', () => {
    expect(sanitise('a\x1b[2Jb')).toBe('a␛[2Jb');
    expect(sanitise('\x07\x08\r\n\x00')).toBe('␇␈␍␊␀');
    expect(sanitise('x\x7fy')).toBe('x␡y');
    expect(sanitise('\x9b6n\x85')).toBe('<U+009B>6n<U+0085>');
    expect(sanitise('\u202Egnp.exe')).toBe('<U+202E>gnp.exe');
    expect(sanitise('\u2066a\u2069\u200E\u061C')).toBe('<U+2066>a<U+2069><U+200E><U+061C>');
    expect(sanitise('Ünïcödé 漢字 🦖')).toBe('Ünïcödé 漢字 🦖');
  });

  it('cuts long lines with a visible count', () => {
    expect(sanitise('abcdef', 4)).toBe('abcd … (2 more characters)');
    expect(sanitise('A'.repeat(100_000))).toBe(`${'A'.repeat(2000)} … (98000 more characters)`);
    expect(sanitise('abcd', 4)).toBe('abcd');
  });

  it('passes plain printable text through as it is, up to the limit', () => {
    fc.assert(fc.property(fc.string({ maxLength: 200 }), (s) => sanitise(s) === s));
    expect(sanitise('A'.repeat(2000))).toBe('A'.repeat(2000));
    expect(sanitise('A'.repeat(2001))).toBe(`${'A'.repeat(2000)} … (1 more characters)`);
    expect(sanitise('plain but for one \x7f')).toBe('plain but for one ␡');
    expect(sanitise('tab\there')).toBe('tab␉here');
  });

  it('keeps line breaks only through sanitiseLines', () => {
    expect(sanitiseLines('one\r\ntwo\nthr\ree')).toEqual(['one', 'two', 'thr␍ee']);
  });

  it('never lets a control character through', () => {
    const controls = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (s) => !controls.test(sanitise(s))));
  });

  it('makes a hostile corpus inert in a real xterm parser', async () => {
    const p = probe();
    const lines = corpus.map((l) => sanitise(l));
    await write(p.term, lines.map((l) => `${l}\r\n`).join(''));
    expect(p.replies).toEqual([]);
    expect(p.osc).toEqual([]);
    expect(p.titles).toEqual([]);
    const buf = p.term.buffer.active;
    expect(buf.baseY + buf.cursorY).toBe(corpus.length);
    expect(buf.cursorX).toBe(0);
    for (const [y, l] of lines.entries()) expect(row(p.term, y)).toBe(l);
    expect(row(p.term, 0)).toContain('␛]52;c;aGVsbG8gd29ybGQ=␇');
    expect(row(p.term, 5)).toContain('<U+009B>6n');
    expect(row(p.term, 9)).toMatch(/A … \(98000 more characters\)$/);
  });

  it('the same corpus unsanitised does trigger the terminal (the test above can fail)', async () => {
    const p = probe();
    await write(p.term, corpus.map((l) => `${l}\r\n`).join(''));
    expect(p.replies.join('')).toContain('\x1b[');
    expect(p.osc).toEqual(expect.arrayContaining([52, 8, 0, 2]));
    expect(p.titles).toContain('pwned');
    const buf = p.term.buffer.active;
    expect(buf.baseY + buf.cursorY).not.toBe(corpus.length);
  });
});
