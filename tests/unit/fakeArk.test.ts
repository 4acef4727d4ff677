// Checks the fake ARK server (tests/api/fakeArk.ts) against /work/shared/ARK-RCON.md with a raw
// client written here over node:net and rcon-client's packet codec, so neither side is our connector.

import net from 'node:net';
import { decodePacket, encodePacket, type Packet } from 'rcon-client/lib/packet.js';
import { afterEach, describe, expect, it } from 'vitest';
import { eosId, type FakeArk, type FakeArkOptions, startFakeArk, steamId } from '../api/fakeArk.ts';

const NO_RESPONSE = 'Server received, But no response!!';

/** A bare RCON client: sends packets, hands out what arrives one packet at a time, counts raw bytes. */
class RawClient {
  bytes = 0;
  #buf = Buffer.alloc(0);
  #packets: Packet[] = [];
  #waiting: (() => void) | null = null;
  readonly closed: Promise<void>;

  private constructor(readonly socket: net.Socket) {
    socket.on('data', (chunk) => {
      this.bytes += chunk.length;
      this.#buf = Buffer.concat([this.#buf, chunk]);
      while (this.#buf.length >= 4 && this.#buf.length >= 4 + this.#buf.readInt32LE(0)) {
        const size = this.#buf.readInt32LE(0);
        this.#packets.push(decodePacket(this.#buf.subarray(0, 4 + size)));
        this.#buf = this.#buf.subarray(4 + size);
      }
      this.#waiting?.();
    });
    this.closed = new Promise((resolve) => socket.on('close', () => resolve()));
    this.closed.then(() => this.#waiting?.());
  }

  static connect(port: number): Promise<RawClient> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => resolve(new RawClient(socket)));
      socket.once('error', reject);
    });
  }

  send(id: number, type: number, body: string): void {
    this.socket.write(encodePacket({ id, type, payload: Buffer.from(body, 'utf8') }));
  }

  /** The next packet, or 'timeout' after ms, or 'closed' if the socket closes first. */
  async next(ms = 2000): Promise<Packet | 'timeout' | 'closed'> {
    const end = Date.now() + ms;
    while (!this.#packets.length) {
      if (this.socket.destroyed) return 'closed';
      const left = end - Date.now();
      if (left <= 0) return 'timeout';
      await Promise.race([
        new Promise<void>((r) => {
          this.#waiting = r;
        }),
        new Promise<void>((r) => setTimeout(r, left)),
      ]);
      this.#waiting = null;
    }
    return this.#packets.shift()!;
  }

  async packet(ms?: number): Promise<Packet> {
    const p = await this.next(ms);
    if (typeof p === 'string') throw new Error(`expected a packet, got ${p}`);
    return p;
  }

  /** Sends a command and returns its reply: one packet is enough for the short replies used here. */
  async command(id: number, line: string): Promise<string> {
    this.send(id, 2, line);
    const p = await this.packet();
    expect(p).toMatchObject({ id, type: 0 });
    return p.payload.toString('utf8');
  }

  close(): void {
    this.socket.destroy();
  }
}

const arks: FakeArk[] = [];
const clients: RawClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await Promise.all(arks.splice(0).map((a) => a.stop()));
});

async function ark(options: Partial<FakeArkOptions> = {}): Promise<FakeArk> {
  const a = await startFakeArk({ kind: 'ascended', password: 'pw', ...options });
  arks.push(a);
  return a;
}

async function client(a: FakeArk, authed = true): Promise<RawClient> {
  const c = await RawClient.connect(a.port);
  clients.push(c);
  if (authed) {
    c.send(7, 3, 'pw');
    expect(await c.packet()).toMatchObject({ id: 7, type: 2 });
  }
  return c;
}

describe('fake ARK: ids', () => {
  it('makes SteamID64 and EOS ids of the recorded shapes', () => {
    expect(steamId(42)).toMatch(/^7656119\d{10}$/);
    expect(eosId(42)).toMatch(/^0002[0-9a-f]{28}$/);
    expect(eosId(1)).not.toBe(eosId(2));
  });
});

