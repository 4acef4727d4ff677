import { describe, expect, it } from 'vitest';
import { parseArgs, usage } from '../../commands/registry.ts';
import { parseLine, suggestions } from '../../src/web/terminal/parse.ts';
import { quoteWord, tokenize } from '../../src/web/terminal/tokenize.ts';
import { commands, entities, registry } from './terminal-fixtures.ts';

const reg = registry();

describe('tokenize', () => {
  it('splits on spaces, honours quotes and escapes, keeps offsets', () => {
    const t = tokenize(`ban  "Big Bob" 'a "b" \\c' Big\\ Bill "say \\"hi\\""`);
    expect(t.map((x) => x.text)).toEqual(['ban', 'Big Bob', 'a "b" \\c', 'Big Bill', 'say "hi"']);
    expect(t.map((x) => [x.start, x.end])).toEqual([
      [0, 3],
      [5, 14],
      [15, 25],
      [26, 35],
      [36, 48],
    ]);
  });

  it('marks flags only when the dashes are unquoted, and runs an open quote to the end', () => {
    const t = tokenize('x --a "--b" --c="d e" "open q');
    expect(t.map((x) => x.flag)).toEqual([false, true, false, true, false]);
    expect(t[3].text).toBe('--c=d e');
    expect(t[4]).toMatchObject({ text: 'open q', end: 29 });
  });

  it('quotes words so they tokenize back to themselves', () => {
    for (const w of ['Bob', 'Big Bob', 'say "hi"', 'back\\slash', "it's", ''])
      expect(tokenize(quoteWord(w))[0]?.text ?? '').toBe(w);
    expect(quoteWord('Bob')).toBe('Bob');
  });
});

describe('parseLine', () => {
  it('fills positionals in order and gives the rest to a rest argument', () => {
    const p = parseLine('ban Bob 7d griefing  and   spawn killing', reg);
    expect(p.cmd).toBe(commands.banCreate);
    expect(p.raw).toEqual({ player: 'Bob', expires: '7d', comments: 'griefing and spawn killing' });
    expect(p.errors).toEqual([]);
  });

  it('takes --flag value and --flag=value, skipping flagged args for positionals', () => {
    const p = parseLine('ban.create --expires=12h "Big Bob" --comments "x-ray"', reg);
    expect(p.raw).toEqual({ expires: '12h', player: 'Big Bob', comments: 'x-ray' });
    expect(parseLine('ban --player Bob --expires 7d griefing', reg).raw).toEqual({
      player: 'Bob',
      expires: '7d',
      comments: 'griefing',
    });
  });

  it('treats booleans as value-less flags and accepts --no- and kebab-case', () => {
    expect(parseLine('server.restart Island --force --delay-minutes 5', reg).raw).toEqual({
      server: 'Island',
      force: 'true',
      delayMinutes: '5',
    });
    expect(parseLine('server.restart --no-force Island', reg).raw).toEqual({
      force: 'false',
      server: 'Island',
    });
  });

  it('reads coordinates quoted, comma-separated or as three bare numbers', () => {
    expect(parseLine('tp Bob "100 200 300"', reg).raw.to).toBe('100 200 300');
    expect(parseLine('tp Bob 100,200,-300', reg).raw.to).toBe('100,200,-300');
    expect(parseLine('tp Bob 100 ~5 _', reg)).toMatchObject({ raw: { to: '100 ~5 _' }, errors: [] });
    expect(parseLine('tp --to 1 2 3 Bob', reg).raw).toEqual({ to: '1 2 3', player: 'Bob' });
  });

  it('names an unknown command and suggests a near one', () => {
    const p = parseLine('bna Bob', reg);
    expect(p.cmd).toBeNull();
    expect(p.errors).toEqual(['Unknown command "bna". Type help to list commands.', 'Did you mean "ban"?']);
    expect(parseLine('zzzzzz', reg).errors).toHaveLength(1);
  });

  it('lists the valid flags for an unknown one', () => {
    expect(parseLine('ban Bob --reason x', reg).errors).toEqual([
      'Unknown flag --reason. Valid flags: --player, --expires, --comments.',
    ]);
    expect(parseLine('servers --all', reg).errors).toEqual([
      'Unknown flag --all: server.list takes no flags.',
    ]);
  });

  it('reports a flag without value, a repeated flag and extra words', () => {
    expect(parseLine('ban Bob --comments', reg).errors).toEqual(['--comments needs a value.']);
    expect(parseLine('ban --player A --player B x', reg).errors).toEqual([
      '--player is given more than once.',
    ]);
    expect(parseLine('server.restart Island yes 5 Ragnarok extra', reg).errors).toEqual([
      'Too many values: extra. Usage: server.restart <server> [force:boolean] [delayMinutes:number] [map:TheIsland|Ragnarok|Aberration]',
    ]);
  });

  it('a blank line is nothing to run', () => {
    expect(parseLine('   ', reg)).toEqual({ cmd: null, name: '', raw: {}, spans: {}, errors: [] });
  });

  it('feeds parseArgs, which gives the same validation messages as every surface', async () => {
    const p = parseLine('ban Nobody soon', reg);
    const { errors } = await parseArgs(p.cmd!, p.raw, entities);
    expect(errors.player).toBe('No player matches "Nobody".');
    expect(errors.expires).toMatch(/^Use a duration like/);
    expect(errors.comments).toBe('Comments is required.');
  });
});

describe('usage and suggestions', () => {
  it('builds the usage line from Arg.usage', () => {
    expect(usage(commands.banCreate)).toBe('ban.create <player> [expires:duration] <comments>…');
  });
  it('suggests by edit distance and prefix, nearest first', () => {
    expect(suggestions('sever.list', reg.names())).toEqual(['server.list']);
    expect(suggestions('tpp', reg.names())).toEqual(['tp']);
    expect(suggestions('qqq', reg.names())).toEqual([]);
  });
});
