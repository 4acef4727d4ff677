import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/web/auth/config.ts';

const fileFetch = (status: number, body: string) =>
  (async () => new Response(body, { status })) as typeof fetch;
const offline = (async () => {
  throw new TypeError('Failed to fetch');
}) as typeof fetch;

const ENV = {
  PALISADE_API_URL: 'http://localhost:8080',
  PALISADE_CLIENT_ID: 'env-client',
  PALISADE_PUSHER_KEY: 'env-key',
  PALISADE_PUSHER_HOST: 'localhost',
  PALISADE_PUSHER_PORT: '6001',
};

describe('runtime config', () => {
  it('reads /config.json and completes what it leaves out', async () => {
    const file = JSON.stringify({
      apiUrl: 'https://api.example.com/v4/',
      clientId: 'c1',
      pusher: { key: 'k', cluster: 'eu' },
    });
    expect(await loadConfig(fileFetch(200, file), {})).toEqual({
      apiUrl: 'https://api.example.com/v4',
      clientId: 'c1',
      pusher: { key: 'k', cluster: 'eu', forceTLS: true },
      controlPanelUrl: 'https://api.example.com/account',
      plannerUrl: 'https://usebeacon.app/',
    });
  });

  it('falls back to the PALISADE_* variables when the file is missing or is the dev server’s index.html', async () => {
    const expected = {
      apiUrl: 'http://localhost:8080/v4',
      clientId: 'env-client',
      pusher: { key: 'env-key', cluster: 'mt1', wsHost: 'localhost', wsPort: 6001, forceTLS: false },
      controlPanelUrl: 'http://localhost:8080/account',
      plannerUrl: 'https://usebeacon.app/',
    };
    expect(await loadConfig(fileFetch(404, 'Not found'), ENV)).toEqual(expected);
    expect(await loadConfig(fileFetch(200, '<!doctype html>'), ENV)).toEqual(expected);
    expect(await loadConfig(offline, ENV)).toEqual(expected);
  });

  it('prefers the file field by field', async () => {
    const file = JSON.stringify({ clientId: 'file-client', pusher: { forceTLS: true } });
    const config = await loadConfig(fileFetch(200, file), ENV);
    expect(config.clientId).toBe('file-client');
    expect(config.apiUrl).toBe('http://localhost:8080/v4');
    expect(config.pusher).toMatchObject({ key: 'env-key', wsPort: 6001, forceTLS: true });
  });

  it('says what is missing when neither source configures the console', async () => {
    const e = await loadConfig(fileFetch(404, ''), {}).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(ConfigError);
    expect((e as Error).message).toMatch(
      /apiUrl \(PALISADE_API_URL\).*clientId.*pusher\.key.*\/config\.json/,
    );
  });

  it('rejects an API address that is not an http(s) URL and a port that is not a port', async () => {
    await expect(loadConfig(offline, { ...ENV, PALISADE_API_URL: 'ftp://x' })).rejects.toThrow(
      /https or http/,
    );
    await expect(loadConfig(offline, { ...ENV, PALISADE_API_URL: 'nope' })).rejects.toThrow(/not a URL/);
    await expect(loadConfig(offline, { ...ENV, PALISADE_PUSHER_PORT: '70000' })).rejects.toThrow(/port/);
  });
});
