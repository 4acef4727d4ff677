// Menus and toolbars are lists of command ids: each must name a registered command, so none
// vanishes from a menu without an error.

import { describe, expect, it } from 'vitest';
import { createRegistry } from '../../commands/index.ts';
import { MENUS } from '../../src/web/app/menus.ts';

describe('menus and toolbars', () => {
  const registry = createRegistry();

  it('name only registered commands', () => {
    const unknown = Object.entries(MENUS).flatMap(([menu, ids]) =>
      (ids as readonly string[]).filter((id) => !registry.get(id)).map((id) => `${menu}: ${id}`),
    );
    expect(unknown).toEqual([]);
  });

  it('the check fails on an unknown id', () => {
    const lists = { ...MENUS, broken: ['server.nope'] } as Record<string, readonly string[]>;
    const unknown = Object.values(lists).flatMap((ids) => ids.filter((id) => !registry.get(id)));
    expect(unknown).toEqual(['server.nope']);
  });
});
