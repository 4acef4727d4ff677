import { CompletionContext } from '@codemirror/autocomplete';
import { javascript } from '@codemirror/lang-javascript';
import { EditorState } from '@codemirror/state';
import { parse } from 'acorn';
import { describe, expect, it } from 'vitest';
import { ACTIONS } from '../../src/domain/scripts/actions.ts';
import { BEACON_MEMBERS } from '../../src/domain/scripts/beacon.ts';
import { scriptReference } from '../../src/domain/scripts/reference.ts';
import { beaconCompletion } from '../../src/web/views/scripts/code/beaconCompletion.ts';
import { filterSections, referenceSections } from '../../src/web/views/scripts/code/referenceBlocks.ts';
import { syntaxProblem } from '../../src/web/views/scripts/code/syntaxCheck.ts';

describe('the reference beside the code editor', () => {
  const markdown = scriptReference();
  const sections = referenceSections(markdown);

  it('keeps every heading, table row and example of docs/scripting.md', () => {
    const headings = markdown.split('\n').filter((l) => /^#{1,3} /.test(l));
    expect(sections.map((s) => `${'#'.repeat(s.level)} ${s.title}`)).toEqual(headings);
    const blocks = sections.flatMap((s) => s.blocks);
    const tableLines = markdown.split('\n').filter((l) => l.startsWith('|')).length;
    const tables = blocks.filter((b) => b.kind === 'table');
    // Each table is its header, the `---` line and its rows.
    expect(tables.reduce((n, t) => n + 2 + t.rows.length, 0)).toBe(tableLines);
    for (const t of tables) for (const row of t.rows) expect(row).toHaveLength(t.head.length);
    const code = blocks.filter((b) => b.kind === 'code').map((b) => b.text);
    for (const a of Object.values(ACTIONS))
      expect(code.some((c) => c.startsWith(`beacon.${a.fn}(`))).toBe(true);
    // An escaped pipe in a cell is a pipe again, and no comment reaches the reader.
    expect(blocks.some((b) => b.kind === 'paragraph' && b.text.includes('<!--'))).toBe(false);
  });

  it('narrows to what mentions the search, rows and all, under their headings', () => {
    const found = filterSections(sections, 'dinoSpecies');
    const fields = found.find((s) => s.title === 'Fields');
    const table = fields?.blocks.find((b) => b.kind === 'table');
    expect(table?.kind === 'table' && table.rows.map((r) => r[0])).toEqual(['`dinoSpecies`']);
    const giveItem = filterSections(sections, 'give item');
    const titles = giveItem.map((s) => s.title);
    expect(titles).toContain('Actions');
    expect(titles.indexOf('Actions')).toBeLessThan(titles.indexOf('Give item (`giveItem`)'));
    // A section whose title matches keeps all of itself.
    const whole = sections.find((s) => s.title === 'Give item (`giveItem`)');
    expect(giveItem.find((s) => s.title === 'Give item (`giveItem`)')?.blocks).toEqual(whole?.blocks);
    expect(filterSections(sections, 'no such thing anywhere')).toEqual([]);
    expect(filterSections(sections, '  ')).toEqual(sections);
  });
});

describe('the syntax check', () => {
  it('names the mistake where it is, as the sandbox would parse the script', () => {
    expect(syntaxProblem(parse, "beacon.sendChat('hi');")).toBeNull();
    expect(syntaxProblem(parse, 'const x = ;')).toEqual({ from: 10, to: 11, message: 'Unexpected token' });
    expect(syntaxProblem(parse, "beacon.sendChat('hi);")?.message).toBe('Unterminated string constant');
    // The handler runs as a plain script, so a top-level return is a mistake.
    expect(syntaxProblem(parse, 'return 1;')?.message).toBe("'return' outside of function");
    const end = syntaxProblem(parse, 'if (a) {');
    expect(end?.from).toBe(8);
    expect(end?.message).toBe('Unexpected token');
  });
});

describe('completion', () => {
  const complete = (doc: string, role: 'script' | 'common', context: string | null) => {
    const state = EditorState.create({ doc, extensions: [javascript()] });
    const result = beaconCompletion(role, context)(new CompletionContext(state, doc.length, false));
    return result && !('then' in result) ? result : null;
  };

  it('offers every beacon member and action function after beacon.', () => {
    const result = complete('const id = beacon.', 'common', null);
    const labels = result?.options.map((o) => o.label);
    expect(labels).toEqual(expect.arrayContaining(Object.keys(BEACON_MEMBERS)));
    expect(labels).toEqual(expect.arrayContaining(Object.values(ACTIONS).map((a) => a.fn)));
    expect(result?.from).toBe('const id = beacon.'.length);
    const hmac = result?.options.find((o) => o.label === 'hmac');
    expect(hmac?.detail).toBe('(algorithm, key, text)');
    expect(hmac?.info).toMatch(/Needs review/);
  });

  it("offers the context's fields after beacon.eventData., never in a string or a comment", () => {
    const fields = complete('beacon.eventData.pl', 'script', 'playerJoined');
    expect(fields?.from).toBe('beacon.eventData.'.length);
    expect(fields?.options.map((o) => o.label)).toEqual(
      expect.arrayContaining(['playerName', 'countryCode']),
    );
    expect(complete('beacon.eventData.', 'script', null)).toBeNull();
    expect(complete('beacon.eventData.', 'common', 'playerJoined')).toBeNull();
    expect(complete("'beacon.", 'script', 'chat')).toBeNull();
    expect(complete('// beacon.', 'script', 'chat')).toBeNull();
    expect(complete('bea', 'script', 'chat')?.options.map((o) => o.label)).toEqual(['beacon']);
    expect(complete('x.bea', 'script', 'chat')).toBeNull();
  });
});
