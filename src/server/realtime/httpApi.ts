// The publishing half of the Pusher HTTP API (`POST /apps/{id}/events` and `/batch_events`),
// framework-neutral: the API server mounts it on its router and passes the raw body through,
// since the body's MD5 is part of what is signed.

import { eventProblem } from './publisher.ts';
import { hmacHex, md5Hex, requestSigningString, safeEqual } from './signing.ts';

export interface AppCredentials {
  appId: string;
  key: string;
  secret: string;
}

export interface HttpApiResult {
  status: number;
  body: Record<string, unknown>;
}

export type Deliver = (channels: string[], event: string, data: string, exceptSocketId?: string) => void;

interface WireEvent {
  channels: string[];
  name: string;
  data: string;
  socketId?: string;
}

/** Pusher refuses requests signed more than this long ago (or ahead). */
const TIMESTAMP_GRACE_SECONDS = 600;
const BATCH_MAX = 10;

const fail = (status: number, error: string): HttpApiResult => ({ status, body: { error } });

function authProblem(
  app: AppCredentials,
  path: string,
  params: Record<string, string>,
  body: string,
  now: number,
) {
  if (params.auth_key !== app.key) return 'Unknown auth_key';
  if (Math.abs(now - Number(params.auth_timestamp)) > TIMESTAMP_GRACE_SECONDS) return 'Timestamp expired';
  if (body.length > 0 && params.body_md5 !== md5Hex(body)) return 'body_md5 does not match';
  const expected = hmacHex(app.secret, requestSigningString('POST', path, params));
  if (!safeEqual(params.auth_signature ?? '', expected)) return 'Invalid signature';
  return null;
}

function toWireEvent(raw: unknown, single: boolean): WireEvent | string {
  if (typeof raw !== 'object' || raw === null) return 'Event must be an object';
  const e = raw as Record<string, unknown>;
  const channels = single ? [e.channel] : (e.channels ?? (e.channel === undefined ? undefined : [e.channel]));
  if (!Array.isArray(channels) || !channels.every((c) => typeof c === 'string')) return 'Invalid channels';
  if (typeof e.name !== 'string') return 'Missing event name';
  if (typeof e.data !== 'string') return 'Event data must be a string';
  if (e.socket_id !== undefined && typeof e.socket_id !== 'string') return 'Invalid socket_id';
  const socketId = e.socket_id as string | undefined;
  return (
    eventProblem(channels, e.name, e.data, socketId) ?? { channels, name: e.name, data: e.data, socketId }
  );
}

export function createHttpApi(app: AppCredentials, deliver: Deliver) {
  const eventsPath = `/apps/${app.appId}/events`;
  const batchPath = `/apps/${app.appId}/batch_events`;

  /** `url` is the request's path with its query string (an absolute URL is accepted too). */
  return function handleHttpEvents(url: string, body: string, nowSeconds = Date.now() / 1000): HttpApiResult {
    const parsed = new URL(url, 'http://localhost');
    const path = parsed.pathname;
    if (path !== eventsPath && path !== batchPath) return fail(404, 'Unknown app or endpoint');
    const problem = authProblem(app, path, Object.fromEntries(parsed.searchParams), body, nowSeconds);
    if (problem) return fail(401, problem);

    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      return fail(400, 'Body is not JSON');
    }
    const raws = path === batchPath ? (json as { batch?: unknown })?.batch : [json];
    if (!Array.isArray(raws) || raws.length === 0) return fail(400, 'Missing batch');
    if (raws.length > BATCH_MAX) return fail(400, `Batch exceeds ${BATCH_MAX} events`);
    const events = raws.map((r) => toWireEvent(r, path === batchPath));
    const invalid = events.find((e) => typeof e === 'string');
    if (invalid !== undefined) return fail(400, invalid);
    for (const e of events as WireEvent[]) deliver(e.channels, e.name, e.data, e.socketId);
    return { status: 200, body: {} };
  };
}
