import { describe, expect, it } from 'vitest';
import { bool, duration, int, list, oneOf, ref, text } from '../../commands/args.ts';
import type { CommandContext } from '../../commands/context.ts';
import { createRegistry } from '../../commands/index.ts';
import {
  availability,
  defineCommand,
  execute,
  normaliseKey,
  parseArgs,
  Registry,
} from '../../commands/registry.ts';
import { Perm } from '../../src/domain/permissions.ts';
import { NO_SELECTION, type Selection, selectionOf } from '../../src/domain/resolver.ts';
import { lookupOf } from './entityLookup-fixture.ts';

const noop = () => undefined;
const servers = [
  { kind: 'server' as const, id: '11111111-1111-4111-8111-111111111111', label: 'Island PvE' },
  { kind: 'server' as const, id: '22222222-2222-4222-8222-222222222222', label: 'Island PvP' },
];
const lookup = lookupOf(servers);

describe('Registry', () => {
  it('refuses a duplicate id', () => {
    const r = new Registry().register(defineCommand({ id: 'a.b', title: 'A', group: 'g', run: noop }));
    expect(() => r.register(defineCommand({ id: 'a.b', title: 'Again', group: 'g', run: noop }))).toThrow(
      'Command a.b is registered twice.',
    );
  });

  it('refuses two commands on one key in one scope, however the chord is written', () => {
    const r = new Registry().register(
      defineCommand({ id: 'a', title: 'A', group: 'g', keys: ['mod+shift+k'], run: noop }),
    );
    expect(() =>
      r.register(defineCommand({ id: 'b', title: 'B', group: 'g', keys: ['Shift+Mod+K'], run: noop })),
    ).toThrow(/already bound to a in scope global/);
  });

  it('allows one key in two scopes', () => {
    const r = new Registry().register(
      defineCommand({ id: 'a', title: 'A', group: 'g', keys: ['r'], run: noop }),
    );
    expect(() =>
      r.register(defineCommand({ id: 'b', title: 'B', group: 'g', keys: ['r'], scope: 'list', run: noop })),
    ).not.toThrow();
  });

  it('refuses a command on a key a surface reserved in its scope, and a reservation on a taken key', () => {
    const r = new Registry().reserve({ id: 'list.next', title: 'Next', keys: ['j'], scope: 'list' });
    expect(() =>
      r.register(defineCommand({ id: 'b', title: 'B', group: 'g', keys: ['J'], scope: 'list', run: noop })),
    ).toThrow('Key J of b is already bound to list.next in scope list.');
    r.register(defineCommand({ id: 'c', title: 'C', group: 'g', keys: ['x'], scope: 'list', run: noop }));
    expect(() => r.reserve({ id: 'list.x', title: 'X', keys: ['x'], scope: 'list' })).toThrow(
      'Key x of list.x is already bound to c in scope list.',
    );
  });

  it('refuses a global sequence that goes on with a key a list takes itself', () => {
    const r = new Registry().reserve({ id: 'list.previous', title: 'Previous', keys: ['k'], scope: 'list' });
    expect(() =>
      r.register(defineCommand({ id: 'nav.k', title: 'K', group: 'g', keys: ['g>k'], run: noop })),
    ).toThrow('Key g>k of nav.k goes on with k, which list.previous takes in scope list.');
    expect(() =>
      r.register(defineCommand({ id: 'nav.u', title: 'U', group: 'g', keys: ['g>u'], run: noop })),
    ).not.toThrow();
  });

  it('finds the first bound name of a key press, and the starts of sequences', () => {
    const seq = defineCommand({ id: 's', title: 'S', group: 'g', keys: ['g>s'], run: noop });
    const r = new Registry()
      .reserve({ id: 'list.next', title: 'Next', keys: ['j'], scope: 'list' })
      .register(seq);
    expect(r.binding('list', ['j+shift', 'j'])?.reserved?.id).toBe('list.next');
    expect(r.binding('global', ['g>s'])?.command).toBe(seq);
    expect(r.binding('global', ['s'])).toBeUndefined();
    expect(r.startsSequence('global', ['g'])).toBe(true);
    expect(r.startsSequence('list', ['g'])).toBe(false);
  });

  it('knows every key a list handles: the console registry builds with no clash in any scope', () => {
    const r = createRegistry();
    for (const key of ['arrowdown', 'j', 'k', 'home', 'end', 'pagedown', 'space', 'enter', 'escape'])
      expect(r.binding('list', [key])?.reserved, key).toBeDefined();
    for (const key of ['arrowdown+shift', 'arrowup+shift'])
      expect(r.binding('list', [key])?.reserved?.id).toMatch(/^list\.mark/);
    expect(r.binding('list', ['/'])?.command?.id).toBe('ui.list.filter');
    expect(r.binding('list', ['f10+shift'])?.command?.id).toBe('ui.contextMenu');
    expect(r.binding('list', ['contextmenu'])?.command?.id).toBe('ui.contextMenu');
    expect(r.binding('list', ['r'])?.command?.id).toBe('ui.list.refresh');
    expect(r.binding('global', ['g>s'])?.command?.id).toBe('nav.servers');
    expect(r.binding('global', ['g>p'])?.command?.id).toBe('nav.players');
  });

  it('refuses an alias that another command holds', () => {
    const r = new Registry().register(
      defineCommand({ id: 'a', title: 'A', group: 'g', aliases: ['x'], run: noop }),
    );
    expect(() =>
      r.register(defineCommand({ id: 'b', title: 'B', group: 'g', aliases: ['x'], run: noop })),
    ).toThrow(/Alias "x"/);
  });

  it('normalises chords and sequences', () => {
    expect(normaliseKey('Shift+Mod+K')).toBe('k+mod+shift');
    expect(normaliseKey('g>S')).toBe('g>s');
  });

  it('the console registry builds and exports JSON with ids, args and keys', () => {
    const json = createRegistry().toJSON();
    const palette = json.find((c) => c.id === 'ui.palette');
    expect(palette?.keys).toEqual(['mod+k']);
    const setColor = json.find((c) => c.id === 'server.setColor');
    expect(setColor?.args.color).toMatchObject({ type: 'enum', optional: false });
    expect(setColor?.permission).toBe(Perm.EditServices);
  });
});

