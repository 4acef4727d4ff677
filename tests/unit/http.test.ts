import { describe, expect, it, vi } from 'vitest';
import { Msg } from '../../src/domain/messages.ts';
import { ApiError, buildUrl, createHttp, type HttpDeps } from '../../src/web/api/http.ts';

const BASE = 'https://api.test/v4';

interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

/** A fetch that answers from a queue and records what it was sent. */
function fakeFetch(...answers: (Response | Error)[]) {
  const sent: Sent[] = [];
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    sent.push({
      url: String(input),
      method: init?.method ?? 'GET',
      headers: { ...(init?.headers as Record<string, string>) },
      body: init?.body,
    });
    const next = answers.shift();
    if (!next) throw new Error('unexpected request');
    if (next instanceof Error) throw next;
    return next;
  });
  return { fetch: fn as unknown as typeof fetch, sent };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function http(fetchFn: typeof fetch, deps: Partial<HttpDeps> = {}) {
  return createHttp({
    baseUrl: BASE,
    fetch: fetchFn,
    accessToken: async () => 'tok-1',
    socketId: () => null,
    ...deps,
  });
}

async function failure(p: Promise<unknown>): Promise<ApiError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ApiError);
  return e as ApiError;
}

describe('API helper: sign-in and headers', () => {
  it('fails with "Authentication failed" without calling the API when signed out', async () => {
    const f = fakeFetch();
    const e = await failure(http(f.fetch, { accessToken: async () => null })('GET', '/user'));
    expect(e.message).toBe(Msg.authFailed);
    expect(e.status).toBe(401);
    expect(f.sent).toHaveLength(0);
  });

  it('sends the bearer token and the realtime socket id when the socket is up', async () => {
    const f = fakeFetch(json(200, { ok: 1 }), json(200, { ok: 2 }));
    let socket: string | null = '123.456';
    const call = http(f.fetch, { socketId: () => socket });
    await call('GET', '/session');
    socket = null;
    await call('GET', '/session');
    expect(f.sent[0].headers.Authorization).toBe('Bearer tok-1');
    expect(f.sent[0].headers['X-Beacon-Pusher-Id']).toBe('123.456');
    expect(f.sent[1].headers).not.toHaveProperty('X-Beacon-Pusher-Id');
  });

  it('asks for no token on calls that need no sign-in', async () => {
    const f = fakeFetch(json(201, { access_token: 'a' }));
    const accessToken = vi.fn(async () => null);
    await http(f.fetch, { accessToken })('POST', '/login', { auth: false, body: { a: 1 } });
    expect(accessToken).not.toHaveBeenCalled();
    expect(f.sent[0].headers).not.toHaveProperty('Authorization');
    expect(f.sent[0].headers['Content-Type']).toBe('application/json');
    expect(f.sent[0].body).toBe('{"a":1}');
  });

  it('sends raw bodies as text', async () => {
    const f = fakeFetch(json(200, {}));
    await http(f.fetch)('POST', '/bans', { body: 'line1\nline2', rawBody: true });
    expect(f.sent[0].headers['Content-Type']).toBe('text/plain');
    expect(f.sent[0].body).toBe('line1\nline2');
  });
});

describe('API helper: answers', () => {
  it('returns true for 204 and the parsed body for other OK answers', async () => {
    const f = fakeFetch(new Response(null, { status: 204 }), json(200, { userId: 'u' }));
    const call = http(f.fetch);
    await expect(call('DELETE', '/session')).resolves.toBe(true);
    await expect(call('GET', '/user')).resolves.toEqual({ userId: 'u' });
  });

  it('turns a provider error body into an ApiError with message, code and details', async () => {
    const details = { policySigningRequestId: 'p', url: 'https://x.test/sign' };
    const f = fakeFetch(
      json(412, { type: 'beacon.error', code: 'policyRequired', message: 'Sign it', details }),
    );
    const e = await failure(http(f.fetch)('GET', '/user', { expect: ['policyRequired'] }));
    expect(e).toMatchObject({ message: 'Sign it', code: 'policyRequired', status: 412, details });
  });

  it("gives 'generic' for codes the caller did not expect", async () => {
    const f = fakeFetch(json(403, { type: 'beacon.error', code: 'forbidden', message: 'No', details: null }));
    const e = await failure(http(f.fetch)('GET', '/x', { expect: ['duplicate'] }));
    expect(e.code).toBe('generic');
    expect(e.message).toBe('No');
    expect(e.reason).toBe(Msg.noDetails);
  });

  it('reads the code older handlers put in details', async () => {
    const body = { type: 'beacon.error', message: 'Invalid code', details: { code: 'INVALID_CODE' } };
    const f = fakeFetch(json(400, body));
    const e = await failure(http(f.fetch)('POST', '/login', { auth: false, expect: ['INVALID_CODE'] }));
    expect(e.code).toBe('INVALID_CODE');
  });

  it('uses the message field of other error bodies, else the status line', async () => {
    const f = fakeFetch(
      json(500, { message: 'boom' }),
      new Response('', { status: 503, statusText: 'Down' }),
    );
    const call = http(f.fetch);
    expect((await failure(call('GET', '/a'))).message).toBe('boom');
    const e = await failure(call('GET', '/b'));
    expect(e).toMatchObject({ message: '503 Down', code: 'generic', status: 503 });
  });

  it('reports a non-JSON reply as an unexpected reply', async () => {
    const f = fakeFetch(
      new Response('<html>ok</html>', { status: 200 }),
      new Response('Bad gateway', { status: 502 }),
    );
    const call = http(f.fetch);
    expect((await failure(call('GET', '/a'))).message).toBe(Msg.unexpectedReply);
    const e = await failure(call('GET', '/b'));
    expect(e).toMatchObject({ message: Msg.unexpectedReply, code: 'generic', status: 502 });
  });

  it("shows the browser's network message, or the spec's when the browser gives none", async () => {
    const f = fakeFetch(
      new TypeError('NetworkError when attempting to fetch resource.'),
      new TypeError('Failed to fetch'),
      new TypeError(''),
    );
    const call = http(f.fetch);
    const firefox = await failure(call('GET', '/a'));
    expect(firefox).toMatchObject({
      message: 'NetworkError when attempting to fetch resource.',
      code: 'network',
    });
    expect((await failure(call('GET', '/b'))).message).toBe(Msg.networkError);
    expect((await failure(call('GET', '/c'))).message).toBe(Msg.networkError);
  });

  it('lets an abort through untouched', async () => {
    const abort = new DOMException('aborted', 'AbortError');
    const f = fakeFetch(abort);
    await expect(http(f.fetch)('GET', '/a')).rejects.toBe(abort);
  });
});

