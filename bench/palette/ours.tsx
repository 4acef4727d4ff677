// (b) Our real Palette over a fake runtime: a real Registry (nav.open plus a shell-sized catalogue)
// and a real EntityIndex holding the generated entities.
import { createStore, Provider } from 'jotai';
import type { Root } from 'react-dom/client';
import { ref } from '../../commands/args.ts';
import type { AppServices, CommandContext, Surface } from '../../commands/context.ts';
import { defineCommand, Registry } from '../../commands/registry.ts';
import { type CommandRuntime, CommandRuntimeContext } from '../../src/web/app/runtime.ts';
import { Palette } from '../../src/web/palette/Palette.tsx';
import type { RemoteSearch } from '../../src/web/palette/remoteSearch.ts';
import { openPalette } from '../../src/web/palette/state.ts';
import { EntityIndex } from '../../src/web/store/entityIndex.ts';
import type { BenchEntity } from '../lib/entities.ts';
import { INPUT_SELECTOR, installProbe } from '../lib/probe.ts';

const GROUPS = ['Servers', 'Players', 'Groups', 'Dinos', 'Scripts', 'Buckets'];
const VERBS = ['List', 'Open', 'Create', 'Edit', 'Delete', 'Refresh', 'Export', 'Copy id'];

/**
 * The server side of the palette's dino search (issue 13): a fleet's million dinos stay on the
 * server, which answers each query with a page of 20 after `latencyMs` (bench/dinos measures the
 * real request under load). Its rows are labelled `<query> <n> (server)`.
 */
export const REMOTE_PAGE = 20;
export const remoteLabel = (query: string, n: number) => `${query} ${n} (server)`;

/** Queries the fake server has answered, for the probe's armRow. */
const answered = new Set<string>();

function fakeServer(latencyMs: number): RemoteSearch {
  return (text, signal) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        answered.add(text);
        resolve(
          Array.from({ length: REMOTE_PAGE }, (_, n) => ({
            kind: 'dino' as const,
            id: `remote-${text}-${n}`,
            label: remoteLabel(text, n),
            detail: 'Rex · Tribe of Bob · The Island',
          })),
        );
      }, latencyMs);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(new DOMException('aborted', 'AbortError'));
      });
    });
}

function benchRuntime(data: BenchEntity[], remoteLatencyMs: number | null): CommandRuntime {
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
  return {
    registry,
    entities,
    index,
    ...(remoteLatencyMs === null ? {} : { remote: fakeServer(remoteLatencyMs) }),
    context,
    run: async () => undefined,
    recent: () => [],
  };
}

/** `remoteLatencyMs`: the palette also searches a server (the `remote` variant), answering after that long. */
export function mountOurs(root: Root, data: BenchEntity[], remoteLatencyMs: number | null = null): void {
  const store = createStore();
  root.render(
    <Provider store={store}>
      <CommandRuntimeContext.Provider value={benchRuntime(data, remoteLatencyMs)}>
        <Palette />
      </CommandRuntimeContext.Provider>
    </Provider>,
  );
  installProbe(
    () => openPalette(store),
    () => document.querySelector(INPUT_SELECTOR) !== null,
    (query) => answered.has(query),
  );
}
