// Bench page: `?chart=population|volume[&bare]`. Each `mount()` renders the real chart into a
// fresh query cache over a fake API that answers at once, and times it to its first paint (see
// ../lib/probe.ts): the log volume chart over a million lines (the counts of FakeLogServer, as
// the database gives them), the population chart at 24 hours and then switched to 90 days of one
// server (270 points). Data is made in the page and not timed.
//
// As in the console, the first chart is not the page's first paint: the page first paints a list
// fetched through a query (the console's shell and server list) and then runs the console's
// idle-time chart warm-up
// (warmCharts). `&bare` skips both: the first chart of a page that has drawn nothing before.

import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { flushSync } from 'react-dom';
import { createRoot, type Root } from 'react-dom/client';
import '../../src/web/app/theme.css';
import '../../src/web/ui/ui.css';
import '../../src/web/app/shell.css';
import { createRegistry } from '../../commands/index.ts';
import type { Population } from '../../src/domain/population.ts';
import type { Http } from '../../src/web/api/http.ts';
import { createSentinelApi } from '../../src/web/api/sentinel.ts';
import type { AppDeps } from '../../src/web/app/deps.tsx';
import { AppDepsContext } from '../../src/web/app/deps.tsx';
import { type CommandRuntime, CommandRuntimeContext } from '../../src/web/app/runtime.ts';
import { warmCharts } from '../../src/web/ui/chartWarmup.ts';
import { LogVolumeChart } from '../../src/web/views/logs/LogVolumeChart.tsx';
import { EMPTY_CRITERIA } from '../../src/web/views/logs/logQuery.ts';
import { PopulationChart } from '../../src/web/views/servers/PopulationChart.tsx';
import { overlapping, paintedAfter, type Sample } from '../lib/probe.ts';
import { FakeLogServer, LINES_PER_SECOND, T0 } from '../logs/fakeServer.ts';

declare global {
  interface Window {
    /** A chart mounted and painted; the population chart then switched to 90 days. */
    __chartBench?: { ready: boolean; mount(): Promise<{ mount: Sample; switched?: Sample }> };
  }
}

const chart = new URLSearchParams(location.search).get('chart') ?? 'population';
const SERVICE = '0a0a0a0a-0000-4000-8000-000000000001';
const LINES = 1_000_000;
const logs = new FakeLogServer(LINES, 0);

/** Players per step: a day's rhythm and some noise, as a busy server's. */
function population(since: number, step: number): Population {
  const now = Math.floor(Date.now() / 1000);
  const points = [];
  for (let t = since; t < now; t += step) {
    const day = Math.sin(((t % 86_400) / 86_400) * 2 * Math.PI);
    points.push({ time: t, players: Math.max(0, Math.round(30 + 25 * day + ((t / step) % 7))) });
  }
  return { serviceId: SERVICE, since, step, points };
}

const deps = {
  api: createSentinelApi(((_m: string, path: string, o: { query: Record<string, string> }) =>
    path.endsWith('/population')
      ? Promise.resolve(population(Number(o.query.since), Number(o.query.step)))
      : logs.volume(o.query)) as unknown as Http),
} as unknown as AppDeps;
const runtime = { registry: createRegistry(), recent: () => [] } as unknown as CommandRuntime;
const root: Root = createRoot(document.getElementById('root')!);
const caption = () => document.querySelector('figcaption')?.textContent ?? '';

/** The chart in a fresh cache, so every mount asks and draws anew. */
function render() {
  root.render(
    <QueryClientProvider client={new QueryClient()}>
      <AppDepsContext.Provider value={deps}>
        <CommandRuntimeContext.Provider value={runtime}>
          {chart === 'population' ? (
            <PopulationChart serviceId={SERVICE} name="Island PvE" />
          ) : (
            <LogVolumeChart
              scope={{ serviceId: SERVICE }}
              criteria={{ ...EMPTY_CRITERIA, from: T0, to: T0 + LINES / LINES_PER_SECOND }}
              onRange={() => {}}
            />
          )}
        </CommandRuntimeContext.Provider>
      </AppDepsContext.Provider>
    </QueryClientProvider>,
  );
}

/** Mounted from nothing (at once: rendered over the last mount, a chart keeps its state) to its paint. */
async function mountTimed(drawn: () => boolean): Promise<Sample> {
  flushSync(() => root.render(null));
  const start = performance.now();
  render();
  const end = await paintedAfter(() => drawn() && !!document.querySelector('canvas'));
  return { ms: end - start, longTasks: overlapping(start, end) };
}

/** The console's server list: asked through a query, as every list of the console is. */
function ServerNames() {
  const q = useQuery({
    queryKey: ['servers'],
    queryFn: () => Promise.resolve(Array.from({ length: 200 }, (_, i) => `Island PvE ${i}`)),
  });
  return (
    <ul>
      {q.data?.map((name) => (
        <li key={name}>{name}</li>
      ))}
    </ul>
  );
}

/** What the console has done before its first chart: painted a list, then warmed the charts. */
async function asInTheConsole() {
  root.render(
    <QueryClientProvider client={new QueryClient()}>
      <ServerNames />
    </QueryClientProvider>,
  );
  await paintedAfter(() => document.querySelectorAll('li').length === 200);
  flushSync(() => root.render(null));
  await warmCharts();
}

if (!new URLSearchParams(location.search).has('bare')) await asInTheConsole();

window.__chartBench = {
  ready: true,
  async mount() {
    if (chart === 'volume') return { mount: await mountTimed(() => caption().startsWith('1,000,000 lines')) };
    // At its default (24 hours), then timed from the press of 90 days to its paint.
    const mount = await mountTimed(() => caption().startsWith('Over 24 hours'));
    const start = performance.now();
    [...document.querySelectorAll('button')].find((b) => b.textContent === '90d')!.click();
    const end = await paintedAfter(() => caption().startsWith('Over 90 days'));
    return { mount, switched: { ms: end - start, longTasks: overlapping(start, end) } };
  },
};