describe('API helper: 429', () => {
  const limited = (retryAfter?: string) =>
    new Response(
      JSON.stringify({ type: 'beacon.error', code: 'rateLimited', message: 'Rate limit exceeded' }),
      {
        status: 429,
        headers: retryAfter ? { 'Retry-After': retryAfter } : {},
      },
    );

  it("sends a refused request again after the server's Retry-After, body and all", async () => {
    const waits: number[] = [];
    const f = fakeFetch(limited('3'), limited(), json(200, { ok: 1 }));
    const h = http(f.fetch, { pause: async (ms) => void waits.push(ms) });
    expect(await h('POST', '/sentinel/notes', { body: { note: 'hi' } })).toEqual({ ok: 1 });
    expect(waits).toEqual([3000, 10_000]);
    expect(f.sent.map((r) => [r.method, r.body])).toEqual(Array(3).fill(['POST', '{"note":"hi"}']));
  });

  it('gives up after six refusals with the rate-limit error', async () => {
    const f = fakeFetch(...Array.from({ length: 7 }, () => limited('10')));
    const e = await failure(
      http(f.fetch, { pause: async () => {} })('GET', '/a', { expect: ['rateLimited'] }),
    );
    expect([e.status, e.code, e.message]).toEqual([429, 'rateLimited', 'Rate limit exceeded']);
    expect(f.sent).toHaveLength(7);
  });

  it('stops waiting when the request is aborted', async () => {
    const f = fakeFetch(limited('10'));
    const ctl = new AbortController();
    const p = http(f.fetch)('GET', '/a', { signal: ctl.signal });
    await vi.waitFor(() => expect(f.sent).toHaveLength(1));
    ctl.abort();
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('API helper: 401', () => {
  it('asks the session to renew once, then retries with the new token', async () => {
    const f = fakeFetch(
      json(401, { type: 'beacon.error', message: 'Unauthorized', details: null }),
      json(200, [1]),
    );
    let token = 'old';
    const onUnauthorized = vi.fn(async () => {
      token = 'new';
      return true;
    });
    const result = await http(f.fetch, { accessToken: async () => token, onUnauthorized })('GET', '/x');
    expect(result).toEqual([1]);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(f.sent.map((s) => s.headers.Authorization)).toEqual(['Bearer old', 'Bearer new']);
  });

  it('retries only once, and not at all when renewal fails or no sign-in was sent', async () => {
    const unauthorized = () => json(401, { type: 'beacon.error', message: 'Unauthorized', details: null });
    const f = fakeFetch(unauthorized(), unauthorized(), unauthorized(), unauthorized());
    const renewed = vi.fn(async () => true);
    expect((await failure(http(f.fetch, { onUnauthorized: renewed })('GET', '/x'))).status).toBe(401);
    expect(renewed).toHaveBeenCalledTimes(1);
    expect(f.sent).toHaveLength(2);

    const refused = vi.fn(async () => false);
    await failure(http(f.fetch, { onUnauthorized: refused })('GET', '/x'));
    expect(f.sent).toHaveLength(3);

    const unused = vi.fn(async () => true);
    await failure(http(f.fetch, { onUnauthorized: unused })('POST', '/login', { auth: false }));
    expect(unused).not.toHaveBeenCalled();
    expect(f.sent).toHaveLength(4);
  });
});

describe('buildUrl and ApiError.reason', () => {
  it('drops empty values, repeats arrays as key[] and tolerates a trailing slash', () => {
    const url = new URL(
      buildUrl(`${BASE}/`, '/user', { a: 'x y', b: null, c: '', d: undefined, e: ['1', '2'], f: 3 }),
    );
    expect(url.pathname).toBe('/v4/user');
    expect([...url.searchParams]).toEqual([
      ['a', 'x y'],
      ['e[]', '1'],
      ['e[]', '2'],
      ['f', '3'],
    ]);
  });

  it('gives text details as the reason', () => {
    expect(new ApiError('m', 'generic', 400, 'Because').reason).toBe('Because');
    expect(new ApiError('m', 'generic', 400, { x: 1 }).reason).toBe('m');
  });
});
