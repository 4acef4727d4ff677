// The built console (dist/) with an SPA fallback, and /config.json, the console's runtime
// configuration derived from this server's own address.

import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';
import type { Hono } from 'hono';
import type { ServerConfig } from '../context.ts';
import { API_PREFIX, type Env, isJsonPath } from '../http/router.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.map': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

export function consoleConfig(config: ServerConfig) {
  return {
    apiUrl: `${config.publicUrl}${API_PREFIX}`,
    clientId: config.clientId,
    pusher: config.pusher.client,
    controlPanelUrl: config.controlPanelUrl,
    ...config.siteLinks,
  };
}

/**
 * The console's page policy. Tokens live in localStorage, so a script injected into the page could
 * take a 30-day refresh token: scripts come only from our own files. Styles may be inline: xterm.js
 * writes its theme and cell sizes into <style> elements it creates (no nonce possible), and a
 * style cannot run script. Connections go to this server and the realtime endpoint only.
 */
export function consolePolicy(config: ServerConfig): string {
  const { wsHost, wsPort, forceTLS } = config.pusher.client;
  const realtime = `${wsHost}:${wsPort}`;
  const connect = [
    "'self'",
    new URL(config.publicUrl).origin,
    `${forceTLS ? 'wss' : 'ws'}://${realtime}`,
    `${forceTLS ? 'https' : 'http'}://${realtime}`,
  ];
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    `connect-src ${[...new Set(connect)].join(' ')}`,
    "frame-ancestors 'none'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join('; ');
}

/** On every file and page the console is made of. */
const FILE_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  // The /oauth page's address carries the authorization code: never send it on.
  'Referrer-Policy': 'no-referrer',
};

async function fileAt(root: string, urlPath: string): Promise<string | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  const full = resolve(root, `.${normalize(`/${decoded}`)}`);
  if (!full.startsWith(root)) return null;
  try {
    return (await stat(full)).isFile() ? full : null;
  } catch {
    return null;
  }
}

export function registerConsoleRoutes(app: Hono<Env>, config: ServerConfig, staticDir: string): void {
  const root = resolve(staticDir);

  app.get('/config.json', (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(consoleConfig(config));
  });

  const policy = consolePolicy(config);
  app.get('*', async (c, next) => {
    const path = c.req.path;
    if (isJsonPath(path)) return next();
    const file = (await fileAt(root, path)) ?? (await fileAt(root, 'index.html'));
    if (!file) return next();
    const isIndex = file === join(root, 'index.html');
    for (const [k, v] of Object.entries(FILE_HEADERS)) c.header(k, v);
    if (extname(file) === '.html') {
      c.header('Content-Security-Policy', policy);
      c.header('X-Frame-Options', 'DENY');
    }
    // Hashed assets never change; the index must always be fresh to pick up new builds.
    c.header(
      'Cache-Control',
      path.startsWith('/assets/') && !isIndex ? 'public, max-age=31536000, immutable' : 'no-cache',
    );
    c.header('Content-Type', TYPES[extname(file)] ?? 'application/octet-stream');
    return c.body(await readFile(file));
  });
}
