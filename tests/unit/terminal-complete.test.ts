import { describe, expect, it } from 'vitest';
import { applyCompletion, complete } from '../../src/web/terminal/complete.ts';
import { entities, registry } from './terminal-fixtures.ts';

const reg = registry();
const at = (line: string, cursor = line.length) => complete(line, cursor, reg, entities);

describe('complete', () => {
  it('completes command ids and aliases at the start', () => {
    expect(at('ser')).toEqual({ from: 0, to: 3, candidates: ['server.list', 'server.restart', 'servers'] });
    expect(at('').candidates).toContain('ban');
  });

  it('completes flag names not yet given, with --no- for booleans', () => {
    expect(at('server.restart --').candidates).toEqual([
      '--server',
      '--force',
      '--no-force',
      '--delayMinutes',
      '--map',
    ]);
    expect(at('ban --player Bob --').candidates).toEqual(['--expires', '--comments']);
  });

  it('completes entity names for the positional under the cursor, quoted when they hold spaces', () => {
    expect(at('ban Bi')).toEqual({ from: 4, to: 6, candidates: ['"Big Bob"', '"Big Bill"'] });
    expect(at('ban "Big B').candidates).toEqual(['"Big Bob"', '"Big Bill"']);
    expect(at('ban Bob ').candidates).toEqual(['1h', '12h', '1d', '7d', '30d', 'permanent']);
    expect(at('ban Bob 7d gr').candidates).toEqual([]);
  });

  it('completes the value after a flag, and after --flag=', () => {
    expect(at('server.restart --map R').candidates).toEqual(['Ragnarok']);
    expect(at('server.restart --map=A')).toEqual({ from: 15, to: 22, candidates: ['--map=Aberration'] });
    expect(at('ban --expires 7d Al').candidates).toEqual(['Alice']);
    expect(at('server.restart --force I').candidates).toEqual(['Island']);
  });

  it('completes at a cursor in the middle of the line', () => {
    const line = 'ban Al 7d griefing';
    expect(complete(line, 6, reg, entities)).toEqual({ from: 4, to: 6, candidates: ['Alice'] });
  });

  it('gives nothing for an unknown command', () => {
    expect(at('nope x').candidates).toEqual([]);
  });
});

describe('applyCompletion', () => {
  it('inserts a single candidate with a space', () => {
    const line = 'ban Al 7d';
    expect(applyCompletion(line, complete(line, 6, reg, entities))).toEqual({
      line: 'ban Alice  7d',
      cursor: 10,
      listed: [],
    });
  });

  it('inserts the common prefix of several and lists them', () => {
    expect(applyCompletion('ban bi', at('ban bi'))).toEqual({
      line: 'ban "Big B',
      cursor: 10,
      listed: ['"Big Bob"', '"Big Bill"'],
    });
    const r = applyCompletion('ser', at('ser'));
    expect(r).toMatchObject({ line: 'server', cursor: 6 });
  });

  it('leaves the line alone when nothing matches', () => {
    expect(applyCompletion('ban Zed', at('ban Zed'))).toEqual({ line: 'ban Zed', cursor: 7, listed: [] });
  });
});
