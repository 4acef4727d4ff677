// A fake ARK game server (Survival Evolved or Ascended) speaking Source RCON over TCP, built from
// the records in /work/shared/ARK-RCON.md (cited below as "§Section"), not from our simulator, so
// the RCON connector is tested against what the real game is recorded to do.
// Framing comes from rcon-client (a library we did not write); stream splitting is done here.

import net from 'node:net';
import { decodePacket, encodePacket } from 'rcon-client/lib/packet.js';

export type ArkKind = 'evolved' | 'ascended';
export interface FakeArkPlayer {
  name: string;
  id: string; // SteamID64 (17 digits, Evolved) or EOS id (32 hex starting 0002, Ascended)
}
export interface FakeArkOptions {
  kind: ArkKind;
  password: string;
  /** How a wrong password is answered: AUTH_RESPONSE with id -1 (default), no answer at all, or the socket closed. */
  wrongPassword?: 'minusOne' | 'silence' | 'close';
  /** Most body bytes per RESPONSE_VALUE packet; a longer reply goes in several packets with the same id and no end marker. Default 4096 - 10. Split on BYTES of the UTF-8 body, even inside a multi-byte character. */
  splitBytes?: number;
  /** While starting: 'refuse' = not listening yet (connection refused), 'silent' = accepts TCP but never answers anything. Ends with ready(). Default: ready at once. */
  starting?: 'refuse' | 'silent';
  /** The port to listen on; default a free one. */
  port?: number;
}
/** The phase a start() begins in: the same choices as FakeArkOptions.starting. */
export type FakeArkStarting = 'refuse' | 'silent';
export interface FakeArk {
  readonly port: number; // after start(): where a client connects
  readonly kind: ArkKind; // decides id shapes, AdminCmd's id key and Unicode mangling
  players: FakeArkPlayer[]; // online now, in order; ListPlayers prints them
  readonly commands: string[]; // every command line received after auth, in order, as sent
  readonly bans: Set<string>; // ids (lower-cased) banned by BanPlayer, removed by UnbanPlayer
  /** Listens on 127.0.0.1 (a free port the first time, the same port later). `starting` re-enters a starting phase on a restart (default: options.starting on the first start, ready on later ones). */
  start(starting?: FakeArkStarting): Promise<void>;
  stop(): Promise<void>; // close the server and every socket (state such as players and buffers is kept)
  ready(): Promise<void>; // end the starting phase: start listening ('refuse') or answering ('silent')
  dropConnections(): void; // destroy every open socket (a network cut); keeps listening
  cutNextReply(afterBytes: number): void; // next command reply: write only afterBytes bytes, then destroy the socket
  chat(name: string, character: string, text: string): void; // "Name (Character): text" in GetChat and the game log
  serverChat(text: string): void; // "SERVER: text" in GetChat and the game log
  adminCmd(command: string, player: FakeArkPlayer, arkId: number): void; // "AdminCmd: …" in GetChat and the game log
  tribeLog(tribe: string, tribeId: number, day: number, time: string, text: string): void; // a tribe log line in GetChat only
  gameLog(text: string): void; // "yyyy.mm.dd_hh.mm.ss: text" (local time of now) in GetGameLog
  afterCommand: ((line: string) => void) | null; // called once each command is answered: a test acts between a client's commands
  readonly connections: number; // sockets open now: lets a test await a (re)connection instead of sleeping
  readonly accepted: number; // sockets ever accepted: a reconnection shows as one more
}

/** Packet types (§Authentication): client AUTH 3 and EXECCOMMAND 2, server AUTH_RESPONSE 2 and RESPONSE_VALUE 0. */
const AUTH = 3;
const EXEC_OR_AUTH_RESPONSE = 2;
const RESPONSE_VALUE = 0;
/** §The reply to a command with no output: both recorded byte forms, alternated so clients must trim. */
export const NO_RESPONSE = ['Server received, But no response!! \n ', 'Server received, But no response!! '];
/** A size field beyond this is garbage, not a packet: drop the socket rather than buffer without end. */
const MAX_PACKET = 1 << 20;

/** A SteamID64-looking id (§ListPlayers: Evolved ids are 17 digits, 76561198…). */
export function steamId(n: number): string {
  return `7656119${String(Math.abs(Math.trunc(n)) % 1e10).padStart(10, '0')}`;
}

/** An EOS product user id (§ListPlayers: Ascended ids are 32 hex digits starting 0002). */
export function eosId(n: number): string {
  return `0002${Math.abs(Math.trunc(n)).toString(16).padStart(28, '0').slice(-28)}`;
}

/** §GetGameLog: `yyyy.mm.dd_hh.mm.ss` in the server's local time. */
function stamp(d = new Date()): string {
  const p = (v: number) => String(v).padStart(2, '0');
  return `${d.getFullYear()}.${p(d.getMonth() + 1)}.${p(d.getDate())}_${p(d.getHours())}.${p(d.getMinutes())}.${p(d.getSeconds())}`;
}

