// The log view under a removed line (§6: a disconnect undone by a reconnect within 2 minutes):
// on `logMessageRemoved` it starts over from the server, so the line leaves the screen.

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { createRegistry } from '../../commands/index.ts';
import { channelFor, type LogMessage, type Page, RealtimeEvent } from '../../src/domain/api.ts';
import type { LogVolume } from '../../src/domain/logVolume.ts';
import type { Http } from '../../src/web/api/http.ts';
import { createSentinelApi } from '../../src/web/api/sentinel.ts';
import { type AppDeps, AppDepsContext } from '../../src/web/app/deps.tsx';
import { CommandRuntimeContext } from '../../src/web/app/runtime.ts';
import { LogView } from '../../src/web/views/logs/LogView.tsx';
import { fakeCommandRuntime } from './commandRuntime-fixture.ts';
import { fakeRealtime } from './realtime-fixture.ts';

const SERVICE = '11111111-1111-4111-8111-111111111111';
const line = (n: number, message: string): LogMessage => ({
  messageId: `00000000-0000-7000-8000-${n.toString(16).padStart(12, '0')}`,
  serviceId: SERVICE,
  serviceDisplayName: 'Island',
  serviceMiniDisplayName: 'Island',
  eventName: n === 3 ? 'serverDisconnected' : 'playerJoined',
  type: n === 3 ? 'Service' : 'Gameplay',
  time: 1_700_000_000 + n,
  level: 'Informational',
  analyzerStatus: 'Skipped',
  metadata: {},
  message,
});

beforeEach(() => {
  localStorage.clear();
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (this: HTMLElement) {
    return this.classList.contains('vl-grid') ? 240 : 0;
  });
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
    const height = this.classList.contains('vl-grid') ? 240 : 0;
    return { x: 0, y: 0, top: 0, left: 0, right: 800, bottom: height, width: 800, height, toJSON() {} };
  });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

it('drops a removed line from the screen when the server says it was removed', async () => {
  let stored = [line(3, 'Island disconnected'), line(2, 'Bob joined'), line(1, 'Ann joined')];
  const http = vi.fn(
    async (_method: string, path: string): Promise<Page<LogMessage> | LogVolume> =>
      // The volume chart above the list asks too; its bars are not what this test reads.
      path.endsWith('/volume')
        ? { since: 0, until: 60, step: 60, levels: [] }
        : { totalResults: stored.length, pageSize: 250, pages: 1, page: 1, results: stored },
  );
  const listCalls = () => http.mock.calls.filter((c) => c[1] === '/sentinel/logMessages').length;
  const rt = fakeRealtime();
  const deps = { api: createSentinelApi(http as Http), realtime: rt.realtime } as unknown as AppDeps;
  // The list's menus ask the command runtime what applies to a row; nothing runs here.
  const runtime = fakeCommandRuntime(createRegistry(), `/servers/${SERVICE}/logs`);
  render(
    <Provider store={createStore()}>
      <QueryClientProvider client={new QueryClient()}>
        <AppDepsContext.Provider value={deps}>
          <CommandRuntimeContext.Provider value={runtime}>
            <LogView filter={{ serviceId: SERVICE }} name="server-logs" />
          </CommandRuntimeContext.Provider>
        </AppDepsContext.Provider>
      </QueryClientProvider>
    </Provider>,
  );
  await screen.findByText('Island disconnected');
  expect(screen.getByText('Bob joined')).toBeTruthy();

  // The server reconnected in time: the line is gone from the store and the view is told.
  stored = stored.slice(1);
  const calls = listCalls();
  rt.emit(channelFor('services', SERVICE), RealtimeEvent.logMessageRemoved, {
    messageId: line(3, '').messageId,
    serviceId: SERVICE,
  });
  await waitFor(() => expect(screen.queryByText('Island disconnected')).toBeNull());
  expect(listCalls()).toBeGreaterThan(calls);
  expect(screen.getByText('Bob joined')).toBeTruthy();
  expect(screen.getByText('Ann joined')).toBeTruthy();
});
