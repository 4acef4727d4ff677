// The session in React: one Auth object in context, its state read with useSyncExternalStore so
// every component sees the same state in the same render. Boot calls auth.start(); the provider
// only hands the object down.

import { createContext, type ReactNode, useContext, useSyncExternalStore } from 'react';
import type { Auth, AuthState } from './session.ts';

const AuthContext = createContext<Auth | null>(null);

export function AuthProvider({ auth, children }: { auth: Auth; children: ReactNode }) {
  return <AuthContext value={auth}>{children}</AuthContext>;
}

export function useAuth(): { auth: Auth; state: AuthState } {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth outside AuthProvider');
  const state = useSyncExternalStore(auth.subscribe, () => auth.state);
  return { auth, state };
}
