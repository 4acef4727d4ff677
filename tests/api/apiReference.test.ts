// GET /v4/apiReference: made from the router's own routes, so it lists every one; and the public
// site's configurable links in /config.json.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiReference } from '../../src/domain/apiReference.ts';
import { SITE_LINK_DEFAULTS } from '../../src/domain/siteLinks.ts';
import { createServer } from '../../src/server/app.ts';
import { staleNotes } from '../../src/server/http/routeReference.ts';
import { startTestServer, type TestServer, testDatabaseUrl } from './helpers.ts';

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
const LINKS = {
  devBlogUrl: 'https://blog.example.com/',
  supportUrl: 'mailto:help@example.com',
  communityChatUrl: 'https://chat.example.com/invite',
};

let t: TestServer;
let reference: ApiReference;

beforeAll(async () => {
  t = await startTestServer({ siteLinks: LINKS });
  const res = await fetch(`${t.base}/apiReference`);
  expect(res.status).toBe(200);
  reference = (await res.json()) as ApiReference;
});
afterAll(() => t?.close());

const key = (r: { method: string; path: string }) => `${r.method} ${r.path}`;

describe('the API reference', () => {
  it('lists every route the server answers under /v4, once, without a token', () => {
    // Hono's own table of what it answers: a route added any way at all shows up here.
    const answered = t.server.app.routes
      .filter((r) => METHODS.has(r.method) && r.path.startsWith('/v4/'))
      .map(key);
    expect(answered.length).toBeGreaterThan(150);
    const listed = reference.routes.map(key);
    expect(answered.filter((r) => !listed.includes(r))).toEqual([]);
    expect(listed.filter((r) => !answered.includes(r))).toEqual([]);
    expect(new Set(listed).size).toBe(listed.length);
  });

  it('says who may call each route and what it does', () => {
    const find = (method: string, path: string) =>
      reference.routes.find((r) => key(r) === `${method} ${path}`);
    expect(find('GET', '/v4/sentinel/services')).toEqual({
      method: 'GET',
      path: '/v4/sentinel/services',
      access: 'token',
      scopes: ['common', 'sentinel:read'],
      topic: 'Services',
      description: 'Lists services, paged, filtered and sorted by the query.',
    });
    expect(find('DELETE', '/v4/sentinel/groupUsers/:id')?.description).toBe('Deletes one group user.');
    expect(find('POST', '/v4/login')).toMatchObject({ access: 'open', scopes: [], topic: 'Sign-in' });
    expect(find('POST', '/v4/sentinel/services/:id/webhook')?.access).toBe('open');
    expect(find('GET', '/v4/apiReference')?.description).toBe('This reference: every route of the API.');
    const undescribed = reference.routes.filter((r) => r.description.trim() === '').map(key);
    expect(undescribed, 'add a line for each to NOTES in src/server/http/routeReference.ts').toEqual([]);
  });

  it('has no description left for a route that is gone', () => {
    expect(staleNotes(reference.routes)).toEqual([]);
    expect(staleNotes(reference.routes.filter((r) => r.path !== '/v4/login/revoke'))).toEqual([
      'POST /login/revoke',
    ]);
  });
});

describe('the site links', () => {
  it('serves the configured links in /config.json, and leaves the others to the console', async () => {
    const config = await (await fetch(`${t.server.url}/config.json`)).json();
    expect(config).toMatchObject(LINKS);
    expect(config).not.toHaveProperty('plannerUrl');
    expect(SITE_LINK_DEFAULTS.plannerUrl).toMatch(/^https:/);
  });

  it('refuses to start with a link that could not be followed', async () => {
    await expect(
      createServer({
        databaseUrl: testDatabaseUrl(),
        staticDir: '/nonexistent',
        siteLinks: { supportUrl: 'javascript:alert(1)' },
      }),
    ).rejects.toThrow(
      'supportUrl (PALISADE_SUPPORT_URL) "javascript:alert(1)" must be an https, http or mailto address.',
    );
    await expect(
      createServer({
        databaseUrl: testDatabaseUrl(),
        staticDir: '/nonexistent',
        siteLinks: { devBlogUrl: 'blog' },
      }),
    ).rejects.toThrow('devBlogUrl (PALISADE_DEV_BLOG_URL) "blog" is not a URL.');
  });
});
