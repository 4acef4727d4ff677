// Boot: read the runtime config, wire API helper, auth, registry and stores, then render.

import { QueryClient } from '@tanstack/react-query';
import { getDefaultStore } from 'jotai';
import { createRoot } from 'react-dom/client';
import { createRegistry } from '../../commands/index.ts';
import { createHttp } from './api/http.ts';
import { createSentinelApi } from './api/sentinel.ts';
import { App } from './app/App.tsx';
import type { AppDeps } from './app/deps.tsx';
import './app/theme.css';
import './app/shell.css';
import './ui/ui.css';
import './ui/ripple.css';
import { loadConfig } from './auth/config.ts';
import { createAuth } from './auth/session.ts';
import { EntityIndex } from './store/entityIndex.ts';
import type { Realtime } from './store/realtime.ts';

const root = createRoot(document.getElementById('root')!);

async function boot() {
  const config = await loadConfig();
  const live: { realtime: Realtime | null } = { realtime: null };
  let auth: ReturnType<typeof createAuth> | null = null;
  const http = createHttp({
    baseUrl: config.apiUrl,
    accessToken: () => auth?.accessToken() ?? Promise.resolve(null),
    socketId: () => live.realtime?.socketId() ?? null,
    onUnauthorized: () => auth?.onUnauthorized() ?? Promise.resolve(false),
  });
  const api = createSentinelApi(http);
  auth = createAuth({ config, api, navigate: (url) => window.location.assign(url) });
  auth.start();
  const deps: Omit<AppDeps, 'realtime'> = {
    config,
    api,
    auth,
    registry: createRegistry(),
    index: new EntityIndex(),
    store: getDefaultStore(),
    queryClient: new QueryClient({ defaultOptions: { queries: { staleTime: 30_000, retry: 1 } } }),
  };
  root.render(<App base={deps} live={live} />);
}

boot().catch((e: Error) => {
  root.render(
    <p className="boot" role="alert">
      The console could not start: {e.message}
    </p>,
  );
});
