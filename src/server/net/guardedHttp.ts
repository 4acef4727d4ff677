// beacon.httpRequest, the chat-community notice and alerts' webhooks: http(s) only, time- and size-limited, and
// never to the server's own networks (outbound.ts), checked on the addresses the name resolves
// to when connecting, so a name cannot be re-pointed after the check.

import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { SCRIPT_LIMITS } from '../../domain/scripts/limits.ts';
import { type AllowList, outboundRefusal } from './outbound.ts';

export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface HttpOptions {
  /** Ranges the operator allows besides public addresses (PALISADE_OUTBOUND_ALLOW). */
  allow?: AllowList;
  timeoutMs?: number;
  maxBytes?: number;
  /** What a message names the request as; default `httpRequest`, a script's call. */
  label?: string;
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'];

export function guardedRequest(
  method: unknown,
  url: unknown,
  body: unknown,
  headers: unknown,
  opts: HttpOptions = {},
): Promise<HttpAnswer> {
  const label = opts.label ?? 'httpRequest';
  // A script's author reads "scripts cannot call"; anyone else, that this server does not.
  const refused = opts.label ? 'this server does not call' : 'scripts cannot call';
  const verb = String(method ?? 'GET').toUpperCase();
  if (!METHODS.includes(verb))
    return Promise.reject(new Error(`${label}: the method is one of ${METHODS.join(', ')}.`));
  let target: URL;
  try {
    target = new URL(String(url));
  } catch {
    return Promise.reject(new Error(`${label}: that is not an address.`));
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:')
    return Promise.reject(new Error(`${label}: only http and https addresses can be called.`));
  const timeoutMs = opts.timeoutMs ?? SCRIPT_LIMITS.httpTimeoutMs;
  const maxBytes = opts.maxBytes ?? SCRIPT_LIMITS.httpMaxBytes;
  const allow = opts.allow ?? [];
  const lookup = (
    host: string,
    options: object,
    cb: (e: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) =>
    dnsLookup(host, { ...options, all: true }, (e, addresses) => {
      if (e) return cb(e, []);
      const why = addresses.map((a) => outboundRefusal(a.address, allow)).find((w) => w !== null);
      if (why) return cb(new Error(`${label}: ${host} is ${why}, which ${refused}.`), []);
      cb(null, addresses);
    });
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  const text =
    body === null || body === undefined ? null : typeof body === 'string' ? body : JSON.stringify(body);
  const extra = typeof headers === 'object' && headers !== null ? (headers as Record<string, unknown>) : {};
  return new Promise((resolve, reject) => {
    const req = send(
      target,
      {
        method: verb,
        lookup,
        timeout: timeoutMs,
        headers: Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, String(v)])),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > maxBytes) {
            reject(new Error(`${label}: the answer is larger than ${maxBytes} bytes.`));
            res.destroy();
            return;
          }
          chunks.push(c);
        });
        res.on('end', () => {
          if (size > maxBytes) return;
          resolve({
            status: res.statusCode ?? 0,
            headers: Object.fromEntries(
              Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]),
            ),
            body: Buffer.concat(chunks).toString('utf8'),
          });
        });
        res.on('error', reject);
      },
    );
    // A literal address skips the lookup: check it here.
    const literal = target.hostname.replace(/^\[|\]$/g, '');
    const why = isIP(literal) ? outboundRefusal(literal, allow) : null;
    if (why) req.destroy(new Error(`${label}: ${literal} is ${why}, which ${refused}.`));
    const timer = setTimeout(
      () => req.destroy(new Error(`${label}: no answer within ${timeoutMs} ms.`)),
      timeoutMs,
    );
    req.on('close', () => clearTimeout(timer));
    req.on('error', reject);
    if (text !== null) req.write(text);
    req.end();
  });
}
