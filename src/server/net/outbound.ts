// Addresses a user chooses for this server to connect to: a game server's RCON host, a script's
// httpRequest. None may reach the instance's own networks (loopback, private, link-local,
// carrier-grade NAT, and the IPv6 forms that carry such an IPv4 address), judged on the addresses
// a name resolves to, each time a connection is made, and connected to as judged, so a name cannot
// be re-pointed between the check and the connection. The operator of a self-hosted install
// next to its game servers allows ranges (PALISADE_OUTBOUND_ALLOW, docs/servers-connecting.md).

import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** Ranges the operator allows, as parsed CIDR ranges. */
export type AllowList = readonly [Address, number][];

/** Parses "10.0.0.0/8, 127.0.0.1, fd00::/8"; an address alone is a range of one. */
export function parseAllowList(entries: readonly string[]): AllowList {
  return entries
    .map((e) => e.trim())
    .filter((e) => e !== '')
    .map((entry) => {
      try {
        return entry.includes('/')
          ? ipaddr.parseCIDR(entry)
          : ([ipaddr.parse(entry), entry.includes(':') ? 128 : 32] as [Address, number]);
      } catch {
        throw new Error(
          `PALISADE_OUTBOUND_ALLOW: "${entry}" is not an address or a range such as 10.0.0.0/8 or fd00::/8.`,
        );
      }
    });
}

/** What a refused range is, in the words of the refusal. */
const RANGE_WORDS: Record<string, string> = {
  loopback: 'a loopback address (this machine)',
  private: 'a private network address',
  uniqueLocal: 'a private network address',
  linkLocal: 'a link-local address',
  carrierGradeNat: 'a carrier-grade NAT address',
  unspecified: 'an unspecified address',
  broadcast: 'a broadcast address',
  multicast: 'a multicast address',
};

/** IPv6 forms that carry an IPv4 address in their last 32 bits: mapped, translated, NAT64, compatible. */
const CARRIES_IPV4 = new Set(['ipv4Mapped', 'rfc6145', 'rfc6052']);

function carriedIPv4(ip: ipaddr.IPv6): ipaddr.IPv4 | null {
  const parts = ip.parts;
  // ::1 and :: are IPv6's own loopback and unspecified address, not IPv4-compatible ones.
  const compatible =
    parts.slice(0, 6).every((p) => p === 0) && !['loopback', 'unspecified'].includes(ip.range());
  if (!compatible && !CARRIES_IPV4.has(ip.range())) return null;
  const [hi, lo] = [parts[6]!, parts[7]!];
  return new ipaddr.IPv4([hi >> 8, hi & 255, lo >> 8, lo & 255]);
}

const allows = (allow: AllowList, ip: Address) =>
  allow.some(([net, bits]) => net.kind() === ip.kind() && ip.match(net, bits));

/** Why this server will not connect to `address`, or null when it may. */
export function outboundRefusal(address: string, allow: AllowList): string | null {
  let ip: Address;
  try {
    ip = ipaddr.parse(address);
  } catch {
    return 'not an address';
  }
  if (allows(allow, ip)) return null;
  const judged = ip.kind() === 'ipv6' ? (carriedIPv4(ip as ipaddr.IPv6) ?? ip) : ip;
  if (judged !== ip && allows(allow, judged)) return null;
  const range = judged.range();
  return range === 'unicast' ? null : (RANGE_WORDS[range] ?? 'a reserved address');
}

/** A refused destination: its message is the user's to read. */
export class OutboundRefused extends Error {}

/**
 * The address to connect to for `host`: every address the name has must be allowed (a name that
 * also points inside is refused whole), and the first is the one to use.
 */
export async function resolveOutbound(host: string, allow: AllowList): Promise<string> {
  const literal = host.replace(/^\[|\]$/g, '');
  const addresses = ipaddr.isValid(literal)
    ? [literal]
    : (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  for (const address of addresses) {
    const why = outboundRefusal(address, allow);
    if (why)
      throw new OutboundRefused(
        `${host === address ? address : `${host} (${address})`} is ${why}, which this server does not connect to; the operator of this installation can allow it.`,
      );
  }
  // As parsed: a literal such as 0x7f.1 is connected to as the address it was judged to be.
  return ipaddr.parse(addresses[0]!).toString();
}
