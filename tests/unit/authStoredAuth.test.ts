import { describe, expect, it, vi } from 'vitest';
import type { TokenResponse } from '../../src/domain/api.ts';
import { memoryStorage } from '../../src/web/auth/storage.ts';
import {
  AUTH_KEY,
  clearStoredAuth,
  onStoredAuthChange,
  readStoredAuth,
  storedAuthFrom,
  writeStoredAuth,
} from '../../src/web/auth/storedAuth.ts';

const token: TokenResponse = {
  token_type: 'Bearer',
  access_token: 'a',
  refresh_token: 'r',
  access_token_expiration: 1, // the server's clock: ignored in favour of ours
  refresh_token_expiration: 2,
  access_token_expires_in: 3599.6,
  refresh_token_expires_in: 2592000,
  scope: 'common sentinel:read',
  now: 0,
};

const storageEvent = (key: string | null) => Object.assign(new Event('storage'), { key });

describe('stored auth', () => {
  it('derives expirations in epoch seconds from this clock and the lifetimes', () => {
    const auth = storedAuthFrom(token, 1_700_000_000_500);
    expect(auth).toEqual({
      access_token: 'a',
      refresh_token: 'r',
      scope: 'common sentinel:read',
      access_token_expires_in: 3599.6,
      refresh_token_expires_in: 2592000,
      access_token_expiration: 1_700_003_600,
      refresh_token_expiration: 1_702_592_000,
    });
  });

  it('reads back what it wrote, and nothing after clearing or when damaged', () => {
    const storage = memoryStorage();
    const auth = storedAuthFrom(token, 0);
    writeStoredAuth(storage, auth);
    expect(readStoredAuth(storage)).toEqual(auth);
    clearStoredAuth(storage);
    expect(readStoredAuth(storage)).toBeNull();
    storage.setItem(AUTH_KEY, '{"access_token":1}');
    expect(readStoredAuth(storage)).toBeNull();
    storage.setItem(AUTH_KEY, '{not json');
    expect(readStoredAuth(storage)).toBeNull();
  });

  it("passes other tabs' changes of the auth key (or a full clear) to the listener until removed", () => {
    const storage = memoryStorage();
    const events = new EventTarget();
    const fn = vi.fn();
    const stop = onStoredAuthChange(events, storage, fn);
    writeStoredAuth(storage, storedAuthFrom(token, 0));
    events.dispatchEvent(storageEvent(AUTH_KEY));
    events.dispatchEvent(storageEvent('palisade.pref.theme'));
    events.dispatchEvent(storageEvent(null));
    expect(fn).toHaveBeenCalledTimes(2);
    expect(fn.mock.calls[0][0]).toMatchObject({ access_token: 'a' });
    stop();
    events.dispatchEvent(storageEvent(AUTH_KEY));
    expect(fn).toHaveBeenCalledTimes(2);
  });
});
