// The few HTML pages the API serves itself (sign-in, policy acceptance): self-contained, no
// external assets, every interpolated value escaped.

import type { Ctx } from './router.ts';

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (ch) => ENTITIES[ch]);

/**
 * The console's own colours (src/web/app/theme.css), light or dark as the system says: the
 * console starts by following the system, and a sign-in in another theme looked like another
 * product.
 */
const STYLE = `
  :root{--bg:#f6f5f8;--raised:#fff;--fg:#1d1b22;--muted:#615d6a;--border:#8d8698;--danger:#b72525;--focus:#9c0fb0;--link:#9c0fb0;--secondary:#5d5168;color-scheme:light}
  @media (prefers-color-scheme:dark){:root{--bg:#141218;--raised:#24212b;--fg:#e8e4ee;--muted:#a29dad;--border:#5a4d68;--danger:#f17d7d;--focus:#d27be2;--link:#e0a8ea;--secondary:#4a3d58;color-scheme:dark}}
  body{font:16px/1.5 system-ui,sans-serif;background:var(--bg);color:var(--fg);display:grid;place-items:center;min-height:100vh;margin:0}
  main{background:var(--raised);padding:2rem;border-radius:8px;border:1px solid var(--border);width:min(22rem,90vw)}
  h1{font-size:1.25rem;margin:0 0 1rem}
  label{display:block;margin:.75rem 0 .25rem}
  input{box-sizing:border-box;width:100%;padding:.5rem;border-radius:4px;border:1px solid var(--border);background:var(--bg);color:inherit;font:inherit}
  input:focus,button:focus{outline:2px solid var(--focus);outline-offset:2px}
  button{margin-top:1.25rem;width:100%;padding:.6rem;border:0;border-radius:4px;background:#9c0fb0;color:#fff;font:inherit;cursor:pointer}
  button.secondary{background:var(--secondary)}
  .error{color:var(--danger);margin:.5rem 0}
  p.small{font-size:.875rem;color:var(--muted)}`;

/**
 * Trusted markup only in `body`: callers build it with escapeHtml. `scripts`: the page runs our
 * own scripts (the sign-in pages' passkey button), and they may call back to us; nothing inline.
 */
export function htmlPage(
  c: Ctx,
  title: string,
  body: string,
  status = 200,
  opts: { scripts?: boolean } = {},
): Response {
  const scripts = opts.scripts ? " script-src 'self'; connect-src 'self';" : '';
  c.header(
    'Content-Security-Policy',
    `default-src 'none';${scripts} style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'`,
  );
  c.header('X-Frame-Options', 'DENY');
  c.header('Cache-Control', 'no-store');
  return c.html(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`,
    status as 200,
  );
}
