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

const STYLE = `
  body{font:16px/1.5 system-ui,sans-serif;background:#16121c;color:#ece8f0;display:grid;place-items:center;min-height:100vh;margin:0}
  main{background:#221c2b;padding:2rem;border-radius:8px;width:min(22rem,90vw)}
  h1{font-size:1.25rem;margin:0 0 1rem}
  label{display:block;margin:.75rem 0 .25rem}
  input{box-sizing:border-box;width:100%;padding:.5rem;border-radius:4px;border:1px solid #5a4d68;background:#16121c;color:inherit;font:inherit}
  input:focus,button:focus{outline:2px solid #c77dd6;outline-offset:2px}
  button{margin-top:1.25rem;width:100%;padding:.6rem;border:0;border-radius:4px;background:#9c0fb0;color:#fff;font:inherit;cursor:pointer}
  .error{color:#ff8a8a;margin:.5rem 0}
  p.small{font-size:.875rem;color:#b8aec4}`;

/** Trusted markup only in `body`: callers build it with escapeHtml. */
export function htmlPage(c: Ctx, title: string, body: string, status = 200): Response {
  c.header(
    'Content-Security-Policy',
    "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'",
  );
  c.header('X-Frame-Options', 'DENY');
  c.header('Cache-Control', 'no-store');
  return c.html(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`,
    status as 200,
  );
}