describe('argument parsing', () => {
  const cmd = defineCommand({
    id: 't',
    title: 'T',
    group: 'g',
    args: {
      server: ref('server').describe('Server'),
      level: int({ min: 1, max: 5 }).describe('Level'),
      color: oneOf(['red', 'blue'] as const).describe('Colour'),
      expires: duration(),
      flag: bool().optional(),
      targets: list(ref('server')).optional(),
      note: text().min(3, 'Say more.').optional(),
    },
    run: noop,
  });

  it('parses every kind and keeps each message', async () => {
    const ok = await parseArgs(
      cmd,
      {
        server: 'island pve',
        level: '3',
        color: 'RED',
        expires: '7d',
        flag: 'yes',
        targets: 'Island PvE, Island PvP',
      },
      lookup,
    );
    expect(ok.errors).toEqual({});
    expect(ok.values).toMatchObject({ level: 3, color: 'red', expires: 7 * 86400, flag: true });
    expect((ok.values.targets as unknown[]).length).toBe(2);

    const bad = await parseArgs(
      cmd,
      { server: 'Nowhere', level: '9', color: 'green', expires: 'soon', note: 'hi' },
      lookup,
    );
    expect(bad.errors.server).toBe('No server matches "Nowhere".');
    expect(bad.errors.level).toBe('Level must be at most 5.');
    expect(bad.errors.color).toBe('Colour must be one of: red, blue.');
    expect(bad.errors.expires).toMatch(/duration like/);
    expect(bad.errors.note).toBe('Say more.');
  });

  it('reports a missing required argument, and blank duration means permanent', async () => {
    const r = await parseArgs(cmd, { server: servers[0].id, color: 'red', expires: '' }, lookup);
    expect(r.errors).toEqual({ level: 'Level is required.' });
    expect(r.values.expires).toBeNull();
  });

  it('takes refs not typed from the selection, else the route, and nothing else', async () => {
    const at = (route: string, selection: Selection = NO_SELECTION) =>
      ({ route, selection, entities: lookup }) as unknown as CommandContext;
    const island = servers[0];
    const r = await parseArgs(cmd, { level: '2', color: 'red' }, lookup, at(`/servers/${island.id}/bans`));
    expect(r.errors).toEqual({});
    // A single ref gets the route's server, a list of refs a list of it; the label is the store's.
    expect(r.values.server).toEqual({ kind: 'server', id: island.id, label: island.id });
    expect(r.values.targets).toEqual([{ kind: 'server', id: island.id, label: island.id }]);
    const marked = selectionOf(servers);
    const s = await parseArgs(cmd, { level: '2', color: 'red' }, lookup, at('/players', marked));
    expect(s.values.server).toEqual(servers[0]);
    expect(s.values.targets).toEqual(servers);
    // A player page has no server: the argument stays missing and says so.
    const p = await parseArgs(cmd, { level: '2', color: 'red' }, lookup, at('/players/p1'));
    expect(p.errors).toEqual({ server: 'Server is required.' });
  });

  it('completes enum values, durations and entity names', () => {
    expect(cmd.args!.color.complete('r', lookup)).toEqual(['red']);
    expect(cmd.args!.expires.complete('1', lookup)).toEqual(['1h', '12h', '1d']);
    expect(cmd.args!.server.complete('island', lookup)).toEqual(['Island PvE', 'Island PvP']);
    expect(cmd.args!.targets.complete('Island PvE,isl', lookup)).toEqual([
      'Island PvE,Island PvE',
      'Island PvE,Island PvP',
    ]);
  });
});

