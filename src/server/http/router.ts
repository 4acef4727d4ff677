// The /v4 router: conventions of SENTINEL-API §2.1 in one place — CORS, no-store, JSON error
// bodies, 404 for unknown paths and 405 for known paths with another method, bearer auth with
// scopes, and rate limits per user:application.

import type { HttpBindings } from '@hono/node-server';
import { type Context, Hono } from 'hono';
import type { RouteAccess } from '../../domain/apiReference.ts';
import { errorBody } from '../../domain/errors.ts';
import { QUERY_VALUE_MAX, textProblem } from '../../domain/limits.ts';
import { withTrail } from '../activity/trail.ts';
import type { ServerContext } from '../context.ts';
import { type Caller, requireScopes, tokenFrom, unauthorized } from './auth.ts';
import type { CallerInfo } from './callers.ts';
import { ApiException, fromDatabaseError, rejected } from './errors.ts';
import type { ListPage } from './listQuery.ts';
import { createSharedRateLimiter, refusalHold } from './rateLimit.ts';

export type Env = { Bindings: HttpBindings };
export type Ctx = Context<Env>;
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export const API_PREFIX = '/v4';
/** Paths that are never the console's page: an unknown one is a JSON 404. */
const JSON_PREFIXES = [API_PREFIX, '/.well-known'];
export const isJsonPath = (path: string) => JSON_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`));

const CORS_HEADERS: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT',
  'Access-Control-Allow-Headers':
    'Authorization, X-Beacon-Token, X-Beacon-Pusher-Id, Content-Type, Content-Encoding, Cache-Control, Range, X-Requested-With, If-Modified-Since, DNT, User-Agent',
  'Access-Control-Expose-Headers':
    'Content-Length, Content-Range, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
};

/**
 * Compact JSON. The original pretty-prints; a page of 100 log lines was 104 kB that way and 40%
 * of it spaces, written and parsed on every request.
 */
export function json(c: Ctx, body: unknown, status = 200): Response {
  return c.body(JSON.stringify(body), status as 200, { 'Content-Type': 'application/json' });
}

/**
 * A list page (listQuery.ts), its results spliced in as the database wrote them, as bytes: a log
 * page's 80 kB of text, non-Latin chat in it, cost more to measure and encode again per request
 * than to copy.
 */
export function pageJson(c: Ctx, { results, ...head }: ListPage): Response {
  const body = Buffer.concat([
    Buffer.from(`${JSON.stringify(head).slice(0, -1)},"results":`),
    results,
    PAGE_END,
  ]);
  return c.body(body, 200, { 'Content-Type': 'application/json' });
}

const PAGE_END = Buffer.from('}');

export function noContent(c: Ctx): Response {
  return c.body(null, 204);
}

export function errorResponse(c: Ctx, e: ApiException): Response {
  for (const [k, v] of Object.entries(e.headers)) c.header(k, v);
  return json(c, { ...errorBody(e.message, e.code, e.details), ...e.extra }, e.status);
}

/** The socket that caused a request, whose own realtime echo is suppressed (§2.1). */
export const pusherSocketOf = (c: Ctx): string | undefined => c.req.header('x-beacon-pusher-id') || undefined;

export const clientIp = (c: Ctx): string => c.env?.incoming?.socket?.remoteAddress ?? 'unknown';

/**
 * Every query parameter, once the caller is known and before the route reads it: no control character (PostgreSQL refuses a
 * NUL, and a 500 answered it), at most QUERY_VALUE_MAX characters.
 */
function checkQuery(c: Ctx): void {
  for (const [key, value] of new URL(c.req.url).searchParams) {
    const p =
      textProblem(key, 'A query parameter name', 'noControls', QUERY_VALUE_MAX) ??
      textProblem(value, key, 'noControls', QUERY_VALUE_MAX);
    if (p) throw rejected(p);
  }
}

/**
 * Writes that change nothing the read cache keeps, only rows of their own (a test's, a queued
 * run's): answering them leaves what every process keeps alone. A tester flood was otherwise a
 * NOTIFY to every process per test.
 */
export const KEEPS_READS = new Set([
  'POST /sentinel/scriptTests',
  'POST /sentinel/scriptMenuItems/:eventId',
  'POST /sentinel/services/:id/webhook',
  'POST /sentinel/scriptWebhooks/:webhookId',
  'POST /sentinel/attachmentWebhooks/:id',
]);

/** Writes the activity trail keeps (src/server/activity/): every authenticated write under /sentinel. */
const isTrailed = (method: Method, path: string) => method !== 'GET' && path.startsWith('/sentinel/');

/** A registered route as the API reference shows it (SPEC §2 landing links). */
export interface RegisteredRoute {
  method: Method;
  /** The full path, `/v4/…`, parameters as `:name`. */
  path: string;
  access: RouteAccess;
  /** Scopes the token needs besides `common` (token routes only). */
  scopes: readonly string[];
}

/** What a request past a limit is answered. */
export interface LimitRefusal {
  code: string;
  message: string;
}

const RATE_LIMITED: LimitRefusal = { code: 'rateLimited', message: 'Rate limit exceeded' };

export interface ApiRouter {
  app: Hono<Env>;
  /** Every route registered so far, in registration order: the API reference reads it. */
  routes(): readonly RegisteredRoute[];
  /** Writes the rate-limit counts still held in this process (before the database closes). */
  flushRateLimits(): Promise<void>;
  /**
   * A limit of a route's own, besides the caller's: requests a minute under `key`, counted across
   * processes and refused past `max` as the caller's are (429, held a second, Retry-After), with
   * `refusal`'s code and message.
   */
  limit(c: Ctx, key: string, max: number, refusal: LimitRefusal): Promise<void>;
  /** A route anyone may call. */
  open(method: Method, path: string, handler: (c: Ctx) => Promise<Response> | Response): void;
  /** A route needing a bearer token with `common` plus these scopes. */
  authed(
    method: Method,
    path: string,
    scopes: readonly string[],
    handler: (c: Ctx, caller: Caller) => Promise<Response>,
  ): void;
  /** An open route that still learns its caller when a valid token is sent. */
  optional(
    method: Method,
    path: string,
    handler: (c: Ctx, caller: Caller | null) => Promise<Response> | Response,
  ): void;
}

export function createApiRouter(ctx: ServerContext): ApiRouter {
  const app = new Hono<Env>();
  const limiter = createSharedRateLimiter(ctx.db);
  const hold = refusalHold();
  const known: { method: Method; re: RegExp }[] = [];
  const registered: RegisteredRoute[] = [];

  for (const prefix of JSON_PREFIXES)
    app.use(`${prefix}/*`, async (c, next) => {
      for (const [k, v] of Object.entries(CORS_HEADERS)) c.header(k, v);
      if (c.req.method === 'OPTIONS') {
        c.header('Access-Control-Max-Age', '1728000');
        return c.body(null, 204);
      }
      await next();
    });

  /** Requests a minute under `key`: past `max`, the refusal is held a second, then sent. */
  async function limit(
    c: Ctx,
    key: string,
    max: number,
    refusal: LimitRefusal = RATE_LIMITED,
  ): Promise<void> {
    const d = await limiter.take(key, max);
    c.header('X-RateLimit-Limit', String(d.limit));
    c.header('X-RateLimit-Remaining', String(d.remaining));
    c.header('X-RateLimit-Reset', '60');
    if (!d.allowed) {
      await hold();
      throw new ApiException(
        429,
        refusal.message,
        refusal.code,
        { limit: d.limit, remaining: 0 },
        { 'Retry-After': '10' },
      );
    }
  }

  async function callerOf(c: Ctx): Promise<{ caller: CallerInfo | null; sentToken: boolean }> {
    const token = tokenFrom(c.req.raw.headers);
    if (!token) return { caller: null, sentToken: false };
    return { caller: await ctx.callers.find(token, clientIp(c)), sentToken: true };
  }

  async function limitFor(c: Ctx, caller: CallerInfo | null): Promise<void> {
    if (!caller) return limit(c, `ip:${clientIp(c)}`, ctx.config.rateLimit);
    await limit(c, `${caller.userId}:${caller.applicationId}`, caller.rateLimit ?? ctx.config.rateLimit);
  }

  function register(
    method: Method,
    path: string,
    access: RouteAccess,
    scopes: readonly string[],
    handler: (c: Ctx) => Promise<Response> | Response,
  ) {
    const full = API_PREFIX + path;
    registered.push({ method, path: full, access, scopes: [...scopes] });
    known.push({ method, re: new RegExp(`^${full.replace(/:[A-Za-z]+/g, '[^/]+')}/?$`) });
    if (method === 'GET' || KEEPS_READS.has(`${method} ${path}`)) app.on(method, full, handler);
    else
      app.on(method, full, async (c) => {
        let refused = false;
        try {
          return await handler(c);
        } catch (e) {
          // Refused (unknown caller, over the rate limit, a bad body, no right): its transaction
          // rolled back and changed nothing kept. Telling every process was a NOTIFY per refusal,
          // as many as a flood sends.
          refused = e instanceof ApiException && e.status < 500;
          throw e;
        } finally {
          // Before the answer leaves: the caller's next request must not read what was kept before it.
          if (!refused) ctx.reads.invalidate();
        }
      });
  }

  app.notFound((c) => {
    const path = c.req.path;
    if (!isJsonPath(path)) return c.text('Not found', 404);
    for (const [k, v] of Object.entries(CORS_HEADERS)) c.header(k, v);
    const allowed = known.filter((k) => k.re.test(path)).map((k) => k.method);
    if (allowed.length > 0) {
      c.header('Allow', [...new Set(allowed)].join(', '));
      return json(c, errorBody('Method not allowed', 'methodNotAllowed'), 405);
    }
    return json(c, errorBody('Endpoint not found: Route not registered.', 'notFound'), 404);
  });

  app.onError((err, c) => {
    if (err instanceof ApiException) return errorResponse(c, err);
    const db = fromDatabaseError(err);
    if (db) return errorResponse(c, db);
    console.error('Unhandled error on', c.req.method, c.req.path, err);
    return json(c, errorBody('Internal server error', 'exception'), 500);
  });

  return {
    app,
    flushRateLimits: limiter.flush,
    limit,
    routes: () => registered,
    open(method, path, handler) {
      register(method, path, 'open', [], async (c) => {
        await limitFor(c, null);
        checkQuery(c);
        return handler(c);
      });
    },
    optional(method, path, handler) {
      register(method, path, 'optional', [], async (c) => {
        const { caller } = await callerOf(c);
        await limitFor(c, caller);
        checkQuery(c);
        return handler(c, caller);
      });
    },
    authed(method, path, scopes, handler) {
      register(method, path, 'token', scopes, async (c) => {
        const { caller, sentToken } = await callerOf(c);
        if (!caller) {
          await limitFor(c, null);
          throw unauthorized(sentToken);
        }
        await limitFor(c, caller);
        requireScopes(caller, scopes);
        checkQuery(c);
        if (!isTrailed(method, path)) return handler(c, caller);
        const info = { caller, method, route: path, params: c.req.param() as Record<string, string> };
        return withTrail(ctx.db, ctx.publisher, info, () => handler(c, caller));
      });
    },
  };
}

/** A path parameter of the matched route ('' if absent, which a registered route never is). */
export const param = (c: Ctx, name: string): string => c.req.param(name) ?? '';
