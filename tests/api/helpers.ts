import { hashPassword } from '../../src/server/crypto.ts';
import { startSimulator } from '../../src/sim/index.ts';
// One server per test file, in a fresh schema of the run's PostgreSQL (globalSetup.ts).

import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { expect, inject, onTestFailed } from 'vitest';
import type { TokenResponse } from '../../src/domain/api.ts';
import { type CreateServerOptions, createServer, type RunningServer } from '../../src/server/app.ts';
import type { Connection, Db } from '../../src/server/db/db.ts';
import { CONSOLE_APP_ID } from '../../src/server/model/application.ts';
import { type SeedResult, seedDemo } from '../../src/server/seed.ts';

/**
 * Polls `probe` until it returns something truthy, which it resolves with; fails naming `what`
 * after `ms`. Tests wait for states with it, never for fixed times.
 */
export async function until<T>(
  what: string,
  probe: () => T | null | false | undefined | Promise<T | null | false | undefined>,
  ms = 10_000,
): Promise<T> {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    const v = await probe();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export const DEMO = { email: 'admin@palisade.local', password: 'palisade-demo' };
export const REDIRECT = 'http://127.0.0.1:5173/oauth';
export const CONSOLE_SCOPE = 'common sentinel:read sentinel:write users:read';

export interface TestServer {
  server: RunningServer;
  base: string;
  demo: SeedResult;
  close(): Promise<void>;
}

/** The run's PostgreSQL (tests/api/globalSetup.ts). */
export const testDatabaseUrl = () => inject('databaseUrl');

/** Drops a test file's schema, with what it holds. */
export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: testDatabaseUrl() });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
}

export async function startTestServer(opts: Partial<CreateServerOptions> = {}): Promise<TestServer> {
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const server = await createServer({
    databaseUrl: testDatabaseUrl(),
    dbSchema: schema,
    staticDir: '/nonexistent',
    // The tests' game servers and web hooks listen on this machine, as the demo's simulator does.
    outboundAllow: ['127.0.0.1'],
    ...opts,
  });
  const demo = await seedDemo(server.db, { ...DEMO, servers: 3 });
  return {
    server,
    base: `${server.url}/v4`,
    demo,
    async close() {
      await server.close();
      await dropSchema(schema);
    },
  };
}

export const verifierAndChallenge = () => {
  const verifier = randomBytes(48).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

export function authorizeUrl(
  base: string,
  over: Record<string, string | null> = {},
  challenge = verifierAndChallenge().challenge,
) {
  const q = new URLSearchParams();
  const params: Record<string, string | null> = {
    client_id: CONSOLE_APP_ID,
    scope: CONSOLE_SCOPE,
    redirect_uri: REDIRECT,
    state: 'st4te',
    response_type: 'code',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...over,
  };
  for (const [k, v] of Object.entries(params)) if (v !== null) q.set(k, v);
  return `${base}/login?${q}`;
}

/** The sign-in page's flow id. */
export const flowIdOf = (html: string) => /name="flow_id" value="([^"]+)"/.exec(html)?.[1] ?? '';

export async function submitSignIn(base: string, flowId: string, email: string, password: string) {
  return fetch(`${base}/login/signin`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ flow_id: flowId, email, password }),
  });
}

