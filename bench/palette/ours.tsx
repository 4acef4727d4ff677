// (b) Our real Palette over a fake runtime: a real Registry (nav.open plus a shell-sized catalogue)
// and a real EntityIndex holding the generated entities.
import { createStore, Provider } from 'jotai';
import type { Root } from 'react-dom/client';
import { ref } from '../../commands/args.ts';
import type { AppServices, CommandContext, Surface } from '../../commands/context.ts';
import { defineCommand, Registry } from '../../commands/registry.ts';
import { type CommandRuntime, CommandRuntimeContext } from '../../src/web/app/runtime.ts';
import { Palette } from '../../src/web/palette/Palette.tsx';
import { openPalette } from '../../src/web/palette/state.ts';
import { EntityIndex } from '../../src/web/store/entityIndex.ts';
import type { BenchEntity } from '../lib/entities.ts';
import { INPUT_SELECTOR, installProbe } from '../lib/probe.ts';

const GROUPS = ['Servers', 'Players', 'Groups', 'Dinos', 'Scripts', 'Buckets'];
const VERBS = ['List', 'Open', 'Create', 'Edit', 'Delete', 'Refresh', 'Export', 'Copy id'];

function benchRuntime(data: BenchEntity[]): CommandRuntime {
  const registry = new Registry().register(
    defineCommand({
      id: 'nav.open',
      title: 'Open',
      group: 'Navigation',
      args: { target: ref('dino') },
      run: () => undefined,
    }),
    ...GROUPS.flatMap((g) =>
      VERBS.map((v) =>
        defineCommand({
          id: `${g.toLowerCase()}.${v.replace(' ', '')}`,
          title: `${v} ${g}`,
          group: g,
          run: () => undefined,
        }),
      ),
    ),
  );
  const index = new EntityIndex();
  index.upsert(data);
  const entities = { search: () => [], resolve: async () => [] };
  const context = (surface: Surface): CommandContext => ({
    route: '/dinos',
    selection: { kind: null, ids: [] },
    user: null,
    surface,
    entities,
    app: {} as AppServices,
    permissions: () => null,
  });
  return { registry, entities, index, context, run: async () => undefined, recent: () => [] };
}

export function mountOurs(root: Root, data: BenchEntity[]): void {
  const store = createStore();
  root.render(
    <Provider store={store}>
      <CommandRuntimeContext.Provider value={benchRuntime(data)}>
        <Palette />
      </CommandRuntimeContext.Provider>
    </Provider>,
  );
  installProbe(
    () => openPalette(store),
    () => document.querySelector(INPUT_SELECTOR) !== null,
  );
}
