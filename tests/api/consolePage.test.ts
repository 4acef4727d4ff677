// The built console as the server sends it: security headers on its page and files, and JSON
// (never the page) for unknown API and /.well-known paths.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
let dist: string;
beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'palisade-dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Palisade</title><div id="root"></div>');
  writeFileSync(join(dist, 'assets', 'index-abc.js'), 'console.log(1)');
  t = await startTestServer({ staticDir: dist });
});
afterAll(async () => {
  await t?.close();
  rmSync(dist, { recursive: true, force: true });
});

/** The directives of a Content-Security-Policy header, by name. */
const directives = (csp: string | null) =>
  Object.fromEntries(
    (csp ?? '').split(';').map((d) => {
      const [name, ...values] = d.trim().split(/\s+/);
      return [name, values];
    }),
  );

describe('the console page', () => {
  it('carries a strict policy, no framing, nosniff and no referrer', async () => {
    for (const path of ['/', '/servers/abc/setup', '/oauth?code=x&state=y']) {
      const res = await fetch(`${t.server.url}${path}`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('<div id="root">');
      const csp = directives(res.headers.get('content-security-policy'));
      expect(csp['script-src']).toEqual(["'self'"]);
      expect(csp['object-src']).toEqual(["'none'"]);
      expect(csp['frame-ancestors']).toEqual(["'none'"]);
      expect(csp['base-uri']).toEqual(["'self'"]);
      expect(csp['default-src']).toEqual(["'self'"]);
      expect(csp['connect-src']).toEqual(
        expect.arrayContaining(["'self'", t.server.url, t.server.url.replace('http', 'ws')]),
      );
      expect(Object.values(csp).flat()).not.toContain("'unsafe-eval'");
      expect(csp['script-src']).not.toContain("'unsafe-inline'");
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    }
  });

  it('sends its files with nosniff and no referrer', async () => {
    const res = await fetch(`${t.server.url}/assets/index-abc.js`);
    expect(res.headers.get('content-type')).toContain('text/javascript');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('answers unknown /v4 and /.well-known paths with a JSON 404, not the page', async () => {
    for (const path of ['/v4/no/such/thing', '/.well-known/openid-configuration', '/.well-known/x/y']) {
      const res = await fetch(`${t.server.url}${path}`);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type'), path).toContain('application/json');
      expect((await res.json()).type, path).toBe('beacon.error');
    }
  });
});
