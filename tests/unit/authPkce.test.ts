import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { NIL_DEVICE_ID, UUID } from '../../src/domain/constants.ts';
import { DEVICE_ID_KEY, ensureDeviceId, readDeviceId } from '../../src/web/auth/deviceId.ts';
import { base64url, challengeFor, createVerifier, randomState } from '../../src/web/auth/pkce.ts';
import { memoryStorage } from '../../src/web/auth/storage.ts';

const BASE64URL = /^[A-Za-z0-9_-]+$/;

describe('PKCE', () => {
  it('makes a 128-character base64url verifier from 96 random bytes, different each time', () => {
    const a = createVerifier();
    expect(a).toHaveLength(128);
    expect(a).toMatch(BASE64URL);
    expect(createVerifier()).not.toBe(a);
  });

  it('derives the challenge as base64url(SHA-256(verifier)), 43 characters', async () => {
    // SHA-256('abc') is the FIPS 180-2 vector ba7816bf…15ad; the empty string's challenge is the one
    // SENTINEL-API §4 says the provider rejects.
    expect(await challengeFor('abc')).toBe('ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0');
    expect(await challengeFor('')).toBe('47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU');
    const verifier = createVerifier();
    const challenge = await challengeFor(verifier);
    expect(challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(challenge).toBe(createHash('sha256').update(verifier).digest('base64url'));
  });

  it('encodes without padding and with the URL-safe alphabet', () => {
    expect(base64url(new Uint8Array([0xfb, 0xff]))).toBe('-_8');
  });

  it('makes random states', () => {
    const s = randomState();
    expect(s).toMatch(BASE64URL);
    expect(s.length).toBeGreaterThanOrEqual(43);
    expect(randomState()).not.toBe(s);
  });
});

describe('device id', () => {
  it('is the nil id until one is made, then the same UUID every time', () => {
    const storage = memoryStorage();
    expect(readDeviceId(storage)).toBe(NIL_DEVICE_ID);
    const id = ensureDeviceId(storage);
    expect(id).toMatch(UUID);
    expect(ensureDeviceId(storage)).toBe(id);
    expect(readDeviceId(storage)).toBe(id);
    expect(storage.getItem(DEVICE_ID_KEY)).toBe(id);
  });

  it('replaces a damaged stored id', () => {
    const storage = memoryStorage();
    storage.setItem(DEVICE_ID_KEY, 'not-a-uuid');
    expect(readDeviceId(storage)).toBe(NIL_DEVICE_ID);
    expect(ensureDeviceId(storage)).toMatch(UUID);
  });
});
