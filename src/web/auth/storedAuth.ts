// The stored auth of SPEC §3, shared by every tab of the console through localStorage.

import type { TokenResponse } from '../../domain/api.ts';
import { readJson } from './storage.ts';

export const AUTH_KEY = 'palisade.auth';

export interface StoredAuth {
  access_token: string;
  refresh_token: string;
  scope: string;
  access_token_expires_in: number;
  refresh_token_expires_in: number;
  /** Epoch seconds, from this browser's clock so that a skewed clock cannot keep a dead token. */
  access_token_expiration: number;
  refresh_token_expiration: number;
}

export function storedAuthFrom(token: TokenResponse, nowMs: number): StoredAuth {
  const nowS = nowMs / 1000;
  return {
    access_token: token.access_token,
    refresh_token: token.refresh_token,
    scope: token.scope,
    access_token_expires_in: token.access_token_expires_in,
    refresh_token_expires_in: token.refresh_token_expires_in,
    access_token_expiration: Math.floor(nowS + token.access_token_expires_in),
    refresh_token_expiration: Math.floor(nowS + token.refresh_token_expires_in),
  };
}

function isStoredAuth(v: unknown): v is StoredAuth {
  if (typeof v !== 'object' || v === null) return false;
  const a = v as Record<string, unknown>;
  return (
    typeof a.access_token === 'string' &&
    typeof a.refresh_token === 'string' &&
    typeof a.scope === 'string' &&
    typeof a.access_token_expiration === 'number' &&
    typeof a.refresh_token_expiration === 'number'
  );
}

export function readStoredAuth(storage: Storage): StoredAuth | null {
  const v = readJson(storage, AUTH_KEY);
  return isStoredAuth(v) ? v : null;
}

export function writeStoredAuth(storage: Storage, auth: StoredAuth): void {
  storage.setItem(AUTH_KEY, JSON.stringify(auth));
}

export function clearStoredAuth(storage: Storage): void {
  storage.removeItem(AUTH_KEY);
}

/**
 * Calls `fn` with the new stored auth whenever another tab changes it. Browsers fire `storage`
 * only in the other tabs, with `key` null when the whole storage was cleared.
 */
export function onStoredAuthChange(
  events: EventTarget,
  storage: Storage,
  fn: (auth: StoredAuth | null) => void,
): () => void {
  const listener = (e: Event) => {
    const key = (e as StorageEvent).key;
    if (key === AUTH_KEY || key === null) fn(readStoredAuth(storage));
  };
  events.addEventListener('storage', listener);
  return () => events.removeEventListener('storage', listener);
}
