// The one resolver: every route to (kind, id, tab) and back, what is in view for a command, and
// whose permission mask applies (SENTINEL-API §7) and what a command needs of it.

import { describe, expect, it } from 'vitest';
import type { CommandContext } from '../../commands/context.ts';
import { createRegistry } from '../../commands/index.ts';
import { availability, execute } from '../../commands/registry.ts';
import { ALL_PERMISSIONS, Perm } from '../../src/domain/permissions.ts';
import {
  ENTITY_KINDS,
  type EntityKind,
  maskHolderOf,
  NO_SELECTION,
  pathOf,
  placeOf,
  refsInView,
  selectionOf,
} from '../../src/domain/resolver.ts';

const ID = '3f2a8c1e-0b4d-4e5f-9a6b-7c8d9e0f1a2b';

describe('routes ⇄ (kind, id, tab)', () => {
  const pages: [string, EntityKind, string | null][] = [
    ['/servers', 'server', null],
    ['/groups', 'group', null],
    ['/players', 'player', null],
    ['/characters', 'survivor', null],
    ['/tribes', 'tribe', null],
    ['/dinos', 'dino', null],
    ['/scripts', 'script', null],
    ['/alerts', 'alert', null],
    ['/destinations', 'destination', null],
    ['/buckets', 'bucket', null],
    ['/logs', 'log', null],
  ];

  it('reads every section, and every entity page and tab, and writes the same route back', () => {
    expect(pages.map(([, kind]) => kind).sort()).toEqual([...ENTITY_KINDS].sort());
    for (const [section, kind] of pages) {
      expect(placeOf(section)).toEqual({ section: section.slice(1), kind: null, id: null, tab: null });
      expect(pathOf(kind)).toBe(section);
      expect(placeOf(`${section}/${ID}`)).toEqual({ section: section.slice(1), kind, id: ID, tab: null });
      expect(pathOf(kind, ID)).toBe(`${section}/${ID}`);
      expect(placeOf(`${section}/${ID}/sessions`)).toMatchObject({ kind, id: ID, tab: 'sessions' });
      expect(pathOf(kind, ID, 'sessions')).toBe(`${section}/${ID}/sessions`);
    }
  });

  it('reads the Workshop: its list is no script, its preview is the script after it', () => {
    expect(placeOf('/scripts/workshop')).toEqual({ section: 'scripts', kind: null, id: null, tab: null });
    expect(placeOf(`/scripts/workshop/${ID}`)).toEqual({
      section: 'scripts',
      kind: 'script',
      id: ID,
      tab: null,
    });
  });

  it('drops a default tab, reads old section names and encoded ids', () => {
    expect(placeOf(`/servers/${ID}/logs`)).toMatchObject({ kind: 'server', tab: null });
    expect(pathOf('server', ID, 'logs')).toBe(`/servers/${ID}`);
    expect(pathOf('group', ID, 'services')).toBe(`/groups/${ID}`);
    expect(pathOf('player', ID, 'logs')).toBe(`/players/${ID}`);
    expect(placeOf(`/services/${ID}/bans`)).toEqual({
      section: 'servers',
      kind: 'server',
      id: ID,
      tab: 'bans',
    });
    expect(placeOf(`/survivors/${ID}`)).toMatchObject({ section: 'characters', kind: 'survivor' });
    expect(pathOf('player', 'a b/c')).toBe('/players/a%20b%2Fc');
    expect(placeOf('/players/a%20b%2Fc')).toMatchObject({ kind: 'player', id: 'a b/c' });
  });

  it('knows no kind on pages that are not an entity', () => {
    for (const route of ['/', '/welcome', '/oauth', '/a/xyz', '/nowhere/1'])
      expect(placeOf(route)).toMatchObject({ kind: null, id: null });
  });
});

describe('what is in view', () => {
  const bob = { kind: 'player' as const, id: 'p-bob', label: 'Bob' };
  it('the selection of a matching kind first, else the route, labelled by the selection or the store', () => {
    const route = `/servers/${ID}/bans`;
    const label = (_k: EntityKind, id: string) => (id === ID ? 'Island PvE' : undefined);
    expect(refsInView(route, selectionOf([bob]), ['player'])).toEqual([bob]);
    expect(refsInView(route, selectionOf([bob]), ['server', 'group'], label)).toEqual([
      { kind: 'server', id: ID, label: 'Island PvE' },
    ]);
    expect(refsInView(route, NO_SELECTION, ['player'])).toEqual([]);
    expect(refsInView('/players/p-bob', NO_SELECTION, ['player'])).toEqual([
      { kind: 'player', id: 'p-bob', label: 'p-bob' },
    ]);
  });
});

describe('permission masks', () => {
  it('a server, group, script and bucket hold their own; survivors, tribes, dinos and log lines their server’s; players, alert rules and destinations none', () => {
    expect(Object.fromEntries(ENTITY_KINDS.map((k) => [k, maskHolderOf(k)]))).toEqual({
      server: 'server',
      group: 'group',
      player: null,
      survivor: 'server',
      tribe: 'server',
      dino: 'server',
      script: 'script',
      bucket: 'bucket',
      log: 'server',
      alert: null,
      destination: null,
    });
  });

  const registry = createRegistry();
  const banCreate = registry.get('ban.create')!;
  const ctx = (route: string, masks: Record<string, number>) =>
    ({
      route,
      selection: NO_SELECTION,
      entities: { search: () => [], resolve: async () => [] },
      app: { dialogs: { confirm: async () => true } },
      permissions: (of?: { id: string }) => masks[of?.id ?? placeOf(route).id ?? ''] ?? null,
    }) as unknown as CommandContext;

  it('a ban needs control servers on a server and manage bans on a group', () => {
    const control = Perm.Membership | Perm.ControlServices;
    const bans = Perm.Membership | Perm.ManageBans;
    expect(availability(banCreate, ctx('/servers/s1/bans', { s1: control }))).toBe(true);
    expect(availability(banCreate, ctx('/servers/s1/bans', { s1: bans }))).toBe(
      'Forbidden: You do not have the required permission (control servers).',
    );
    expect(availability(banCreate, ctx('/groups/g1/bans', { g1: bans }))).toBe(true);
    expect(availability(banCreate, ctx('/groups/g1/bans', { g1: control }))).toBe(
      'Forbidden: You do not have the required permission (manage bans).',
    );
    // A survivor's page: its server's mask decides; an owner holds every bit.
    expect(availability(banCreate, ctx('/characters/c1', { c1: Perm.Membership }))).toMatch(/^Forbidden/);
    expect(availability(banCreate, ctx('/characters/c1', { c1: ALL_PERMISSIONS }))).toBe(true);
    // A player page holds no mask: the targets given decide.
    expect(availability(banCreate, ctx('/players/p1', {}))).toBe(true);
  });

  it('checks each server or group a command is given, before anything is sent', async () => {
    const group = { kind: 'group', id: 'g1', label: 'Demo Cluster' };
    const player = { kind: 'player', id: 'p1', label: 'Bob' };
    await expect(
      execute(
        banCreate,
        { player: [player], comments: 'grief', targets: [group] },
        ctx('/players/p1', { g1: Perm.Membership | Perm.ControlServices }),
      ),
    ).rejects.toMatchObject({
      message: 'Demo Cluster: Forbidden: You do not have the required permission (manage bans).',
      field: 'targets',
    });
  });
});