describe('fake ARK: authentication', () => {
  it('answers a right password with one AUTH_RESPONSE echoing the id, nothing before it', async () => {
    const c = await client(await ark(), false);
    c.send(99, 3, 'pw');
    expect(await c.packet()).toMatchObject({ id: 99, type: 2 });
    expect(c.bytes).toBe(14);
  });

  it('answers a wrong password with id -1 by default and keeps the socket', async () => {
    const c = await client(await ark(), false);
    c.send(5, 3, 'nope');
    expect(await c.packet()).toMatchObject({ id: -1, type: 2 });
    c.send(6, 3, 'pw');
    expect(await c.packet()).toMatchObject({ id: 6, type: 2 });
  });

  it("says nothing to a wrong password with 'silence'", async () => {
    const c = await client(await ark({ wrongPassword: 'silence' }), false);
    c.send(5, 3, 'nope');
    expect(await c.next(200)).toBe('timeout');
    // Replies come in order, so a later auth answered first proves the first got no answer.
    c.send(6, 3, 'pw');
    expect(await c.packet()).toMatchObject({ id: 6, type: 2 });
  });

  it("closes the socket on a wrong password with 'close'", async () => {
    const c = await client(await ark({ wrongPassword: 'close' }), false);
    c.send(5, 3, 'nope');
    await c.closed;
    expect(await c.next()).toBe('closed');
  });

  it('ignores commands before auth', async () => {
    const a = await ark();
    const c = await client(a, false);
    c.send(1, 2, 'ListPlayers');
    c.send(2, 3, 'pw');
    expect(await c.packet()).toMatchObject({ id: 2, type: 2 });
    expect(a.commands).toEqual([]);
  });
});

describe('fake ARK: ListPlayers', () => {
  it('prints Ascended EOS ids and UTF-8 names as they are, commas and dots included', async () => {
    const a = await ark();
    a.players = [
      { name: 'Dr. Bones, Jr', id: eosId(1) },
      { name: 'Zoë 🦖', id: eosId(2) },
    ];
    const c = await client(a);
    expect(await c.command(1, 'listplayers')).toBe(
      `0. Dr. Bones, Jr, ${eosId(1)}\n1. Zoë 🦖, ${eosId(2)}\n\n`,
    );
    expect(a.commands).toEqual(['listplayers']);
  });

  it('prints Evolved SteamIDs and mangles non-ASCII to ?', async () => {
    const a = await ark({ kind: 'evolved' });
    a.players = [
      { name: 'Smokey, the Bear', id: steamId(1) },
      { name: 'Zoë 🦖', id: steamId(2) },
    ];
    const c = await client(a);
    expect(await c.command(1, 'ListPlayers')).toBe(
      `0. Smokey, the Bear, ${steamId(1)}\n1. Zo? ?, ${steamId(2)}\n\n`,
    );
  });

  it('says No Players Connected on an empty server', async () => {
    const c = await client(await ark());
    expect(await c.command(1, 'ListPlayers')).toBe('No Players Connected');
  });
});

describe('fake ARK: chat and logs', () => {
  it('splits a long GetChat into packets of one id, no end marker, lines in order', async () => {
    const a = await ark();
    const lines: string[] = [];
    for (let i = 0; i < 300; i++) {
      a.chat(`Player ${i}`, `Surv ${i}`, `message number ${i} ✓`);
      lines.push(`Player ${i} (Surv ${i}): message number ${i} ✓`);
    }
    const c = await client(a);
    c.send(10, 2, 'GetChat');
    c.send(11, 2, 'ListPlayers'); // answered after the whole GetChat: marks its end without a timer
    const parts: Buffer[] = [];
    for (let p = await c.packet(); p.id !== 11; p = await c.packet()) {
      expect(p).toMatchObject({ id: 10, type: 0 });
      expect(p.payload.length).toBeLessThanOrEqual(4086);
      parts.push(p.payload);
    }
    expect(parts.length).toBeGreaterThan(1);
    expect(Buffer.concat(parts).toString('utf8')).toBe(`${lines.join('\n')}\n`);
  });

  it('splits on bytes, even inside a multi-byte character', async () => {
    const a = await ark({ splitBytes: 5 });
    a.serverChat('xéé');
    const c = await client(a);
    c.send(1, 2, 'GetChat');
    c.send(2, 2, 'SaveWorld');
    const parts: Buffer[] = [];
    for (let p = await c.packet(); p.id === 1; p = await c.packet()) parts.push(p.payload);
    // "SERVER: xéé\n" is 14 bytes; the first é takes bytes 9-10, so the second packet ends inside it.
    expect(parts.map((b) => b.length)).toEqual([5, 5, 4]);
    expect(parts[1].toString('utf8')).toContain('\ufffd');
    expect(Buffer.concat(parts).toString('utf8')).toBe('SERVER: xéé\n');
  });

  it('drains GetChat and GetGameLog, each line once, then the no-response text in both forms', async () => {
    const a = await ark();
    a.chat('Colonel Dimanche', 'Bob', 'dfsd');
    a.adminCmd('showAdminManager', { name: 'AFP_Smokey', id: eosId(3) }, 827627995);
    a.tribeLog('Wolves', 12, 34, '12:01:02', 'Rex was killed');
    a.gameLog('Server started');
    const c = await client(a);
    expect(await c.command(1, 'GetChat')).toBe(
      'Colonel Dimanche (Bob): dfsd\n' +
        `AdminCmd: showAdminManager (PlayerName: AFP_Smokey, ARKID: 827627995, PlatformID: ${eosId(3)})\n` +
        'Tribe Wolves, ID 12: Day 34, 12:01:02: <RichColor Color="1, 0, 0, 1">Rex was killed</>)\n',
    );
    const first = await c.command(2, 'GetChat');
    const log = (await c.command(3, 'getgamelog')).split('\n');
    expect(log.slice(0, -1).every((l) => /^\d{4}\.\d\d\.\d\d_\d\d\.\d\d\.\d\d: /.test(l))).toBe(true);
    expect(log.map((l) => l.slice(21))).toEqual([
      'Colonel Dimanche (Bob): dfsd',
      expect.stringMatching(/^AdminCmd: showAdminManager/),
      'Server started',
      '',
    ]);
    const second = await c.command(4, 'GetGameLog');
    expect([first.trim(), second.trim()]).toEqual([NO_RESPONSE, NO_RESPONSE]);
    expect(first).not.toBe(second); // both recorded byte forms are served
  });

  it('writes Evolved AdminCmd lines with SteamID', async () => {
    const a = await ark({ kind: 'evolved' });
    a.adminCmd('cheat fly', { name: 'Smokey', id: steamId(4) }, 1);
    const c = await client(a);
    expect(await c.command(1, 'GetChat')).toBe(
      `AdminCmd: cheat fly (PlayerName: Smokey, ARKID: 1, SteamID: ${steamId(4)})\n`,
    );
  });

  it('shows ServerChat as SERVER: in the next GetChat', async () => {
    const c = await client(await ark());
    expect((await c.command(1, 'ServerChat hello all')).trim()).toBe(NO_RESPONSE);
    expect(await c.command(2, 'GetChat')).toBe('SERVER: hello all\n');
  });
});

