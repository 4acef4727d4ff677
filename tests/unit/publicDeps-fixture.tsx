// The app's dependencies as the public pages use them: a query client and the API's billing calls
// (the plans, a trial's checkout). Everything else is left out: the public pages never reach it.

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { vi } from 'vitest';
import { DEFAULT_PLAN_CONFIG } from '../../src/domain/plans.ts';
import type { SentinelApi } from '../../src/web/api/sentinel.ts';
import { type AppDeps, AppDepsContext } from '../../src/web/app/deps.tsx';

export function fakeBillingApi() {
  return {
    billingPlans: vi.fn(async () => DEFAULT_PLAN_CONFIG),
    startTrial: vi.fn(async (): Promise<{ url: string }> => ({ url: 'http://billing.test/checkout/1' })),
  };
}

export function PublicDeps({ api, children }: { api?: Partial<SentinelApi>; children: ReactNode }) {
  // Made once: a new client on each render would start every query over.
  const [deps] = useState(() => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    return { api: api ?? fakeBillingApi(), queryClient } as unknown as AppDeps;
  });
  const { queryClient } = deps;
  return (
    <QueryClientProvider client={queryClient}>
      <AppDepsContext.Provider value={deps}>{children}</AppDepsContext.Provider>
    </QueryClientProvider>
  );
}
