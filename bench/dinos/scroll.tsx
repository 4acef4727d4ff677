// Bench page: `?n=N&ms=D`. The console's VirtualList over N dinos that stay on the server, as the
// dino list must show a fleet's million: the list is told the total, asks for the window in view
// (onRangeChange), and a fake server answers each page of 250 after a few milliseconds. The pages
// are held as the console's world lists hold them (useServerPages), a few thousand rows. The reader sits
// at the top, then scrolls 120 px a frame, then jumps to a random place each frame
// (bench/logs/scenario.ts, with no live lines).

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createRoot } from 'react-dom/client';
import '../../src/web/app/theme.css';
import '../../src/web/ui/ui.css';
import { createRegistry } from '../../commands/index.ts';
import type { Dino, Page } from '../../src/domain/api.ts';
import { DINO_COLUMNS } from '../../src/domain/world.ts';
import { type CommandRuntime, CommandRuntimeContext } from '../../src/web/app/runtime.ts';
import { PAGE_SIZE } from '../../src/web/store/pageWindow.ts';
import { useServerPages } from '../../src/web/store/rowWindow.ts';
import { type Column, VirtualList } from '../../src/web/ui/VirtualList.tsx';
import { type RunFigures, runScenario } from '../logs/scenario.ts';

declare global {
  interface Window {
    __dinoBench?: { ready: boolean; run(): Promise<RunFigures> };
  }
}

const params = new URLSearchParams(location.search);
const n = Number(params.get('n') ?? '1000000');
const durationMs = Number(params.get('ms') ?? '9000');
/** The server's answer time for a page; bench/dinos measures the real one under load. */
const LATENCY_MS = 10;
const SPECIES = ['Rex', 'Raptor', 'Argentavis', 'Giganotosaurus', 'Dodo', 'Therizinosaurus', 'Pteranodon'];
const STATUSES = ['Deployed', 'Frozen', 'Uploaded', 'Dead'] as const;

/** The i-th dino in display-name order, the same every run. */
function dinoAt(i: number): Dino {
  const species = SPECIES[i % SPECIES.length];
  const name = `Dino ${String(i).padStart(7, '0')}`;
  return {
    dinoId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    dinoNumber: String(4294967296 + i),
    dinoNumber64: String(4294967296 * (i + 1)),
    dinoName: name,
    dinoNameTag: '',
    dinoDisplayName: name,
    dinoSpecies: species,
    dinoSpeciesPath: `/Game/PrimalEarth/Dinos/${species}`,
    dinoLevel: 1 + (i % 450),
    dinoAge: (i % 100) / 100,
    dinoIsDead: false,
    dinoIsFrozen: false,
    dinoIsUploaded: false,
    dinoRestoreEligible: false,
    dinoStatus: STATUSES[i % 4],
    dinoGender: 'Female',
    dinoHasGender: true,
    dinoIsFemale: true,
    permissions: 1,
    serviceId: '0a0a0a0a-0000-4000-8000-000000000001',
    serviceDisplayName: `Server ${i % 50}`,
    serviceColor: 'None',
    tribeId: null,
    tribeName: `Tribe of ${i % 2500}`,
  } as Dino;
}

// The dino list's columns as the console declares them (src/domain/world.ts).
const columns: Column<Dino>[] = DINO_COLUMNS.map((c) => ({ ...c }));

let requests = 0;

/** The server: page `page` of the million after LATENCY_MS. */
const fetchPage = (page: number): Promise<Page<Dino>> =>
  new Promise((resolve) =>
    setTimeout(() => {
      requests++;
      const from = (page - 1) * PAGE_SIZE;
      resolve({
        totalResults: n,
        pageSize: PAGE_SIZE,
        pages: Math.ceil(n / PAGE_SIZE),
        page,
        results: Array.from({ length: Math.max(0, Math.min(PAGE_SIZE, n - from)) }, (_, k) =>
          dinoAt(from + k),
        ),
      });
    }, LATENCY_MS),
  );

/** The world lists' paging (useServerPages), as WorldList uses it. */
function ServerDinoList() {
  const list = useServerPages<Dino>(['bench-dinos'], fetchPage);
  return (
    <VirtualList<Dino>
      {...list.view}
      name="bench-dinos"
      label="Dinos"
      serverSide={{ onFilter: () => undefined, onSort: () => undefined }}
      columns={columns}
      rowKey={(d) => d.dinoId}
      defaultSort={{ column: 'name', direction: 'asc' }}
    />
  );
}

// The list's menus read commands from a runtime; nothing runs during the bench.
const runtime = { registry: createRegistry(), recent: () => [] } as unknown as CommandRuntime;
createRoot(document.getElementById('root')!).render(
  <QueryClientProvider client={new QueryClient()}>
    <CommandRuntimeContext.Provider value={runtime}>
      <div style={{ height: 860, display: 'flex', flexDirection: 'column' }}>
        <ServerDinoList />
      </div>
    </CommandRuntimeContext.Provider>
  </QueryClientProvider>,
);

window.__dinoBench = {
  get ready() {
    return document.querySelectorAll('.vl-row:not(.vl-head-row):not(.is-pending)').length > 10;
  },
  run: () =>
    runScenario({
      durationMs,
      scroller: () => document.querySelector<HTMLElement>('.vl-grid')!,
      send: () => undefined,
      follow: (el) => {
        el.scrollTop = 0;
      },
      extra: () => ({ requests }),
    }),
};
