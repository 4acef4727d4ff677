// Access for teams: two-factor sign-in (checked against RFC 6238's reference vectors and an
// authenticator written here from RFC 4226, not our library), a group's two-factor requirement,
// role templates, scoped API tokens and signed-in devices.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_ROLES } from '../../src/domain/access.ts';
import { totpStep } from '../../src/server/access/secondFactor.ts';
import { CONSOLE_APP_ID } from '../../src/server/model/application.ts';
import {
  authorizeUrl,
  call,
  DEMO,
  flowIdOf,
  REDIRECT,
  signIn,
  signInStranger,
  startTestServer,
  submitSignIn,
  type TestServer,
  verifierAndChallenge,
} from './helpers.ts';
import { authenticatorCode } from './peers/authenticator.ts';

/** Signs in through the pages; `code` answers the second step when one is asked. */
async function signInWith(base: string, email: string, password: string, code?: () => string) {
  const { verifier, challenge } = verifierAndChallenge();
  const page = await (await fetch(authorizeUrl(base, {}, challenge))).text();
  let res = await submitSignIn(base, flowIdOf(page), email, password);
  const second = res.status === 200 ? await res.text() : '';
  if (second.includes('/v4/login/second')) {
    if (!code) return { res, second };
    res = await fetch(`${base}/login/second`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ flow_id: flowIdOf(second), code: code() }),
    });
  }
  const redirect = new URL(res.headers.get('location') ?? 'http://x/').searchParams.get('code');
  if (!redirect) return { res, second: res.status === 200 || res.status >= 400 ? await res.text() : '' };
  const token = await call(base, null, 'POST', '/login', {
    grant_type: 'authorization_code',
    client_id: CONSOLE_APP_ID,
    code: redirect,
    redirect_uri: REDIRECT,
    code_verifier: verifier,
  });
  return { res, token: token.body.access_token as string };
}

let t: TestServer;
let owner: string;
let moderator: string;

beforeAll(async () => {
  t = await startTestServer();
  owner = (await signIn(t.base)).access_token;
  moderator = (await signIn(t.base, t.demo.moderator.email, t.demo.moderator.password)).access_token;
});
afterAll(() => t.close());

describe('TOTP', () => {
  // RFC 6238 Appendix B, SHA-1 (the 8-digit values; an app shows their last 6 digits).
  const SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ'; // "12345678901234567890"
  it.each([
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ])('accepts the reference code at T=%i', (seconds, code) => {
    expect(totpStep(SECRET, code.slice(2), seconds * 1000)).toBe(Math.floor(seconds / 30));
    expect(authenticatorCode(SECRET, seconds * 1000)).toBe(code.slice(2));
  });

  it('accepts one step either side and no further, and only six digits', () => {
    const now = 1_700_000_000_000;
    const step = Math.floor(now / 30_000);
    expect(totpStep(SECRET, authenticatorCode(SECRET, now, -1), now)).toBe(step - 1);
    expect(totpStep(SECRET, authenticatorCode(SECRET, now, 1), now)).toBe(step + 1);
    expect(totpStep(SECRET, authenticatorCode(SECRET, now, 2), now)).toBeNull();
    expect(totpStep(SECRET, ` ${authenticatorCode(SECRET, now)}`, now)).toBeNull();
  });
});

