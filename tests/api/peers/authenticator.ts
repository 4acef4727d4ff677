// An authenticator app, written here from RFC 4226 §5.3 and RFC 6238 rather than taken from the
// library the server uses: the API and browser tests type its codes as a person would.

import { createHmac } from 'node:crypto';

/** RFC 4648 base32, as authenticator apps read the secret. */
function base32Bytes(s: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const ch of s.replace(/=+$/, '')) bits += alphabet.indexOf(ch).toString(2).padStart(5, '0');
  return Buffer.from(bits.match(/.{8}/g)?.map((b) => Number.parseInt(b, 2)) ?? []);
}

/** An authenticator app: RFC 4226 §5.3 over RFC 6238's time steps, 6 digits. */
export function authenticatorCode(secret: string, atMs = Date.now(), stepOffset = 0): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(atMs / 1000 / 30) + stepOffset));
  const mac = createHmac('sha1', base32Bytes(secret)).update(counter).digest();
  const o = mac[mac.length - 1] & 0xf;
  const n = ((mac[o] & 0x7f) << 24) | (mac[o + 1] << 16) | (mac[o + 2] << 8) | mac[o + 3];
  return String(n % 1_000_000).padStart(6, '0');
}
