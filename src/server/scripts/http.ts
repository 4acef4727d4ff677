// beacon.httpRequest and the chat-community notice: http(s) only, time- and size-limited, and
// never to a private, loopback or link-local address (the server's own network), checked on the
// address the name resolves to when connecting, so a name cannot be re-pointed after the check.

import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP } from 'node:net';
import { SCRIPT_LIMITS } from '../../domain/scripts/limits.ts';

const PRIVATE = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  PRIVATE.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  PRIVATE.addSubnet(net, bits, 'ipv6');

export const isPrivateAddress = (address: string): boolean => {
  const family = isIP(address);
  if (family === 0) return true;
  // An IPv4 address written as IPv6 (::ffff:a.b.c.d) is judged as the IPv4 address it is.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isPrivateAddress(mapped[1]);
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
};

export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface HttpOptions {
  /** Tests reach a server on this machine; production never does. */
  allowPrivate?: boolean;
  timeoutMs?: number;
  maxBytes?: number;
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'];

export function guardedRequest(
  method: unknown,
  url: unknown,
  body: unknown,
  headers: unknown,
  opts: HttpOptions = {},
): Promise<HttpAnswer> {
  const verb = String(method ?? 'GET').toUpperCase();
  if (!METHODS.includes(verb))
    return Promise.reject(new Error(`httpRequest: the method is one of ${METHODS.join(', ')}.`));
  let target: URL;
  try {
    target = new URL(String(url));
  } catch {
    return Promise.reject(new Error('httpRequest: that is not an address.'));
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:')
    return Promise.reject(new Error('httpRequest: only http and https addresses can be called.'));
  const timeoutMs = opts.timeoutMs ?? SCRIPT_LIMITS.httpTimeoutMs;
  const maxBytes = opts.maxBytes ?? SCRIPT_LIMITS.httpMaxBytes;
  const lookup = (
    host: string,
    options: object,
    cb: (e: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) =>
    dnsLookup(host, { ...options, all: true }, (e, addresses) => {
      if (e) return cb(e, []);
      const refused = !opts.allowPrivate && addresses.some((a) => isPrivateAddress(a.address));
      if (refused) return cb(new Error('httpRequest: private addresses cannot be called.'), []);
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
            reject(new Error(`httpRequest: the answer is larger than ${maxBytes} bytes.`));
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
    if (
      !opts.allowPrivate &&
      isIP(target.hostname.replace(/^\[|\]$/g, '')) &&
      isPrivateAddress(target.hostname.replace(/^\[|\]$/g, ''))
    ) {
      req.destroy(new Error('httpRequest: private addresses cannot be called.'));
    }
    const timer = setTimeout(
      () => req.destroy(new Error(`httpRequest: no answer within ${timeoutMs} ms.`)),
      timeoutMs,
    );
    req.on('close', () => clearTimeout(timer));
    req.on('error', reject);
    if (text !== null) req.write(text);
    req.end();
  });
}
