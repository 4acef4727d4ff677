// The Source RCON wire format (as ARK speaks it): each packet is
//   int32 size (of what follows) | int32 id | int32 type | body (ASCII/UTF-8) | 0x00 | 0x00
// little-endian. The connector's client (client.ts) and the simulator's game side both use it.

export const PacketType = {
  /** Client → server: the password. */
  auth: 3,
  /** Server → client: id echoes the auth packet, or -1 for a wrong password. */
  authResponse: 2,
  /** Client → server: a console command. */
  execCommand: 2,
  /** Server → client: a command's output. */
  responseValue: 0,
} as const;

export interface Packet {
  id: number;
  type: number;
  body: string;
}

/** The game refuses bigger packets; so does the reader, so a bad peer cannot make it buffer forever. */
export const MAX_PACKET_BYTES = 64 * 1024;
const HEADER = 4 + 4 + 4;
const TRAILER = 2;

export function encodePacket(p: Packet): Buffer {
  const body = Buffer.from(p.body, 'utf8');
  const out = Buffer.alloc(4 + HEADER - 4 + body.length + TRAILER);
  out.writeInt32LE(out.length - 4, 0);
  out.writeInt32LE(p.id, 4);
  out.writeInt32LE(p.type, 8);
  body.copy(out, 12);
  return out;
}

/** A packet as read: its body as bytes, since a long reply may split inside a character. */
export interface RawPacket {
  id: number;
  type: number;
  payload: Buffer;
}

export class RconProtocolError extends Error {}

/**
 * Splits a byte stream into packets; bytes of a packet not yet complete wait for the next chunk.
 * Throws RconProtocolError on a size no packet can have.
 */
export class PacketReader {
  private pending: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): RawPacket[] {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const out: RawPacket[] = [];
    while (this.pending.length >= 4) {
      const size = this.pending.readInt32LE(0);
      if (size < HEADER - 4 + TRAILER || size > MAX_PACKET_BYTES)
        throw new RconProtocolError(`Packet size ${size} is out of range.`);
      if (this.pending.length < 4 + size) break;
      const packet = this.pending.subarray(0, 4 + size);
      out.push({
        id: packet.readInt32LE(4),
        type: packet.readInt32LE(8),
        payload: packet.subarray(12, packet.length - TRAILER),
      });
      this.pending = this.pending.subarray(4 + size);
    }
    return out;
  }
}
