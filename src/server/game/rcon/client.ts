// The RCON client as ARK needs it (../shared/ARK-RCON.md). A general Source RCON client does not
// fit: the one we used resolved a request on its first packet, and Ascended splits a long reply
// into several packets with the same id and no end marker, so the rest of a GetChat backlog was
// lost for good (the game drains its buffer once read). Valve's way of finding a reply's end, an
// empty packet after each command, makes ARK hang. So a reply here is every packet of the
// command's id until none has come for a moment (`quietMs`, shorter after a packet too small to be
// part of a split), read as bytes and decoded once at the end (a split may fall inside a
// character). One command at a time, as ARK answers them.

import { type Socket, connect as tcpConnect } from 'node:net';
import { encodePacket, type Packet, PacketReader, PacketType, type RawPacket } from './codec.ts';

export interface RconClientOptions {
  host: string;
  port: number;
  password: string;
  /** Give up on the TCP connection after this long (a host that drops packets keeps it waiting). */
  connectMs: number;
  /** Give up on the login's answer after this long: a starting server, or a password answered by silence. */
  loginMs: number;
  /** Give up on a command whose first packet has not come after this long. */
  replyMs: number;
  /** A reply is complete once no packet of it has come for this long (the game sends no end marker). */
  quietMs: number;
  /**
   * The same after a packet shorter than SPLIT_FLOOR_BYTES, which cannot be the middle of a split
   * reply (a split fills its packets): only a stray late packet could follow it.
   */
  shortQuietMs: number;
}

/**
 * The longest reply read; a longer one ends the connection. The game's longest, a GetChat or
 * GetGameLog backlog at its buffer's cap, is about a megabyte; an address is a subscriber's
 * choice, and what answers there could otherwise stream into memory for the whole reply time.
 */
export const MAX_REPLY_BYTES = 8 * 1024 * 1024;

/**
 * Below this, a packet is taken for a reply's last. The size at which Ascended splits is not
 * verified (../shared/ARK-RCON.md "Framing"; Valve's limit is 4096 bytes); anything from 1 KiB up
 * leaves a split's full packets above it.
 */
export const SPLIT_FLOOR_BYTES = 1024;

/** Why a connection or a command failed, for the words the server list shows (connector.ts). */
export type RconFailureCause =
  | 'refused'
  | 'connectTimeout'
  | 'unreachable'
  | 'loginTimeout'
  | 'wrongPassword'
  | 'closedDuringLogin'
  | 'closed'
  | 'replyTimeout'
  | 'replyTooLarge'
  | 'protocol';

export class RconError extends Error {
  constructor(
    readonly cause: RconFailureCause,
    message: string,
    /** The system's own reason (an errno code), for the operator's log. */
    readonly detail?: string,
  ) {
    super(message);
  }
}

/** Packets the login skips before the answer: SRCDS sends an empty reply first; ARK is not known to. */
const LOGIN_SKIPS = 3;

/** What the packets read now are for: the login's answer or a command's reply. */
interface Pending {
  onPacket(p: RawPacket): void;
  fail(e: RconError): void;
}

export class RconClient {
  private readonly reader = new PacketReader();
  private nextId = 1;
  private pending: Pending | null = null;
  private turn: Promise<unknown> = Promise.resolve();
  private ended: RconError | null = null;
  /** Called once when the connection ends, whoever ended it. */
  onClose: (e: RconError) => void = () => {};

  private constructor(
    private readonly socket: Socket,
    private readonly opts: RconClientOptions,
  ) {
    socket.on('data', (chunk) => this.receive(chunk));
    socket.on('error', () => {});
    socket.on('close', () => this.end(new RconError('closed', 'The server closed the connection.')));
  }

  /** Connects and logs in; rejects with an RconError naming the cause. */
  static async connect(opts: RconClientOptions): Promise<RconClient> {
    const client = new RconClient(await openSocket(opts), opts);
    try {
      await client.login();
    } catch (e) {
      client.close();
      const closed = (e as RconError).cause === 'closed';
      throw closed
        ? new RconError('closedDuringLogin', 'The server closed the connection during the login.')
        : e;
    }
    return client;
  }

  /** Runs one console command and resolves with its whole reply, after the commands sent before it. */
  send(command: string): Promise<string> {
    const run = () => this.request(command);
    const next = this.turn.then(run, run);
    this.turn = next.catch(() => {});
    return next;
  }

  close(): void {
    this.fail(new RconError('closed', 'The connection was closed.'));
  }

  get isOpen(): boolean {
    return this.ended === null;
  }