describe('availability', () => {
  const ctx = (bits: number | null) =>
    ({ route: '/servers/s1', permissions: () => bits }) as unknown as CommandContext;
  const cmd = defineCommand({ id: 'p', title: 'P', group: 'g', permission: Perm.ControlServices, run: noop });
  it('names the missing permission in the words of SPEC §8', () => {
    expect(availability(cmd, ctx(Perm.Membership))).toBe(
      'Forbidden: You do not have the required permission (control servers).',
    );
    expect(availability(cmd, ctx(Perm.Membership | Perm.ControlServices))).toBe(true);
    expect(availability(cmd, ctx(9007199254740991))).toBe(true);
  });
});

describe('the permission a command is judged by', () => {
  // A moderator who may control server s2 but nothing on group g1's own mask.
  const masks: Record<string, number> = { s2: Perm.Membership | Perm.ControlServices, g1: Perm.Membership };
  const onGroupPage = {
    route: '/groups/g1',
    selection: { kind: null, ids: [] },
    entities: { search: () => [], resolve: async () => [] },
    permissions: (of?: { id: string }) => masks[of?.id ?? 'g1'] ?? null,
    app: { dialogs: { confirm: async () => true } },
  } as unknown as CommandContext;
  const ban = defineCommand({
    id: 'b',
    title: 'Ban on a server',
    group: 'g',
    permission: { server: Perm.ControlServices, group: Perm.ControlServices },
    args: { server: ref('server') },
    run: async ({ server }) => ({ message: `banned on ${server.label}` }),
  });
  it('is the one on the target named, not on the page in view', async () => {
    const server = { kind: 'server' as const, id: 's2', label: 'Island' };
    await expect(execute(ban, { server }, onGroupPage)).resolves.toEqual({ message: 'banned on Island' });
    const other = { kind: 'server' as const, id: 's3', label: 'Scorched' };
    masks.s3 = Perm.Membership;
    await expect(execute(ban, { server: other }, onGroupPage)).rejects.toThrow(
      'Scorched: Forbidden: You do not have the required permission (control servers).',
    );
  });
});
