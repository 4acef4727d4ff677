// The device id of SPEC §3: a random UUID made once per browser and sent with sign-in calls.

import { NIL_DEVICE_ID, UUID } from '../../domain/constants.ts';

export const DEVICE_ID_KEY = 'palisade.deviceId';

/** The stored id, or the nil id ('{hash}') while none has been made. */
export function readDeviceId(storage: Storage): string {
  const id = storage.getItem(DEVICE_ID_KEY);
  return id && UUID.test(id) ? id : NIL_DEVICE_ID;
}

export function ensureDeviceId(storage: Storage): string {
  const existing = readDeviceId(storage);
  if (existing !== NIL_DEVICE_ID) return existing;
  const id = randomUuid();
  storage.setItem(DEVICE_ID_KEY, id);
  return id;
}

/** crypto.randomUUID exists only on secure pages; getRandomValues exists everywhere. */
function randomUuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
