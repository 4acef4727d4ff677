// beacon.httpRequest's guard: http(s) only, never a private, loopback or link-local address,
// whether written as an address or reached through a name; time and size limits.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { guardedRequest, isPrivateAddress } from '../../src/server/scripts/http.ts';

let url: string;
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

it('knows private addresses', () => {
  for (const a of [
    '127.0.0.1',
    '10.1.2.3',
    '172.20.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '::1',
    'fd00::1',
    '::ffff:127.0.0.1',
  ])
    expect(isPrivateAddress(a), a).toBe(true);
  for (const a of ['93.184.216.34', '2606:4700::1111']) expect(isPrivateAddress(a), a).toBe(false);
});

it('refuses other schemes and private addresses, by address or by name', async () => {
  await expect(guardedRequest('GET', 'file:///etc/passwd', null, {})).rejects.toThrow(/only http and https/);
  await expect(guardedRequest('GET', `${url}/`, null, {})).rejects.toThrow(/private addresses/);
  await expect(guardedRequest('GET', 'http://localhost:1/', null, {})).rejects.toThrow(/private addresses/);
  await expect(guardedRequest('GET', 'http://[::1]:1/', null, {})).rejects.toThrow(/private addresses/);
  await expect(guardedRequest('TRACE', 'https://example.com', null, {})).rejects.toThrow(/method/);
});

it('answers within its limits when allowed to reach this machine (tests only)', async () => {
  expect(await guardedRequest('GET', `${url}/`, null, {}, { allowPrivate: true })).toMatchObject({
    status: 200,
    body: 'hello',
  });
  await expect(
    guardedRequest('GET', `${url}/big`, null, {}, { allowPrivate: true, maxBytes: 1000 }),
  ).rejects.toThrow(/larger than 1000 bytes/);
  await expect(
    guardedRequest('GET', `${url}/slow`, null, {}, { allowPrivate: true, timeoutMs: 200 }),
  ).rejects.toThrow(/no answer within 200 ms/);
});