  /** Waits for `pending`'s outcome, failing the connection after `ms` with `onTimeout`. */
  private exchange<T>(
    packet: Omit<Packet, 'id'>,
    ms: number,
    onTimeout: () => RconError,
    handle: (id: number, p: RawPacket, done: (v: T) => void, fail: (e: RconError) => void) => void,
  ): Promise<T> {
    if (this.ended) return Promise.reject(this.ended);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      // An answer that comes later would be read as the next command's: the connection ends.
      const timer = setTimeout(() => this.fail(onTimeout()), ms);
      const settle = () => {
        clearTimeout(timer);
        this.pending = null;
      };
      const done = (v: T) => {
        settle();
        resolve(v);
      };
      const fail = (e: RconError) => {
        settle();
        reject(e);
      };
      this.pending = { onPacket: (p) => handle(id, p, done, fail), fail };
      this.socket.write(encodePacket({ ...packet, id }));
    });
  }

  private async login(): Promise<void> {
    let skipped = 0;
    await this.exchange<void>(
      { type: PacketType.auth, body: this.opts.password },
      this.opts.loginMs,
      () => new RconError('loginTimeout', 'No answer to the login.'),
      (id, p, done, fail) => {
        if (p.type === PacketType.authResponse && p.id === -1)
          fail(new RconError('wrongPassword', 'The server refused the password.'));
        else if (p.type === PacketType.authResponse && p.id === id) done();
        else if (++skipped > LOGIN_SKIPS)
          fail(new RconError('protocol', 'The server answered the login with something else.'));
      },
    );
  }

  private async request(command: string): Promise<string> {
    const chunks: Buffer[] = [];
    let bytes = 0;
    let quiet: NodeJS.Timeout | undefined;
    /** Packets of this reply read so far, and whether it is over: see `quietFor`. */
    let read = 0;
    let over = false;
    /**
     * Ends the reply once no packet of it has come for `ms`. Timers run before the loop reads its
     * sockets, so a loop busy for longer than `ms` (other servers' replies, the database) found
     * the quiet over with the next packet already waiting unread: the reply ended early and the
     * rest was thrown away as stray. The end waits one turn of the loop, after its reads.
     */
    const quietFor = (ms: number, done: () => void) => {
      const at = read;
      quiet = setTimeout(
        () =>
          setImmediate(() => {
            if (read === at && !over) done();
          }),
        ms,
      );
    };
    try {
      await this.exchange<void>(
        { type: PacketType.execCommand, body: command },
        this.opts.replyMs,
        () => new RconError('replyTimeout', `No answer within ${this.opts.replyMs / 1000} s.`),
        (id, p, done) => {
          // A packet of an earlier command, or one nobody asked for, is not this reply's.
          if (p.id !== id || p.type !== PacketType.responseValue) return;
          bytes += p.payload.length;
          if (bytes > MAX_REPLY_BYTES) {
            this.fail(new RconError('replyTooLarge', `A reply passed ${MAX_REPLY_BYTES} bytes.`));
            return;
          }
          chunks.push(p.payload);
          read++;
          clearTimeout(quiet);
          const short = p.payload.length < SPLIT_FLOOR_BYTES;
          quietFor(short ? this.opts.shortQuietMs : this.opts.quietMs, done);
        },
      );
    } finally {
      over = true;
      clearTimeout(quiet);
    }
    // Decoded once whole: a split inside a character, or the stray bytes Ascended sometimes
    // sends, become U+FFFD rather than an error.
    return Buffer.concat(chunks).toString('utf8');
  }

  private receive(chunk: Buffer): void {
    let packets: RawPacket[];
    try {
      packets = this.reader.push(chunk);
    } catch (e) {
      this.fail(new RconError('protocol', (e as Error).message));
      return;
    }
    for (const p of packets) this.pending?.onPacket(p);
  }

  private fail(e: RconError): void {
    this.end(e);
    this.socket.destroy();
  }

  private end(e: RconError): void {
    if (this.ended) return;
    this.ended = e;
    this.pending?.fail(e);
    this.onClose(e);
  }
}

/** The TCP connection, or an RconError: refused, timed out, or no route. */
function openSocket(opts: RconClientOptions): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = tcpConnect({ host: opts.host, port: opts.port });
    socket.setNoDelay(true);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new RconError('connectTimeout', 'No answer to the connection.', 'ETIMEDOUT'));
    }, opts.connectMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.removeAllListeners('error');
      resolve(socket);
    });
    socket.once('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(
        e.code === 'ECONNREFUSED'
          ? new RconError('refused', 'The connection was refused.', e.code)
          : e.code === 'ETIMEDOUT'
            ? new RconError('connectTimeout', 'No answer to the connection.', e.code)
            : new RconError('unreachable', e.message, e.code),
      );
    });
  });
}
