// beacon.httpRequest's guard: http(s) only, never the server's own networks (net/outbound.ts),
// whether written as an address or reached through a name, unless the operator allows the range;
// time and size limits.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { guardedRequest } from '../../src/server/net/guardedHttp.ts';
import { parseAllowList } from '../../src/server/net/outbound.ts';

let url: string;
const allow = parseAllowList(['127.0.0.1']);
const server = createServer((req, res) => {
  if (req.url === '/slow') return;
  res.end(req.url === '/big' ? 'x'.repeat(5000) : 'hello');
});
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

it('refuses other schemes and private addresses, by address or by name', async () => {
  await expect(guardedRequest('GET', 'file:///etc/passwd', null, {})).rejects.toThrow(/only http and https/);
  await expect(guardedRequest('GET', `${url}/`, null, {})).rejects.toThrow(/loopback address/);
  await expect(guardedRequest('GET', 'http://localhost:1/', null, {})).rejects.toThrow(/loopback address/);
  await expect(guardedRequest('GET', 'http://[::1]:1/', null, {})).rejects.toThrow(/loopback address/);
  await expect(guardedRequest('TRACE', 'https://example.com', null, {})).rejects.toThrow(/method/);
});

it('answers within its limits where the operator allows this machine', async () => {
  expect(await guardedRequest('GET', `${url}/`, null, {}, { allow })).toMatchObject({
    status: 200,
    body: 'hello',
  });
  await expect(guardedRequest('GET', `${url}/big`, null, {}, { allow, maxBytes: 1000 })).rejects.toThrow(
    /larger than 1000 bytes/,
  );
  await expect(guardedRequest('GET', `${url}/slow`, null, {}, { allow, timeoutMs: 200 })).rejects.toThrow(
    /no answer within 200 ms/,
  );
});
