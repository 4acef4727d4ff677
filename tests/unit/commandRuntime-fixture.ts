// A command runtime for component tests: the real registry, a context at one route with nothing
// selected, and a spy in place of running commands.

import { vi } from 'vitest';
import type { AppServices, CommandContext, Surface } from '../../commands/context.ts';
import type { Command, Registry } from '../../commands/registry.ts';
import type { CommandRuntime } from '../../src/web/app/runtime.ts';
import { EntityIndex } from '../../src/web/store/entityIndex.ts';

export function fakeCommandRuntime(
  registry: Registry,
  route: string,
  run: (cmd: Command, values: Record<string, unknown>) => Promise<unknown> = async () => undefined,
): CommandRuntime {
  const context = (surface: Surface): CommandContext => ({
    route,
    selection: { kind: null, ids: [] },
    user: null,
    surface,
    entities: { search: () => [], resolve: async () => [] },
    // The real registry's commands ask whether a list has focus, or anything is left to undo,
    // when the palette lists them.
    app: { list: () => null, undo: { available: () => false } } as unknown as AppServices,
    permissions: () => null,
  });
  return {
    registry,
    entities: context('palette').entities,
    index: new EntityIndex(),
    context,
    recent: () => [],
    run: vi.fn(run),
  } as unknown as CommandRuntime;
}
