// Bench page: `?n=N&ms=D`. The console's VirtualList over N dinos that stay on the server, as the
// dino list must show a fleet's million: the list is told the total, asks for the window in view
// (onRangeChange), and a fake server answers each page of 250 after a few milliseconds; loaded
// pages are kept in the log view's BlockCache, so a few thousand rows are held. The reader sits
// at the top, then scrolls 120 px a frame, then jumps to a random place each frame
// (bench/logs/scenario.ts, with no live lines).

import { useCallback, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import '../../src/web/app/theme.css';
import '../../src/web/ui/ui.css';
import { createRegistry } from '../../commands/index.ts';
import type { Dino } from '../../src/domain/api.ts';
import { type CommandRuntime, CommandRuntimeContext } from '../../src/web/app/runtime.ts';
import { PAGE_SIZE } from '../../src/web/store/pagedList.ts';
import { type Column, VirtualList } from '../../src/web/ui/VirtualList.tsx';
import { BlockCache } from '../../src/web/views/logs/pageCache.ts';
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

// The dino list's columns (SPEC §2), as the console shows them.
const columns: Column<Dino>[] = [
  { id: 'name', title: 'Name', value: (d) => d.dinoDisplayName, width: '2fr' },
  { id: 'species', title: 'Species', value: (d) => d.dinoSpecies },
  { id: 'level', title: 'Level', value: (d) => d.dinoLevel, align: 'end' },
  { id: 'dinoId', title: 'Dino Id', value: (d) => d.dinoNumber },
  { id: 'server', title: 'Server', value: (d) => d.serviceDisplayName },
  { id: 'status', title: 'Status', value: (d) => d.dinoStatus },
  { id: 'tribe', title: 'Tribe', value: (d) => d.tribeName },
];

let requests = 0;

function ServerDinoList() {
  const cache = useRef(new BlockCache<Dino>(40));
  const asked = useRef(new Set<number>());
  const range = useRef({ start: 0, end: 0 });
  const [win, setWin] = useState<{ offset: number; rows: readonly Dino[] }>({ offset: 0, rows: [] });

  const show = useCallback(() => {
    const { start, end } = range.current;
    cache.current.touch(start, end);
    const rows: Dino[] = [];
    for (let i = start; i < end; i++) {
      const d = cache.current.get(i);
      if (!d) break;
      rows.push(d);
    }
    setWin({ offset: start, rows });
  }, []);

  const onRangeChange = useCallback(
    (start: number, end: number) => {
      range.current = { start, end };
      for (let p = Math.floor(start / PAGE_SIZE); p * PAGE_SIZE < end; p++) {
        if (asked.current.has(p) || cache.current.covers(p * PAGE_SIZE, Math.min(n, (p + 1) * PAGE_SIZE)))
          continue;
        asked.current.add(p);
        requests++;
        setTimeout(() => {
          const from = p * PAGE_SIZE;
          cache.current.put(
            from,
            Array.from({ length: Math.min(PAGE_SIZE, n - from) }, (_, k) => dinoAt(from + k)),
          );
          asked.current.delete(p);
          show();
        }, LATENCY_MS);
      }
      show();
    },
    [show],
  );

  return (
    <VirtualList<Dino>
      name="bench-dinos"
      label="Dinos"
      rows={win.rows}
      rowOffset={win.offset}
      totalRows={n}
      onRangeChange={onRangeChange}
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
  <CommandRuntimeContext.Provider value={runtime}>
    <div style={{ height: 860, display: 'flex', flexDirection: 'column' }}>
      <ServerDinoList />
    </div>
  </CommandRuntimeContext.Provider>,
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
