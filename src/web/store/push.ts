// Push notifications per server (SPEC §4): the browser's permission, and our own choice per
// server in local storage.

import type { PushState } from '../../domain/push.ts';

const PUSH_PREFIX = 'palisade.push.';

export function pushState(serverId: string): PushState {
  const N = globalThis.Notification;
  if (!N || N.permission === 'denied') return 'blocked';
  return N.permission === 'granted' && globalThis.localStorage?.getItem(PUSH_PREFIX + serverId) === 'on'
    ? 'enabled'
    : 'disabled';
}

export async function setPush(serverId: string, on: boolean): Promise<PushState> {
  const N = globalThis.Notification;
  if (!N) return 'blocked';
  if (on && N.permission === 'default') await N.requestPermission();
  if (on && N.permission === 'granted') globalThis.localStorage?.setItem(PUSH_PREFIX + serverId, 'on');
  if (!on) globalThis.localStorage?.removeItem(PUSH_PREFIX + serverId);
  return pushState(serverId);
}

/** The browser's permission to show notifications at all (a browser-notification destination), asked for when not yet given. */
export async function allowNotifications(): Promise<PushState> {
  const N = globalThis.Notification;
  if (!N) return 'blocked';
  if (N.permission === 'default') await N.requestPermission();
  return N.permission === 'granted' ? 'enabled' : N.permission === 'denied' ? 'blocked' : 'disabled';
}
