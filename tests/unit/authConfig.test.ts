import { describe, expect, it } from 'vitest';
import { SITE_LINK_DEFAULTS } from '../../src/domain/siteLinks.ts';
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
      ...SITE_LINK_DEFAULTS,
    });
  });

  it('falls back to the PALISADE_* variables when the file is missing or is the dev server’s index.html', async () => {
    const expected = {
      apiUrl: 'http://localhost:8080/v4',
      clientId: 'env-client',
      pusher: { key: 'env-key', cluster: 'mt1', wsHost: 'localhost', wsPort: 6001, forceTLS: false },
      controlPanelUrl: 'http://localhost:8080/account',
      ...SITE_LINK_DEFAULTS,
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

  it('takes each site link from the file, else the build, else the provider’s page', async () => {
    const file = JSON.stringify({ devBlogUrl: 'https://blog.example.com/', supportUrl: '' });
    const config = await loadConfig(fileFetch(200, file), {
      ...ENV,
      PALISADE_SUPPORT_URL: 'mailto:help@example.com',
      PALISADE_DEV_BLOG_URL: 'https://not-this.example.com/',
    });
    expect(config).toMatchObject({
      devBlogUrl: 'https://blog.example.com/',
      supportUrl: 'mailto:help@example.com',
      communityChatUrl: SITE_LINK_DEFAULTS.communityChatUrl,
      plannerUrl: SITE_LINK_DEFAULTS.plannerUrl,
    });
  });

  it('refuses a site link a visitor could not follow', async () => {
    const file = JSON.stringify({ communityChatUrl: 'javascript:alert(1)' });
    await expect(loadConfig(fileFetch(200, file), ENV)).rejects.toThrow(
      'communityChatUrl (PALISADE_COMMUNITY_CHAT_URL) "javascript:alert(1)" must be an https, http or mailto address.',
    );
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