/** Removes one pair of surrounding quotes: admin consoles send `ServerChatTo "<id>" …` style ids. */
const unquote = (s: string) => s.trim().replace(/^"(.*)"$/, '$1');

export async function startFakeArk(options: FakeArkOptions): Promise<FakeArk> {
  const ark = new Ark(options);
  await ark.start();
  return ark;
}

type Conn = { socket: net.Socket; buf: Buffer; authed: boolean };

class Ark implements FakeArk {
  readonly kind: ArkKind;
  players: FakeArkPlayer[] = [];
  readonly commands: string[] = [];
  readonly bans = new Set<string>();
  afterCommand: ((line: string) => void) | null = null;
  #port = 0;
  #accepted = 0;
  #server: net.Server | null = null;
  #conns = new Set<Conn>();
  #phase: FakeArkStarting | null = null;
  #started = false;
  #chat: string[] = [];
  #log: string[] = [];
  #noResponseTurn = 0;
  #cut: number | null = null;

  constructor(private readonly options: FakeArkOptions) {
    this.kind = options.kind;
    this.#port = options.port ?? 0;
  }

  get port(): number {
    return this.#port;
  }
  get accepted(): number {
    return this.#accepted;
  }
  get connections(): number {
    return this.#conns.size;
  }

  async start(starting?: FakeArkStarting): Promise<void> {
    if (this.#server) return; // already listening
    this.#phase = starting ?? (this.#started ? null : (this.options.starting ?? null));
    this.#started = true;
    if (this.#phase !== 'refuse') return this.#listen();
    // §Setup and transport: the port opens late ("connection refused"). Reserve a free port now so
    // a client can be pointed at it, then free it until ready().
    if (!this.#port) {
      await this.#listen();
      await this.stop();
    }
  }

  async ready(): Promise<void> {
    const was = this.#phase;
    this.#phase = null;
    if (was === 'refuse') await this.#listen();
  }

  async stop(): Promise<void> {
    this.dropConnections();
    const server = this.#server;
    this.#server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  dropConnections(): void {
    for (const c of this.#conns) c.socket.destroy();
    this.#conns.clear();
  }

  cutNextReply(afterBytes: number): void {
    this.#cut = afterBytes;
  }

  chat(name: string, character: string, text: string): void {
    // §GetChat: "PlatformName (CharacterName): message", and §GetGameLog: chat is copied into the log.
    this.#say(`${name} (${character}): ${text}`);
  }

  serverChat(text: string): void {
    this.#say(`SERVER: ${text}`); // §GetChat console line; the Python sample shows it in the game log too.
  }

  adminCmd(command: string, player: FakeArkPlayer, arkId: number): void {
    // §GetChat: Evolved names the SteamID, Ascended the EOS PlatformID; quoted "from a real ASA server log".
    const idKey = this.kind === 'evolved' ? 'SteamID' : 'PlatformID';
    this.#say(`AdminCmd: ${command} (PlayerName: ${player.name}, ARKID: ${arkId}, ${idKey}: ${player.id})`);
  }

  tribeLog(tribe: string, tribeId: number, day: number, time: string, text: string): void {
    // §GetChat (ServerRCONOutputTribeLogs): the shape is recorded, the exact line is not verified.
    this.#chat.push(
      `Tribe ${tribe}, ID ${tribeId}: Day ${day}, ${time}: <RichColor Color="1, 0, 0, 1">${text}</>)`,
    );
  }

  gameLog(text: string): void {
    this.#log.push(`${stamp()}: ${text}`);
  }

  #say(line: string): void {
    this.#chat.push(line);
    this.gameLog(line);
  }

  async #listen(): Promise<void> {
    const server = net.createServer((socket) => this.#accept(socket));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.#port, '127.0.0.1', () => resolve());
    });
    this.#port = (server.address() as net.AddressInfo).port;
    this.#server = server;
  }

  #accept(socket: net.Socket): void {
    this.#accepted++;
    const conn: Conn = { socket, buf: Buffer.alloc(0), authed: false };
    this.#conns.add(conn);
    socket.on('close', () => this.#conns.delete(conn));
    socket.on('error', () => {}); // a client vanishing is normal here, not a test failure
    socket.on('data', (chunk) => {
      conn.buf = Buffer.concat([conn.buf, chunk]);
      // Our own stream splitting: a chunk may hold several packets or part of one.
      while (conn.buf.length >= 4 && !socket.destroyed) {
        const size = conn.buf.readInt32LE(0);
        if (size < 10 || size > MAX_PACKET) return void socket.destroy();
        if (conn.buf.length < 4 + size) return;
        const packet = decodePacket(conn.buf.subarray(0, 4 + size));
        conn.buf = conn.buf.subarray(4 + size);
        // 'silent' starting: TCP is up but the game answers nothing; what arrives now is dropped.
        if (this.#phase !== 'silent')
          this.#handle(conn, packet.id, packet.type, packet.payload.toString('utf8'));
      }
    });
  }

  // Packets are handled one by one as they are read, so replies go out in request order
  // (§Framing: ARK handles one request at a time).
  #handle(conn: Conn, id: number, type: number, body: string): void {
    if (type === AUTH) {
      conn.authed = body === this.options.password;
      // §Authentication: one AUTH_RESPONSE, no empty RESPONSE_VALUE before it; -1 on a wrong password,
      // though some servers hang or disconnect instead.
      const how = conn.authed ? 'ok' : (this.options.wrongPassword ?? 'minusOne');
      if (how === 'close') conn.socket.destroy();
      else if (how !== 'silence') {
        const payload = Buffer.alloc(0);
        this.#write(conn, encodePacket({ id: how === 'ok' ? id : -1, type: EXEC_OR_AUTH_RESPONSE, payload }));
      }
      return;
    }
    // §Framing: Valve's empty RESPONSE_VALUE terminator is not mirrored by ARK; any type 0 is ignored.
    // Commands before auth are ignored too (no answer, socket kept), like a server that hangs.
    if (type !== EXEC_OR_AUTH_RESPONSE || !conn.authed) return;
    this.commands.push(body);
    this.#reply(conn, id, this.#run(body));
    this.afterCommand?.(body);
  }

  /** Runs one command line; returns the reply text. §Setup: case-insensitive, no `admincheat` prefix. */
  #run(line: string): string {
    const trimmed = line.trim();
    const space = trimmed.search(/\s/);
    const name = (space < 0 ? trimmed : trimmed.slice(0, space)).toLowerCase();
    const arg = space < 0 ? '' : trimmed.slice(space + 1).trim();
    const sameId = (p: FakeArkPlayer) => p.id.toLowerCase() === unquote(arg).toLowerCase(); // §ListPlayers: EOS ids in either case
    switch (name) {
      case 'listplayers':
        // §ListPlayers: "N. Name, ID" from 0; blank lines may surround the list.
        if (!this.players.length) return 'No Players Connected';
        return `${this.players.map((p, i) => `${i}. ${p.name}, ${p.id}`).join('\n')}\n\n`;
      case 'getchat':
        return this.#drain(this.#chat); // §GetChat: consumed on read
      case 'getgamelog':
        return this.#drain(this.#log); // §GetGameLog: drained like GetChat
      case 'serverchat':
        this.serverChat(arg);
        break;
      case 'banplayer':
      case 'kickplayer':
        // A ban also kicks, as in the game; bans are lower-cased so bans.has(eosId(n)) works whatever case was sent.
        if (name === 'banplayer') this.bans.add(unquote(arg).toLowerCase());
        this.players = this.players.filter((p) => !sameId(p));
        break;
      case 'unbanplayer':
        this.bans.delete(unquote(arg).toLowerCase());
        break;
      // Broadcast, SaveWorld, DestroyWildDinos and anything unknown print nothing.
    }
    return this.#noResponse();
  }

  #drain(buffer: string[]): string {
    if (!buffer.length) return this.#noResponse();
    return `${buffer.splice(0).join('\n')}\n`;
  }

  #noResponse(): string {
    return NO_RESPONSE[this.#noResponseTurn++ % NO_RESPONSE.length];
  }

  /** Sends a reply as RESPONSE_VALUE packets of at most splitBytes body bytes each (§Framing), no end marker. */
  #reply(conn: Conn, id: number, text: string): void {
    // §GetChat Unicode: Evolved's RCON mangles non-ASCII; Ascended sends UTF-8 as is.
    const out = this.kind === 'evolved' ? text.replace(/[^\x00-\x7f]/gu, '?') : text;
    const body = Buffer.from(out, 'utf8');
    const step = Math.max(1, this.options.splitBytes ?? 4096 - 10);
    const packets: Buffer[] = [];
    for (let at = 0; at === 0 || at < body.length; at += step) {
      packets.push(encodePacket({ id, type: RESPONSE_VALUE, payload: body.subarray(at, at + step) }));
    }
    const bytes = Buffer.concat(packets);
    const keep = this.#cut;
    this.#cut = null;
    if (keep === null) this.#write(conn, bytes);
    // cutNextReply: a network cut mid-reply; the command itself already took effect (a drain is lost).
    else conn.socket.write(bytes.subarray(0, keep), () => conn.socket.destroy());
  }

  #write(conn: Conn, bytes: Buffer): void {
    if (!conn.socket.destroyed) conn.socket.write(bytes);
  }
}
