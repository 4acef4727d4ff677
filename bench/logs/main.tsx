// Bench page: `?variant=ours|naive&n=N&ms=D`. Ours is the real LogView over a fake API of N
// generated lines and a fake realtime channel; naive holds all N lines in memory.

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createRoot } from 'react-dom/client';
import '../../src/web/app/theme.css';
import '../../src/web/ui/ui.css';
import { createRegistry } from '../../commands/index.ts';
import type { Http } from '../../src/web/api/http.ts';
import { createSentinelApi } from '../../src/web/api/sentinel.ts';
import type { AppDeps } from '../../src/web/app/deps.tsx';
import { AppDepsContext } from '../../src/web/app/deps.tsx';
import { type CommandRuntime, CommandRuntimeContext } from '../../src/web/app/runtime.ts';
import type { EventHandlers } from '../../src/web/store/realtime.ts';
import { LogView } from '../../src/web/views/logs/LogView.tsx';
import { FakeLogServer, lineAt } from './fakeServer.ts';
import { type NaiveHandle, NaiveList } from './naive.tsx';
import { type RunFigures, runScenario } from './scenario.ts';

declare global {
  interface Window {
    __logBench?: { ready: boolean; run(): Promise<RunFigures> };
  }
}

const params = new URLSearchParams(location.search);
const n = Number(params.get('n') ?? '1000000');
const durationMs = Number(params.get('ms') ?? '30000');
const root = createRoot(document.getElementById('root')!);
const SERVICE = '0a0a0a0a-0000-4000-8000-000000000001';

function mountOurs() {
  const server = new FakeLogServer(n);
  const handlers = new Set<EventHandlers>();
  const deps = {
    api: createSentinelApi(((_m: string, path: string, o: { query: Record<string, string> }) =>
      path.endsWith('/volume') ? server.volume(o.query) : server.list(o.query)) as unknown as Http),
    realtime: {
      socketId: () => 'bench',
      subscribe(_channel: string, h: EventHandlers) {
        handlers.add(h);
        setTimeout(() => h.resync?.(), 0);
        return () => handlers.delete(h);
      },
      disconnect() {},
    },
  } as unknown as AppDeps;
  // The list's menus read commands from a runtime; nothing runs during the bench.
  const runtime = { registry: createRegistry(), recent: () => [] } as unknown as CommandRuntime;
  root.render(
    <QueryClientProvider client={new QueryClient()}>
      <AppDepsContext.Provider value={deps}>
        <CommandRuntimeContext.Provider value={runtime}>
          <div style={{ height: 860, display: 'flex', flexDirection: 'column' }}>
            <LogView filter={{ serviceId: SERVICE }} name="bench-logs" />
          </div>
        </CommandRuntimeContext.Provider>
      </AppDepsContext.Provider>
    </QueryClientProvider>,
  );
  window.__logBench = {
    get ready() {
      return document.querySelectorAll('.vl-row:not(.vl-head-row):not(.is-pending)').length > 10;
    },
    run: () =>
      runScenario({
        durationMs,
        scroller: () => document.querySelector<HTMLElement>('.vl-body')!,
        send: (k) => {
          for (let i = 0; i < k; i++) {
            const line = server.append();
            for (const h of handlers) h.logMessage?.(line);
          }
        },
        follow: (el) => {
          el.scrollTop = 0;
        },
        extra: () => ({ requests: server.requests, rows: server.total }),
      }),
  };
}

function mountNaive() {
  // Newest last, as BROWSER-PERF's baseline appended and followed the tail.
  const rows = Array.from({ length: n }, (_, k) => lineAt(k));
  let next = n;
  const handle: { current: NaiveHandle | null } = { current: null };
  root.render(<NaiveList rows={rows} handle={handle} />);
  window.__logBench = {
    get ready() {
      return handle.current !== null;
    },
    run: () =>
      runScenario({
        durationMs,
        scroller: () => handle.current!.scroller(),
        send: (k) => handle.current!.push(Array.from({ length: k }, () => lineAt(next++))),
        follow: (el) => {
          el.scrollTop = el.scrollHeight;
        },
      }),
  };
}

if (params.get('variant') === 'naive') mountNaive();
else mountOurs();