/** The whole browser round trip: authorize, sign in, redeem the code. */
export async function signIn(
  base: string,
  email = DEMO.email,
  password = DEMO.password,
): Promise<TokenResponse> {
  const { verifier, challenge } = verifierAndChallenge();
  const page = await (await fetch(authorizeUrl(base, {}, challenge))).text();
  const res = await submitSignIn(base, flowIdOf(page), email, password);
  const code = new URL(res.headers.get('location') ?? 'http://x/').searchParams.get('code');
  if (!code) throw new Error(`sign-in failed: ${res.status}`);
  const token = await fetch(`${base}/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'authorization_code',
      client_id: CONSOLE_APP_ID,
      code,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    }),
  });
  if (token.status !== 200) throw new Error(`token failed: ${token.status} ${await token.text()}`);
  return (await token.json()) as TokenResponse;
}

/** fetch with a bearer token and a JSON body. */
export async function call(
  base: string,
  token: string | null,
  method: string,
  path: string,
  body?: unknown,
  // biome-ignore lint/suspicious/noExplicitAny: tests read response bodies freely
): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}

/** A user with no access to anything, signed in. */
export async function signInStranger(t: TestServer): Promise<string> {
  await t.server.db.query(
    `INSERT INTO users (username, email, password_hash) VALUES ('Stranger', 'stranger@palisade.local', $1)
     ON CONFLICT DO NOTHING`,
    [await hashPassword('stranger-pass')],
  );
  return (await signIn(t.base, 'stranger@palisade.local', 'stranger-pass')).access_token;
}

/**
 * The simulator playing the given demo servers, with no ticks of world life: only commands act.
 * Resolves once every one of them is linked.
 */
export async function linkGameServers(
  t: TestServer,
  servers: { serviceId: string; accessKey: string; name: string }[],
) {
  const said: string[] = [];
  const sim = startSimulator({
    linkUrl: `${t.server.url.replace('http', 'ws')}/v4/sentinel/link`,
    servers: servers.map((s) => ({ accessKey: s.accessKey, name: s.name })),
    tickMs: 3_600_000,
    onLog: (line) => said.push(line),
  });
  const down = () => servers.filter((s) => !t.server.links.isConnected(s.serviceId)).map((s) => s.name);
  // Waited for as a state, however busy the machine: the test's (or hook's) own timeout bounds it.
  // A test that fails says which servers were unlinked then, and what their links were told all
  // along (refusals, drops, retries); a hook has no such event: its timeout names the hook.
  let failed = false;
  if (expect.getState().currentTestName !== undefined)
    onTestFailed(() => {
      failed = true;
      const unlinked = down();
      console.error(
        `${unlinked.length ? `Not linked: ${unlinked.join(', ')}` : 'Every server was linked'}. The simulator said:\n${said.join('\n')}`,
      );
    });
  while (down().length && !failed) await new Promise((r) => setTimeout(r, 50));
  return sim;
}

/** The statements `db` ran while `fn` ran, in its transactions and background connections too. */
export async function recording(
  db: Db,
  fn: () => Promise<void>,
  /** Called before each statement runs, with a way to ask the database past the recording. */
  before?: (sql: string, params: unknown[] | undefined, ask: Db['query']) => Promise<void>,
): Promise<string[]> {
  const ran: string[] = [];
  const { query, read, transaction, background } = db;
  const ask = ((sql: string, params?: unknown[]) => query.call(db, sql, params)) as Db['query'];
  /** `run` as it was, the statement recorded first. */
  const recorded = <F extends (sql: string, ...rest: never[]) => Promise<unknown>>(run: F): F =>
    (async (sql: string, ...rest: never[]) => {
      ran.push(sql);
      await before?.(sql, rest[0] as unknown[] | undefined, ask);
      return run(sql, ...rest);
    }) as F;
  const inTransactions =
    (of: Connection['transaction']): Connection['transaction'] =>
    (f) =>
      of((tx) => f({ ...tx, query: recorded(tx.query) }));
  // Every way in: a list's page and count go through Db.read, a ban import through Db.background.
  db.query = recorded(query.bind(db));
  db.read = recorded(read.bind(db));
  db.transaction = inTransactions(transaction.bind(db));
  db.background = <R>(f: (conn: Connection) => Promise<R>) =>
    background.call<Db, [(conn: Connection) => Promise<R>], Promise<R>>(db, (conn) =>
      f({ ...conn, query: recorded(conn.query), transaction: inTransactions(conn.transaction) }),
    );
  try {
    await fn();
  } finally {
    Object.assign(db, { query, read, transaction, background });
  }
  return ran;
}