describe('fake ARK: admin commands', () => {
  it('kicks, bans and unbans by id, case-insensitively, answering no-response', async () => {
    const a = await ark();
    a.players = [
      { name: 'A', id: eosId(1) },
      { name: 'B', id: eosId(2) },
      { name: 'C', id: eosId(3) },
    ];
    const c = await client(a);
    for (const [i, line] of [
      `KICKPLAYER ${eosId(1).toUpperCase()}`,
      `BanPlayer ${eosId(2)}`,
      `BanPlayer ${eosId(9)}`,
      `unbanplayer ${eosId(9)}`,
      'Broadcast hi',
      'SaveWorld',
      'DestroyWildDinos',
      'NoSuchCommand x',
    ].entries()) {
      expect((await c.command(i, line)).trim()).toBe(NO_RESPONSE);
    }
    expect(a.players.map((p) => p.name)).toEqual(['C']);
    expect([...a.bans]).toEqual([eosId(2)]);
    expect(a.commands).toHaveLength(8);
  });
});

describe('fake ARK: framing and network', () => {
  it('gives no answer to an empty RESPONSE_VALUE terminator', async () => {
    const c = await client(await ark());
    c.send(1, 2, 'SaveWorld');
    c.send(2, 0, '');
    c.send(3, 2, 'ListPlayers');
    expect(await c.packet()).toMatchObject({ id: 1, type: 0 });
    expect(await c.packet()).toMatchObject({ id: 3, type: 0 }); // nothing for id 2 in between
  });

  it('cuts the next reply after some bytes and destroys the socket', async () => {
    const a = await ark();
    a.players = [{ name: 'Someone with a long name', id: eosId(1) }];
    const c = await client(a);
    a.cutNextReply(20);
    c.send(1, 2, 'ListPlayers');
    await c.closed;
    expect(c.bytes).toBe(14 + 20);
    expect(await c.next()).toBe('closed');
    const d = await client(a); // still listening, the next reply is whole
    expect(await d.command(2, 'ListPlayers')).toContain('Someone with a long name');
  });

  it('drops every connection but keeps listening', async () => {
    const a = await ark();
    const c = await client(a);
    a.dropConnections();
    await c.closed;
    expect(a.connections).toBe(0);
    await client(a);
  });

  it("refuses connections while 'refuse' starting, until ready()", async () => {
    const a = await ark({ starting: 'refuse' });
    expect(a.port).toBeGreaterThan(0);
    await expect(RawClient.connect(a.port)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    await a.ready();
    await client(a);
  });

  it("accepts but answers nothing while 'silent' starting, until ready()", async () => {
    const a = await ark({ starting: 'silent' });
    const c = await client(a, false);
    c.send(1, 3, 'pw');
    expect(await c.next(200)).toBe('timeout');
    await a.ready();
    c.send(2, 3, 'pw');
    expect(await c.packet()).toMatchObject({ id: 2, type: 2 }); // the auth sent while silent stays unanswered
  });

  it('restarts on the same port', async () => {
    const a = await ark();
    const port = a.port;
    await a.stop();
    await expect(RawClient.connect(port)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    await a.start();
    expect(a.port).toBe(port);
    await client(a);
  });
});
