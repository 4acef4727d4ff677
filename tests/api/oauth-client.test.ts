// A standard OAuth client against the real server: oauth4webapi (an OpenID-certified client
// library, strict about RFC 6749, 7009, 8414, 9207 and OAuth 2.1) drives discovery, sign-in with
// the authorization code and PKCE, refresh and revocation. The only concession is
// allowInsecureRequests: the test server speaks plain HTTP on the loopback address.

import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_APP_ID } from '../../src/server/model/application.ts';
import { CONSOLE_SCOPE, DEMO, flowIdOf, REDIRECT, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

const insecure = { [oauth.allowInsecureRequests]: true };
const client: oauth.Client = { client_id: CONSOLE_APP_ID };
const clientAuth = oauth.None();

async function discover(): Promise<oauth.AuthorizationServer> {
  const issuer = new URL(t.server.url);
  return oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
  );
}

/** The browser's part: open the authorization URL, post the sign-in form, follow to the callback. */
async function browserSignIn(authorizationUrl: URL): Promise<URL> {
  const page = await fetch(authorizationUrl);
  expect(page.status).toBe(200);
  const html = await page.text();
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  expect(action).toBeDefined();
  const posted = await fetch(new URL(action!, authorizationUrl), {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Origin: t.server.url,
      'Sec-Fetch-Site': 'same-origin',
    },
    body: new URLSearchParams({ flow_id: flowIdOf(html), email: DEMO.email, password: DEMO.password }),
  });
  expect(posted.status).toBe(302);
  return new URL(posted.headers.get('location')!);
}

async function signIn(as: oauth.AuthorizationServer) {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({
    client_id: client.client_id,
    redirect_uri: REDIRECT,
    response_type: 'code',
    scope: CONSOLE_SCOPE,
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  }).toString();
  const callback = await browserSignIn(url);
  // Checks state, and iss against the issuer (the metadata announces RFC 9207).
  const params = oauth.validateAuthResponse(as, client, callback, state);
  const response = await oauth.authorizationCodeGrantRequest(
    as,
    client,
    clientAuth,
    params,
    REDIRECT,
    verifier,
    insecure,
  );
  return oauth.processAuthorizationCodeResponse(as, client, response);
}

const userWith = (accessToken: string) =>
  oauth.protectedResourceRequest(
    accessToken,
    'GET',
    new URL(`${t.base}/user`),
    undefined,
    undefined,
    insecure,
  );

/** A dead access token: the library reads the server's RFC 6750 challenge. */
const refused = (accessToken: string) =>
  expect(userWith(accessToken)).rejects.toMatchObject({
    status: 401,
    cause: [{ scheme: 'bearer', parameters: { error: 'invalid_token' } }],
  });

describe('oauth4webapi against the server', () => {
  it('discovers the server, signs in with code + PKCE, refreshes and revokes', async () => {
    const as = await discover();
    expect(as.issuer).toBe(t.server.url);

    const first = await signIn(as);
    expect(first.token_type).toBe('bearer');
    expect(first.expires_in).toBeGreaterThan(3500);
    expect(first.scope).toBe(CONSOLE_SCOPE.split(' ').sort().join(' '));
    const me = await userWith(first.access_token);
    expect(me.status).toBe(200);
    expect((await me.json()).email).toBe(DEMO.email);

    // Refresh without `scope`: the same scopes, a new pair.
    const second = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, clientAuth, first.refresh_token!, insecure),
    );
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.scope).toBe(first.scope);
    await refused(first.access_token);
    expect((await userWith(second.access_token)).status).toBe(200);

    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, client, clientAuth, second.refresh_token!, insecure),
    );
    await refused(second.access_token);

    // The revoked refresh token is refused the standard way.
    const again = oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, clientAuth, second.refresh_token!, insecure),
    );
    await expect(again).rejects.toMatchObject({ error: 'invalid_grant', status: 400 });
  });
});
