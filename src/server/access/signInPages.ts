// The sign-in pages the API serves itself: the password page and the second step (an
// authenticator's code, a backup code or a passkey), with the small script the passkey buttons
// run and the WebAuthn browser helper it uses, both served from here so the pages load nothing
// from elsewhere.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { escapeHtml, htmlPage } from '../http/html.ts';
import type { ApiRouter, Ctx } from '../http/router.ts';

const SCRIPTS = {
  '/login/webauthn.js': () =>
    readFileSync(
      join(
        dirname(createRequire(import.meta.url).resolve('@simplewebauthn/browser')),
        '../dist/bundle/index.umd.min.js',
      ),
      'utf8',
    ),
  '/login/passkey.js': () => readFileSync(new URL('./passkeySignIn.js', import.meta.url), 'utf8'),
};

/** The passkey button of a page, and the scripts it runs. */
function passkeyButton(flowId: string, label: string): string {
  return `<button type="button" class="secondary" data-passkey-flow="${escapeHtml(flowId)}">${escapeHtml(label)}</button>
<p id="passkey-error" class="error" role="alert"></p>
${Object.keys(SCRIPTS)
  .map((p) => `<script src="/v4${p}"></script>`)
  .join('')}`;
}

const errorLine = (error: string) => (error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : '');

export function signInPage(
  c: Ctx,
  flowId: string,
  email = '',
  error = '',
  status = error ? 401 : 200,
): Response {
  return htmlPage(
    c,
    'Sign in to Palisade',
    `<h1>Sign in to Palisade</h1>${errorLine(error)}
<form method="post" action="/v4/login/signin">
<input type="hidden" name="flow_id" value="${escapeHtml(flowId)}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username webauthn" required value="${escapeHtml(email)}"${email ? '' : ' autofocus'}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${email ? ' autofocus' : ''}>
<button type="submit">Sign in</button>
</form>
${passkeyButton(flowId, 'Sign in with a passkey')}`,
    status,
    { scripts: true },
  );
}

/** The second step: the code field always (a backup code works for any account), a passkey button when it has one. */
export function secondFactorPage(
  c: Ctx,
  flowId: string,
  has: { passkey: boolean },
  error = '',
  status = error ? 401 : 200,
): Response {
  return htmlPage(
    c,
    'Two-factor sign-in',
    `<h1>Two-factor sign-in</h1>${errorLine(error)}
<form method="post" action="/v4/login/second">
<input type="hidden" name="flow_id" value="${escapeHtml(flowId)}">
<label for="code">Code from your authenticator app, or a backup code</label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" required autofocus>
<button type="submit">Sign in</button>
</form>
${has.passkey ? passkeyButton(flowId, 'Use a passkey instead') : ''}`,
    status,
    has.passkey ? { scripts: true } : {},
  );
}

/** Serves the pages' scripts, read once. */
export function registerSignInScripts(router: ApiRouter): void {
  for (const [path, read] of Object.entries(SCRIPTS)) {
    const text = read();
    router.open('GET', path, (c) => {
      c.header('Content-Type', 'text/javascript; charset=utf-8');
      c.header('Cache-Control', 'public, max-age=3600');
      return c.body(text);
    });
  }
}
