// The simulated game server's RCON side, as ARK's own RCON behaves: a password, then console
// commands. ListPlayers answers from the world; GetChat and GetGameLog hand out what was said and
// logged since the previous call (the game keeps one buffer per server, whoever asks), so a
// client that is away finds everything waiting when it comes back. Any other command is an admin
// console command, run as the link runs it.

import { createServer, type Server, type Socket } from 'node:net';
import type { LinkEvent } from '../domain/link.ts';
import { encodePacket, PacketReader, PacketType, RconProtocolError } from '../server/game/rcon/codec.ts';

/** What ARK answers to a command that prints nothing. */
export const RCON_NO_RESPONSE = 'Server received, But no response!!';
/** Lines the game keeps for pollers before dropping the oldest (it has a cap too). */
const BUFFER_LINES = 5_000;

export interface RconListenerOptions {
  host?: string;
  port: number;
  password: string;
  /** Runs an admin console command and returns its printed answer. */
  admin(command: string): string;
  log(line: string): void;
}

/** ARK's game log time stamp: 2026.11.24_04.15.00 (server local time; UTC here). */
export function gameLogStamp(epochSeconds: number): string {
  const d = new Date(epochSeconds * 1000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}.${p(d.getUTCMonth() + 1)}.${p(d.getUTCDate())}_${p(d.getUTCHours())}.${p(d.getUTCMinutes())}.${p(d.getUTCSeconds())}`;
}

/** Joins and leaves show in ListPlayers, chat in GetChat; everything else the game logs. */
const NOT_IN_GAME_LOG = new Set(['chat', 'playerJoined', 'playerLeft']);

export class RconListener {
  private server: Server | null = null;
  private starting: Promise<void> | null = null;
  /** The port first bound, kept so a restart listens where clients were told to connect. */
  private boundPort: number | null = null;
  private readonly sockets = new Set<Socket>();
  private chat: string[] = [];
  private gameLog: string[] = [];

  constructor(private readonly opts: RconListenerOptions) {}

  /** Records what a poller will read: chat lines as "Sender (Character): text", the rest as log lines. */
  record(e: LinkEvent): void {
    if (e.eventName === 'chat') {
      const m = e.metadata;
      const text = String(m.originalMessage ?? '');
      const sender = String(m.senderName ?? 'Unknown');
      keep(this.chat, m.source === 'Game' ? `${sender} (${sender}): ${text}` : `${sender}: ${text}`);
    } else if (e.eventName === 'broadcasted') {
      keep(this.chat, `SERVER: ${String(e.metadata.originalMessage ?? '')}`);
    }
    if (!NOT_IN_GAME_LOG.has(e.eventName)) keep(this.gameLog, `${gameLogStamp(e.time)}: ${e.message}`);
  }

  private answer(command: string): string {
    const [verb] = command.trim().split(/\s+/);
    switch (verb.toLowerCase()) {
      case 'getchat':
        return this.drain('chat');
      case 'getgamelog':
        return this.drain('gameLog');
      default:
        return this.opts.admin(command);
    }
  }

  private drain(which: 'chat' | 'gameLog'): string {
    const lines = this[which];
    this[which] = [];
    return lines.length === 0 ? RCON_NO_RESPONSE : `${lines.join('\n')}\n`;
  }

  get port(): number {
    const a = this.server?.address();
    return typeof a === 'object' && a ? a.port : (this.boundPort ?? this.opts.port);
  }

  /** Clients connected now (a test checks there is never more than one poller). */
  get clients(): number {
    return this.sockets.size;
  }

  get listening(): boolean {
    return this.server !== null;
  }

  /** Listens (again, after stop, on the same port); resolves once clients can connect. */
  start(): Promise<void> {
    this.starting ??= (async () => {
      const server = createServer((socket) => this.serve(socket));
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(this.boundPort ?? this.opts.port, this.opts.host ?? '127.0.0.1', () => resolve());
      });
      this.server = server;
      this.boundPort = this.port;
      this.opts.log(`RCON listening on ${this.port}`);
    })().catch((e) => {
      this.starting = null;
      throw e;
    });
    return this.starting;
  }

  /** Stops listening and drops every client, as a game server going down does; buffers stay. */
  async stop(): Promise<void> {
    await this.starting?.catch(() => {});
    const server = this.server;
    if (!server) return;
    this.server = null;
    this.starting = null;
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private serve(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    const reader = new PacketReader();
    let authed = false;
    socket.on('data', (chunk) => {
      let packets: ReturnType<PacketReader['push']>;
      try {
        packets = reader.push(chunk);
      } catch (e) {
        if (e instanceof RconProtocolError) socket.destroy();
        return;
      }
      for (const p of packets) {
        if (p.type === PacketType.auth) {
          authed = p.payload.toString('utf8') === this.opts.password;
          // ARK answers the auth packet alone (no empty RESPONSE_VALUE first), -1 for a wrong password.
          socket.write(encodePacket({ id: authed ? p.id : -1, type: PacketType.authResponse, body: '' }));
          continue;
        }
        if (!authed) {
          socket.destroy();
          return;
        }
        if (p.type !== PacketType.execCommand) continue;
        socket.write(
          encodePacket({
            id: p.id,
            type: PacketType.responseValue,
            body: this.answer(p.payload.toString('utf8')),
          }),
        );
      }
    });
  }
}

function keep(lines: string[], line: string): void {
  lines.push(line);
  if (lines.length > BUFFER_LINES) lines.splice(0, lines.length - BUFFER_LINES);
}
