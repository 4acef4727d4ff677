// Which addresses users may point this server at (RCON hosts, scripts' requests): public ones,
// and ranges the operator allows; never loopback, private, link-local, CGNAT or the IPv6 forms
// that carry such an IPv4 address, however the address is written.

import { expect, it } from 'vitest';
import {
  OutboundRefused,
  outboundRefusal,
  parseAllowList,
  resolveOutbound,
} from '../../src/server/net/outbound.ts';

const none = parseAllowList([]);

it('refuses the instance’s own networks in every form, and lets public addresses through', () => {
  const refused = {
    '127.0.0.1': 'loopback',
    '127.255.0.9': 'loopback',
    '10.1.2.3': 'private',
    '172.20.0.1': 'private',
    '192.168.1.1': 'private',
    '169.254.169.254': 'link-local',
    '100.64.0.1': 'carrier-grade NAT',
    '0.0.0.0': 'unspecified',
    '::1': 'loopback',
    '::': 'unspecified',
    'fd00::1': 'private',
    'fe80::1': 'link-local',
    '::ffff:127.0.0.1': 'loopback',
    '::ffff:7f00:1': 'loopback',
    '::127.0.0.1': 'loopback',
    '::a00:1': 'private',
    '64:ff9b::a9fe:a9fe': 'link-local',
    '64:ff9b::7f00:1': 'loopback',
    '::ffff:0:a00:1': 'private',
    '203.0.113.7': 'reserved',
    '224.0.0.1': 'multicast',
  };
  for (const [address, words] of Object.entries(refused))
    expect(outboundRefusal(address, none), address).toContain(words);
  for (const address of ['93.184.216.34', '2606:4700::1111', '::ffff:93.184.216.34', '64:ff9b::5db8:d822'])
    expect(outboundRefusal(address, none), address).toBeNull();
});

it('lets through what the operator allows, in either form of the address', () => {
  const allow = parseAllowList(['10.0.0.0/8', ' 127.0.0.1 ', 'fd00::/8']);
  for (const address of ['10.9.9.9', '127.0.0.1', '::ffff:10.0.0.1', 'fd12::1'])
    expect(outboundRefusal(address, allow), address).toBeNull();
  expect(outboundRefusal('127.0.0.2', allow)).toContain('loopback');
  expect(outboundRefusal('192.168.0.1', allow)).toContain('private');
  expect(() => parseAllowList(['10.0.0.0/99'])).toThrow(/PALISADE_OUTBOUND_ALLOW: "10.0.0.0\/99"/);
  expect(() => parseAllowList(['intranet'])).toThrow(/not an address or a range/);
});

it('judges a name by every address it has, and connects to the address it judged', async () => {
  await expect(resolveOutbound('localhost', none)).rejects.toBeInstanceOf(OutboundRefused);
  await expect(resolveOutbound('localhost', none)).rejects.toThrow(/^localhost \(.+\) is a loopback address/);
  // Unusual spellings of an address are judged, and connected to, as the address they mean.
  await expect(resolveOutbound('0x7f.1', none)).rejects.toThrow(/loopback/);
  expect(await resolveOutbound('0x7f.1', parseAllowList(['127.0.0.1']))).toBe('127.0.0.1');
  expect(await resolveOutbound('[::ffff:5db8:d822]', none)).toBe('::ffff:5db8:d822');
});