describe('two-factor sign-in', () => {
  const email = 'twofactor@palisade.local';
  let token: string;
  let secret: string;
  let backupCodes: string[];
  let usedStep = 0;
  /** A code of a step not used yet: each is good once. */
  const freshCode = () => {
    const now = Date.now();
    const step = Math.max(Math.floor(now / 30_000) - 1, usedStep + 1);
    usedStep = step;
    return authenticatorCode(secret, step * 30_000);
  };

  beforeAll(async () => {
    const { hashPassword } = await import('../../src/server/crypto.ts');
    await t.server.db.query(`INSERT INTO users (username, email, password_hash) VALUES ('Two', $1, $2)`, [
      email,
      await hashPassword('two-factor-pass'),
    ]);
    token = (await signIn(t.base, email, 'two-factor-pass')).access_token;
  });

  it('is set up by confirming a code, which hands out backup codes and ends the other sign-ins', async () => {
    const other = (await signIn(t.base, email, 'two-factor-pass')).access_token;
    const started = await call(t.base, token, 'POST', '/sentinel/account/totp');
    expect(started.status).toBe(201);
    secret = started.body.secret;
    expect(started.body.uri).toMatch(/^otpauth:\/\/totp\/Palisade:twofactor%40palisade\.local\?.*secret=/);
    // A session alone (a stolen one) cannot turn it on: the password is asked again.
    const code = authenticatorCode(secret);
    const bare = await call(t.base, token, 'POST', '/sentinel/account/totp/confirm', { code });
    expect(bare.body).toMatchObject({ code: 'passwordMissing', details: { field: 'password' } });
    const guessed = await call(t.base, token, 'POST', '/sentinel/account/totp/confirm', {
      code,
      password: 'guess',
    });
    expect(guessed.body).toMatchObject({ code: 'passwordWrong' });
    const wrong = await call(t.base, token, 'POST', '/sentinel/account/totp/confirm', {
      code: '000000',
      password: 'two-factor-pass',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toMatch(/not right/);
    const ok = await call(t.base, token, 'POST', '/sentinel/account/totp/confirm', {
      code: freshCode(),
      password: 'two-factor-pass',
    });
    expect(ok.status).toBe(200);
    backupCodes = ok.body.backupCodes;
    expect(backupCodes).toHaveLength(10);
    expect(new Set(backupCodes).size).toBe(10);
    expect(ok.body.signedOut).toBe(1);
    expect((await call(t.base, other, 'GET', '/users/me')).status).toBe(401);
    expect((await call(t.base, token, 'GET', '/users/me')).status).toBe(200);
    const security = await call(t.base, token, 'GET', '/sentinel/account/security');
    expect(security.body).toMatchObject({ totp: true, backupCodesLeft: 10 });
    // Setting up again is refused while it is on.
    expect((await call(t.base, token, 'POST', '/sentinel/account/totp')).status).toBe(409);
  });

  it('asks for the second factor after the password, and takes each code once', async () => {
    const asked = await signInWith(t.base, email, 'two-factor-pass');
    expect(asked.second).toContain('autocomplete="one-time-code"');
    const code = freshCode();
    const signedIn = await signInWith(t.base, email, 'two-factor-pass', () => code);
    expect(signedIn.token).toBeTruthy();
    const replay = await signInWith(t.base, email, 'two-factor-pass', () => code);
    expect(replay.token).toBeUndefined();
    expect(replay.second).toMatch(/not right/);
    const devices = await call(t.base, signedIn.token ?? '', 'GET', '/sentinel/account/signIns');
    expect(devices.body.results[0]).toMatchObject({ current: true, method: 'password+totp' });
  });

  it('takes a backup code once, in place of the authenticator', async () => {
    const first = await signInWith(t.base, email, 'two-factor-pass', () => backupCodes[0].toUpperCase());
    expect(first.token).toBeTruthy();
    const again = await signInWith(t.base, email, 'two-factor-pass', () => backupCodes[0]);
    expect(again.token).toBeUndefined();
    const security = await call(t.base, first.token ?? '', 'GET', '/sentinel/account/security');
    expect(security.body.backupCodesLeft).toBe(9);
  });

  it('makes a guesser wait after five wrong codes, even with the right one', async () => {
    let last: Awaited<ReturnType<typeof signInWith>> | undefined;
    for (let i = 0; i < 6; i++) last = await signInWith(t.base, email, 'two-factor-pass', () => '123456');
    expect(last?.res.status).toBe(429);
    const right = await signInWith(t.base, email, 'two-factor-pass', freshCode);
    expect(right.res.status).toBe(429);
    expect(right.second).toMatch(/Too many wrong codes/);
    await t.server.db.query("DELETE FROM sign_in_failures WHERE email LIKE 'second-factor:%'");
  });

  it('records sign-ins and failed attempts in the account’s trail', async () => {
    await signInWith(t.base, email, 'wrong-password');
    const trail = await call(t.base, token, 'GET', '/sentinel/activity?pageSize=50');
    const actions = trail.body.results.map((e: { action: string }) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['sign in', 'wrong password', 'wrong code', 'turn on']));
    // No code or secret is ever copied into the trail.
    expect(JSON.stringify(trail.body)).not.toContain(backupCodes[1]);
  });

  it('is turned off only with a code', async () => {
    expect((await call(t.base, token, 'DELETE', '/sentinel/account/totp', { code: '' })).status).toBe(400);
    const off = await call(t.base, token, 'DELETE', '/sentinel/account/totp', { code: backupCodes[2] });
    expect(off.status).toBe(204);
    const plain = await signInWith(t.base, email, 'two-factor-pass');
    expect(plain.token).toBeTruthy();
  });
});

describe('a group requiring two-factor sign-in', () => {
  const service = () => t.demo.servers[0].serviceId;

  it('leaves a member without it read only, and says why', async () => {
    const before = await call(t.base, moderator, 'GET', `/sentinel/services/${service()}`);
    expect(before.body.permissions).toBe(3);
    const set = await call(t.base, owner, 'PATCH', `/sentinel/groups/${t.demo.groupId}`, {
      requireTwoFactor: true,
    });
    expect(set.status).toBe(200);
    const after = await call(t.base, moderator, 'GET', `/sentinel/services/${service()}`);
    expect(after.body.permissions).toBe(1);
    const members = await call(t.base, owner, 'GET', `/sentinel/groupUsers?groupId=${t.demo.groupId}`);
    expect(members.body.results[0]).toMatchObject({ readOnlyUntilTwoFactor: true });
    const security = await call(t.base, moderator, 'GET', '/sentinel/account/security');
    expect(security.body.requiredBy).toEqual([expect.objectContaining({ groupId: t.demo.groupId })]);
    const access = await call(t.base, moderator, 'GET', `/sentinel/services/${service()}/access`);
    expect(access.body.sources).toEqual([
      expect.objectContaining({ kind: 'member', readOnlyUntilTwoFactor: true, bits: 1, memberBits: 3 }),
    ]);
  });

  it('gives the member’s bits back once they turn it on', async () => {
    const started = await call(t.base, moderator, 'POST', '/sentinel/account/totp');
    const code = authenticatorCode(started.body.secret);
    const on = await call(t.base, moderator, 'POST', '/sentinel/account/totp/confirm', {
      code,
      password: t.demo.moderator.password,
    });
    expect(on.status).toBe(200);
    const after = await call(t.base, moderator, 'GET', `/sentinel/services/${service()}`);
    expect(after.body.permissions).toBe(3);
    await call(t.base, owner, 'PATCH', `/sentinel/groups/${t.demo.groupId}`, { requireTwoFactor: false });
  });
});

describe('roles', () => {
  const group = () => t.demo.groupId;
  let roleId: string;
  const memberRow = async () =>
    (await call(t.base, owner, 'GET', `/sentinel/groupUsers?groupId=${group()}`)).body.results[0];

  it('lists the built-in roles and the group’s own', async () => {
    const made = await call(t.base, owner, 'POST', '/sentinel/groupRoles', {
      groupId: group(),
      name: 'Helper',
      permissions: 1 | 2 | 64,
    });
    expect(made.status).toBe(200);
    roleId = made.body.created[0].roleId;
    const list = await call(t.base, owner, 'GET', `/sentinel/groupRoles?groupId=${group()}`);
    expect(list.body.results.map((r: { name: string }) => r.name).sort()).toEqual(
      [...BUILT_IN_ROLES.map((r) => r.name), 'Helper'].sort(),
    );
    const dup = await call(t.base, owner, 'POST', '/sentinel/groupRoles', {
      groupId: group(),
      name: 'helper',
      permissions: 1,
    });
    expect(dup.status).toBe(400);
  });

  it('gives its holders its bits, and a change of the role reaches them at once', async () => {
    const assigned = await call(
      t.base,
      owner,
      'PATCH',
      `/sentinel/groupUsers/${(await memberRow()).groupUserId}`,
      {
        roleId,
      },
    );
    expect(assigned.status).toBe(200);
    expect(await memberRow()).toMatchObject({ roleId, roleName: 'Helper', permissions: 67 });
    await call(t.base, owner, 'PATCH', `/sentinel/groupRoles/${roleId}`, { permissions: 1 | 2 });
    expect((await memberRow()).permissions).toBe(3);
    const access = await call(
      t.base,
      owner,
      'GET',
      `/sentinel/services/${t.demo.servers[0].serviceId}/access?userId=${t.demo.moderator.userId}`,
    );
    expect(access.body).toMatchObject({ permissions: 3 });
    expect(access.body.sources[0]).toMatchObject({ kind: 'member', roleName: 'Helper' });
  });

  it('is dropped when bits are set by hand, and leaves holders their bits when deleted', async () => {
    const row = await memberRow();
    await call(t.base, owner, 'PATCH', `/sentinel/groupUsers/${row.groupUserId}`, {
      permissions: 1 | 2 | 64,
    });
    expect(await memberRow()).toMatchObject({ roleId: null, permissions: 67 });
    await call(t.base, owner, 'PATCH', `/sentinel/groupUsers/${row.groupUserId}`, { roleId });
    expect((await call(t.base, owner, 'DELETE', `/sentinel/groupRoles/${roleId}`)).status).toBe(204);
    expect(await memberRow()).toMatchObject({ roleId: null, permissions: 3 });
  });

  it('refuses what the caller may not hand out, built-in roles and other groups’ roles', async () => {
    const byMember = await call(t.base, moderator, 'POST', '/sentinel/groupRoles', {
      groupId: group(),
      name: 'Mine',
      permissions: 1,
    });
    expect(byMember.status).toBe(403);
    const builtIn = await call(t.base, owner, 'PATCH', `/sentinel/groupRoles/${BUILT_IN_ROLES[0].roleId}`, {
      permissions: 16383,
    });
    expect(builtIn.status).toBe(403);
    const strangerToken = await signInStranger(t);
    const theirs = await call(t.base, strangerToken, 'POST', '/sentinel/groups', { name: 'Elsewhere' });
    const theirGroup = theirs.body.created[0].groupId;
    const theirRole = await call(t.base, strangerToken, 'POST', '/sentinel/groupRoles', {
      groupId: theirGroup,
      name: 'Everything',
      permissions: 16383,
    });
    const row = await memberRow();
    const crossed = await call(t.base, owner, 'PATCH', `/sentinel/groupUsers/${row.groupUserId}`, {
      roleId: theirRole.body.created[0].roleId,
    });
    expect(crossed.status).toBe(400);
    expect((await memberRow()).permissions).toBe(3);
    // Another group's roles are not listed to an outsider.
    const peek = await call(t.base, owner, 'GET', `/sentinel/groupRoles?groupId=${theirGroup}`);
    expect(peek.body.results.every((r: { builtIn: boolean }) => r.builtIn)).toBe(true);
  });
});

describe('API tokens', () => {
  const [a, b] = [0, 1].map((i) => () => t.demo.servers[i].serviceId);

  it('limited to one server reads that server and no other, and writes nothing when read only', async () => {
    const made = await call(t.base, owner, 'POST', '/sentinel/apiTokens', {
      name: 'Stats bot',
      access: 'read',
      serviceId: a(),
      expiresInDays: 30,
    });
    expect(made.status).toBe(201);
    const bot = made.body.token as string;
    expect(bot).toMatch(/^pat_/);
    expect((await call(t.base, bot, 'GET', `/sentinel/services/${a()}`)).status).toBe(200);
    expect((await call(t.base, bot, 'GET', `/sentinel/services/${b()}`)).status).toBe(404);
    const listed = await call(t.base, bot, 'GET', '/sentinel/services');
    expect(listed.body.results.map((s: { serviceId: string }) => s.serviceId)).toEqual([a()]);
    expect((await call(t.base, bot, 'PATCH', `/sentinel/services/${a()}`, { nickname: 'x' })).status).toBe(
      403,
    );
    expect((await call(t.base, bot, 'GET', '/sentinel/groups')).body.results).toEqual([]);
    // Shown once: the list never holds it.
    const list = await call(t.base, owner, 'GET', '/sentinel/apiTokens');
    expect(JSON.stringify(list.body)).not.toContain(bot);
    expect(list.body.results[0]).toMatchObject({ name: 'Stats bot', serviceId: a(), access: 'read' });
    const used = await call(t.base, owner, 'GET', '/sentinel/apiTokens');
    expect(used.body.results[0].lastUsed).toEqual(expect.any(Number));
  });

  it('with write access acts on its server only, never beyond its maker', async () => {
    const made = await call(t.base, owner, 'POST', '/sentinel/apiTokens', {
      name: 'Writer',
      access: 'write',
      serviceId: a(),
    });
    const bot = made.body.token as string;
    expect(
      (await call(t.base, bot, 'PATCH', `/sentinel/services/${a()}`, { nickname: 'Renamed' })).status,
    ).toBe(200);
    expect(
      (await call(t.base, bot, 'PATCH', `/sentinel/services/${b()}`, { nickname: 'Renamed' })).status,
    ).toBe(404);
    // A moderator's token holds the moderator's bits, and loses them with the moderator.
    const mods = await call(t.base, moderator, 'POST', '/sentinel/apiTokens', {
      name: 'Mod bot',
      access: 'write',
    });
    const modBot = mods.body.token as string;
    expect((await call(t.base, modBot, 'GET', `/sentinel/services/${a()}`)).body.permissions).toBe(3);
    const limited = await call(t.base, moderator, 'POST', '/sentinel/apiTokens', {
      name: 'Group bot',
      access: 'write',
      groupId: t.demo.groupId,
    });
    const groupBot = limited.body.token as string;
    expect((await call(t.base, groupBot, 'GET', `/sentinel/services/${a()}`)).body.permissions).toBe(3);
    expect(
      (await call(t.base, groupBot, 'PATCH', `/sentinel/services/${a()}`, { nickname: 'x' })).status,
    ).toBe(403);
    // Cut the moderator to membership: both tokens lose the bits at once.
    await t.server.db.query('UPDATE group_users SET permissions = 1 WHERE user_id = $1', [
      t.demo.moderator.userId,
    ]);
    expect((await call(t.base, modBot, 'GET', `/sentinel/services/${a()}`)).body.permissions).toBe(1);
    expect((await call(t.base, groupBot, 'GET', `/sentinel/services/${a()}`)).body.permissions).toBe(1);
    await t.server.db.query('UPDATE group_users SET permissions = 3 WHERE user_id = $1', [
      t.demo.moderator.userId,
    ]);
  });

  it('limited to a server makes no group, bucket or script of its own (it could hand the server on)', async () => {
    const made = await call(t.base, owner, 'POST', '/sentinel/apiTokens', {
      name: 'Limited writer',
      access: 'write',
      serviceId: a(),
    });
    const bot = made.body.token as string;
    for (const [path, body] of [
      ['/sentinel/groups', { name: 'Backdoor' }],
      ['/sentinel/buckets', { name: 'Stash' }],
      ['/sentinel/scripts', { name: 'Sneaky' }],
    ] as const) {
      const refused = await call(t.base, bot, 'POST', path, body);
      expect(refused.status, path).toBe(403);
      expect(refused.body.message).toMatch(/cannot make groups, buckets or scripts/);
    }
    // Its maker may, of course.
    expect((await call(t.base, owner, 'POST', '/sentinel/buckets', { name: 'Stash' })).status).toBe(200);
  });

  it('cannot manage tokens, devices or two-factor sign-in', async () => {
    const made = await call(t.base, owner, 'POST', '/sentinel/apiTokens', {
      name: 'Sneaky',
      access: 'write',
    });
    const bot = made.body.token as string;
    for (const [method, path] of [
      ['POST', '/sentinel/apiTokens'],
      ['GET', '/sentinel/apiTokens'],
      ['GET', '/sentinel/account/signIns'],
      ['POST', '/sentinel/account/totp'],
    ])
      expect(
        (await call(t.base, bot, method, path, method === 'POST' ? { name: 'x' } : undefined)).status,
      ).toBe(403);
  });

  it('refuses a place the maker cannot see, and ends at once when revoked', async () => {
    const stranger = await signInStranger(t);
    const refused = await call(t.base, stranger, 'POST', '/sentinel/apiTokens', {
      name: 'Mine',
      serviceId: a(),
    });
    expect(refused.status).toBe(403);
    const bad = await call(t.base, stranger, 'POST', '/sentinel/apiTokens', { name: '', expiresInDays: 0 });
    expect(bad.status).toBe(400);
    const made = await call(t.base, owner, 'POST', '/sentinel/apiTokens', {
      name: 'Short lived',
      serviceId: a(),
    });
    const bot = made.body.token as string;
    expect((await call(t.base, bot, 'GET', `/sentinel/services/${a()}`)).status).toBe(200);
    expect((await call(t.base, stranger, 'DELETE', `/sentinel/apiTokens/${made.body.tokenId}`)).status).toBe(
      404,
    );
    expect((await call(t.base, owner, 'DELETE', `/sentinel/apiTokens/${made.body.tokenId}`)).status).toBe(
      204,
    );
    expect((await call(t.base, bot, 'GET', `/sentinel/services/${a()}`)).status).toBe(401);
  });
});

describe('signed-in devices', () => {
  it('lists the account’s sign-ins and ends one, not another account’s', async () => {
    const second = (await signIn(t.base)).access_token;
    const list = await call(t.base, owner, 'GET', '/sentinel/account/signIns');
    expect(list.status).toBe(200);
    const [current, ...others] = list.body.results;
    expect(current).toMatchObject({ current: true, method: 'password', application: expect.any(String) });
    expect(current.address).toMatch(/127\.0\.0\.1/);
    const theirs = others.find((o: { current: boolean }) => !o.current);
    const stranger = await signInStranger(t);
    expect(
      (await call(t.base, stranger, 'DELETE', `/sentinel/account/signIns/${theirs.signInId}`)).status,
    ).toBe(404);
    const ended = list.body.results.filter((r: { current: boolean }) => !r.current);
    for (const r of ended)
      expect((await call(t.base, owner, 'DELETE', `/sentinel/account/signIns/${r.signInId}`)).status).toBe(
        204,
      );
    expect((await call(t.base, second, 'GET', '/users/me')).status).toBe(401);
    expect((await call(t.base, owner, 'GET', '/users/me')).status).toBe(200);
  });
});

describe('passkeys', () => {
  it('refuses a made-up answer, another flow’s challenge and an API token', async () => {
    expect(
      (await call(t.base, owner, 'POST', '/sentinel/account/passkeys/options', { password: 'guess' })).body
        .code,
    ).toBe('passwordWrong');
    const options = await call(t.base, owner, 'POST', '/sentinel/account/passkeys/options', {
      password: DEMO.password,
    });
    expect(options.status).toBe(200);
    expect(options.body).toMatchObject({
      rp: { name: 'Palisade', id: new URL(t.base).hostname },
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    const forged = await call(t.base, owner, 'POST', '/sentinel/account/passkeys', {
      name: 'Forged',
      response: {
        id: 'AAAA',
        rawId: 'AAAA',
        type: 'public-key',
        response: { clientDataJSON: 'e30', attestationObject: 'oA' },
      },
    });
    expect(forged.status).toBe(400);
    expect(forged.body.code).toBe('passkeyRefused');
    const unnamed = await call(t.base, owner, 'POST', '/sentinel/account/passkeys', {
      name: '',
      response: {},
    });
    expect(unnamed.status).toBe(400);
    const made = await call(t.base, owner, 'POST', '/sentinel/apiTokens', {
      name: 'Passkey bot',
      access: 'write',
    });
    expect(
      (await call(t.base, made.body.token, 'POST', '/sentinel/account/passkeys/options', {})).status,
    ).toBe(403);
  });

  it('offers a passkey on the sign-in page under a policy that runs only our own scripts', async () => {
    const page = await fetch(authorizeUrl(t.base));
    const html = await page.text();
    expect(html).toContain('Sign in with a passkey');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('content-security-policy')).not.toContain("unsafe-inline'; script");
    for (const src of html.matchAll(/<script src="([^"]+)"/g)) {
      const script = await fetch(new URL(src[1], t.base));
      expect(script.status).toBe(200);
      expect(script.headers.get('content-type')).toMatch(/javascript/);
    }
    // A sign-in flow's options, and an answer no authenticator made.
    const flowId = flowIdOf(html);
    const options = await call(t.base, null, 'POST', '/login/passkey/options', { flow_id: flowId });
    expect(options.status).toBe(200);
    expect(options.body).toMatchObject({ userVerification: 'required', allowCredentials: [] });
    const forged = await call(t.base, null, 'POST', '/login/passkey', {
      flow_id: flowId,
      response: { id: 'nope', rawId: 'nope', type: 'public-key', response: {} },
    });
    expect(forged.status).toBe(400);
    expect(forged.body.message).toMatch(/passkey was not accepted/);
    expect((await call(t.base, null, 'POST', '/login/passkey/options', { flow_id: 'x' })).status).toBe(404);
  });
});

describe('API tokens and their maker', () => {
  it('stop with a banned maker, and at their expiry', async () => {
    const { hashPassword } = await import('../../src/server/crypto.ts');
    await t.server.db.query(
      `INSERT INTO users (username, email, password_hash) VALUES ('Maker', 'maker@palisade.local', $1)`,
      [await hashPassword('maker-pass')],
    );
    const maker = (await signIn(t.base, 'maker@palisade.local', 'maker-pass')).access_token;
    const expiring = await call(t.base, maker, 'POST', '/sentinel/apiTokens', {
      name: 'Short',
      access: 'read',
    });
    await t.server.db.query(
      "UPDATE api_tokens SET expires = now() - interval '1 second' WHERE token_id = $1",
      [expiring.body.tokenId],
    );
    expect((await call(t.base, expiring.body.token, 'GET', '/sentinel/services')).status).toBe(401);
    const listed = await call(t.base, maker, 'GET', '/sentinel/apiTokens');
    expect(listed.body.results.map((x: { name: string }) => x.name)).not.toContain('Short');
    const other = await call(t.base, maker, 'POST', '/sentinel/apiTokens', { name: 'Other', access: 'read' });
    await t.server.db.query("UPDATE users SET banned = true WHERE email = 'maker@palisade.local'");
    expect((await call(t.base, other.body.token, 'GET', '/sentinel/services')).status).toBe(401);
  });
});
