// The API helper of SPEC §7 "API helper behaviour" and §8 "Transport and sign-in": bearer token,
// realtime socket id, 204 → true, provider error bodies → ApiError, expected codes or 'generic'.

import { isApiErrorBody } from '../../domain/errors.ts';
import { Msg } from '../../domain/messages.ts';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly status: number,
    readonly details: unknown = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The reason line of a toast: the details when they are text, else the spec's fallback. */
  get reason(): string {
    if (typeof this.details === 'string' && this.details) return this.details;
    return this.details === null || this.details === undefined ? Msg.noDetails : this.message;
  }
}

/** An error as a list or a form shows it: the message, and the reason when it says more. */
export function errorText(e: unknown): string {
  if (e instanceof ApiError) return e.reason !== e.message ? `${e.message} ${e.reason}` : e.message;
  return e instanceof Error ? e.message : String(e);
}

export type Query = Record<string, string | number | boolean | readonly string[] | null | undefined>;

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  /** Sign-in is needed unless this is false (SPEC §7: "by default it needs a signed-in session"). */
  auth?: boolean;
  /** Error codes the caller handles by name; any other becomes 'generic'. */
  expect?: readonly string[];
  /** Send the body as text (bans.txt import) instead of JSON. */
  rawBody?: boolean;
  /** Send these fields form-encoded (Pusher channel auth, as pusher-js would). */
  form?: Record<string, string>;
  signal?: AbortSignal;
}

export interface HttpDeps {
  baseUrl: string;
  fetch?: typeof fetch;
  /** A valid access token, renewed if needed, or null when signed out. */
  accessToken(): Promise<string | null>;
  /** The realtime connection's socket id when it is up (X-Beacon-Pusher-Id, echo suppression). */
  socketId(): string | null;
  /** Called once when a signed-in call answers 401, so the session can be renewed or dropped. */
  onUnauthorized?(): Promise<boolean>;
  /** Waits before a request refused by the rate limit is sent again (tests pass their own clock). */
  pause?(ms: number, signal?: AbortSignal): Promise<void>;
}

/**
 * A request the rate limit refused (429) was not carried out, so any request may be sent again
 * after the server's Retry-After. The count is per minute, so six waits of its 10 s outlast the
 * window; past them the refusal is the caller's error.
 */
const RATE_RETRIES = 6;
const DEFAULT_RETRY_AFTER_S = 10;

function retryAfterMs(res: Response): number {
  const s = Number(res.headers.get('Retry-After'));
  return (Number.isFinite(s) && s > 0 ? s : DEFAULT_RETRY_AFTER_S) * 1000;
}

/** A timer that an abort cuts short, rejecting as fetch does. */
function pauseFor(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const abort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', abort, { once: true });
  });
}

export type Http = <T>(method: string, path: string, opts?: RequestOptions) => Promise<T>;

export function buildUrl(baseUrl: string, path: string, query?: Query): string {
  const url = new URL(baseUrl.replace(/\/$/, '') + path);
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined || v === null || v === '') continue;
    if (Array.isArray(v)) for (const item of v) url.searchParams.append(`${k}[]`, item);
    else url.searchParams.set(k, String(v));
  }
  return url.toString();
}

export function createHttp(deps: HttpDeps): Http {
  const doFetch = deps.fetch ?? ((...a: Parameters<typeof fetch>) => fetch(...a));
  const pause = deps.pause ?? pauseFor;

  async function once<T>(
    method: string,
    path: string,
    opts: RequestOptions,
    retried: boolean,
    refusals = 0,
  ): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (opts.auth !== false) {
      const token = await deps.accessToken();
      if (!token) throw new ApiError(Msg.authFailed, 'unauthorized', 401);
      headers.Authorization = `Bearer ${token}`;
    }
    const socket = deps.socketId();
    if (socket) headers['X-Beacon-Pusher-Id'] = socket;
    let body: string | undefined;
    if (opts.form) {
      body = new URLSearchParams(opts.form).toString();
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
    } else if (opts.body !== undefined) {
      body = opts.rawBody ? String(opts.body) : JSON.stringify(opts.body);
      headers['Content-Type'] = opts.rawBody ? 'text/plain' : 'application/json';
    }

    let res: Response;
    try {
      res = await doFetch(buildUrl(deps.baseUrl, path, opts.query), {
        method,
        headers,
        body,
        signal: opts.signal,
      });
    } catch (e) {
      if (e instanceof Error && e.name === 'AbortError') throw e;
      const msg =
        e instanceof Error && e.message && e.message !== 'Failed to fetch' ? e.message : Msg.networkError;
      throw new ApiError(msg, 'network', 0);
    }

    if (
      res.status === 401 &&
      opts.auth !== false &&
      !retried &&
      deps.onUnauthorized &&
      (await deps.onUnauthorized())
    ) {
      return once<T>(method, path, opts, true, refusals);
    }
    if (res.status === 429 && refusals < RATE_RETRIES) {
      await res.body?.cancel();
      await pause(retryAfterMs(res), opts.signal);
      return once<T>(method, path, opts, retried, refusals + 1);
    }
    if (res.status === 204) return true as T;

    let parsed: unknown;
    const text = await res.text();
    try {
      parsed = text === '' ? null : JSON.parse(text);
    } catch {
      if (res.ok) throw new ApiError(Msg.unexpectedReply, 'generic', res.status);
      throw new ApiError(Msg.unexpectedReply, 'generic', res.status, `${res.status} ${res.statusText}`);
    }
    if (res.ok) return parsed as T;

    const expected = (code: string | undefined) => (code && opts.expect?.includes(code) ? code : 'generic');
    if (isApiErrorBody(parsed)) {
      const detailCode = (parsed.details as { code?: string } | null)?.code;
      const code = parsed.code ?? detailCode;
      throw new ApiError(parsed.message || Msg.noDetails, expected(code), res.status, parsed.details ?? null);
    }
    const message = (parsed as { message?: unknown } | null)?.message;
    throw new ApiError(
      typeof message === 'string' ? message : `${res.status} ${res.statusText}`,
      'generic',
      res.status,
    );
  }

  return <T>(method: string, path: string, opts: RequestOptions = {}) => once<T>(method, path, opts, false);
}
