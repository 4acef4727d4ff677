// Everything the shell wires together once at boot, handed to views through one context.

import type { QueryClient } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import type { Registry } from '../../../commands/registry.ts';
import type { User } from '../../domain/api.ts';
import type { SentinelApi } from '../api/sentinel.ts';
import type { ConsoleConfig } from '../auth/config.ts';
import type { Auth } from '../auth/session.ts';
import type { EntityIndex } from '../store/entityIndex.ts';
import type { Realtime } from '../store/realtime.ts';
import type { AppStore } from './state.ts';

export interface AppDeps {
  config: ConsoleConfig;
  api: SentinelApi;
  auth: Auth;
  registry: Registry;
  index: EntityIndex;
  store: AppStore;
  queryClient: QueryClient;
  /** The realtime connection while signed in; null before. */
  realtime: Realtime | null;
}

/** The signed-in user, or null. */
export function userOf(auth: Auth): User | null {
  return auth.state.status === 'signedIn' ? auth.state.user : null;
}

export const AppDepsContext = createContext<AppDeps | null>(null);

export function useApp(): AppDeps {
  const deps = useContext(AppDepsContext);
  if (!deps) throw new Error('useApp outside AppDepsContext');
  return deps;
}
