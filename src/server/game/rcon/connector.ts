// The RCON connector: one persistent connection per RCON server across every server process.
// A process holds a server by its lease (a row of rcon_leases: holder and until, renewed every
// `renewMs`); a server whose holder stopped renewing is taken over once the lease runs out.
// The holder polls ListPlayers, GetChat and GetGameLog and stores what they say through the
// link's ingestion (link/ingest.ts), so log lines, chat, player sessions, name changes and
// realtime events are the same whichever way a server connects.
//
// Nothing lost or doubled (docs/api.md "RCON"):
// - Sessions and names are diffed against the database (open sessions, current names), not
//   against memory, so a reconnect, a restart or a takeover by another process starts from what
//   is stored and repeats no join, leave or rename.
// - GetChat and GetGameLog hand out each line once (the game drains its buffer); the game keeps
//   lines while nobody polls, so an outage delays them and loses none. Each line read gets a key
//   at once and waits in memory (Unstored) until stored; storing is idempotent on (service,
//   rcon_key), so a retry after a failed or uncertain commit stores it once.

import { randomUUID } from 'node:crypto';
import type { GameKind } from '../../../domain/gameIds.ts';
import type { GameCommand } from '../../../domain/link.ts';
import { linkRefusals } from '../../billing/limits.ts';
import type { Bus } from '../../cluster/bus.ts';
import type { ServerContext } from '../../context.ts';
import { unseal } from '../../crypto.ts';
import { ApiException, serviceNotConnected } from '../../http/errors.ts';
import { publishServiceChanged, updateService } from '../../model/service.ts';
import type { GameEvent } from '../../model/world.ts';
import { OutboundRefused, resolveOutbound } from '../../net/outbound.ts';
import { forwardedCommands } from '../forward.ts';
import { groupStore, publishLogChange, recordConnect, recordDisconnectBy } from '../ingest.ts';
import { afterStored } from '../pipeline.ts';
import { MAX_REPLY_BYTES, RconClient, RconError, type RconFailureCause } from './client.ts';
import {
  chatFeedEvent,
  gameLogEvent,
  joinedEvent,
  kindOf,
  leftEvent,
  parseChatFeed,
  parseGameLog,
  parseListPlayers,
  type RconPlayer,
  readChatLine,
  renamedEvent,
  saysNothing,
} from './parse.ts';
import { toRconCommand } from './translate.ts';

export interface RconTimings {
  /** How often a connected server is asked for players, chat and its game log. */
  pollMs: number;
  /** How long a lease holds without renewal: a dead holder's servers move within this (plus renewMs). */
  leaseMs: number;
  renewMs: number;
  /** Reconnect back-off: base doubling per failed attempt up to max, with jitter. */
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** Give up on one RCON answer (and on connecting, and on the login) after this long. */
  commandMs: number;
  /** A reply is whole once no packet of it has come for this long (client.ts), shorter after a short packet. */
  quietMs: number;
  shortQuietMs: number;
  /** A reconnect within this long removes the disconnect's line (as for the link). */
  reconnectGraceMs: number;
  /**
   * A drop shorter than this ends no session and re-joins nobody: the server shows it is
   * reconnecting, and players seen after it simply stay (docs/servers-connecting.md "Drops").
   */
  dropGraceMs: number;
  /**
   * A server that refuses or does not answer within this long of its first failure is taken to be
   * starting (Ascended opens RCON 30–120 s after start), waited for and retried every `startingRetryMs`.
   */
  startingWaitMs: number;
  startingRetryMs: number;
}

/**
 * Lines of a server stored per batch: a quiet poll's lines at once, a reconnect's backlog in turns,
 * so the other servers' batches wait behind one group at most (see groupStore).
 */
const FLUSH_BATCH = 10;

/**
 * Game-log batches a poll stores, after its players and chat: the log a server kept through an
 * outage (the game keeps thousands of lines) is stored over the polls that follow, so the chat
 * said meanwhile is not kept behind it. 200 lines a poll outpaces any game's log.
 */
const GAME_LOG_BATCHES_PER_POLL = 20;

/**
 * Every poll asks for chat, which players wait to see; every second one for who is online (a join
 * or leave shows within two intervals, and at once when someone new talks), every third for the
 * game log, which holds no chat and keeps its lines until read (the first poll after a connect
 * among them: what the game kept meanwhile is read at once). Each question is a round trip the
 * game answers one at a time, and most answers say nothing new: asking all three every interval
 * cost holding 500 servers about 15 % more CPU, and the API's p99 with them.
 */
const PLAYERS_EVERY = 2;
const GAME_LOG_EVERY = 3;

/**
 * Game-log lines left for later polls at most: past it a poll stores the excess too, as it stored
 * everything before, so a server whose log outpaces the polls (or one that is not a game) holds
 * no more than this in memory.
 */
const GAME_LOG_UNSTORED_MAX = 10_000;

const DEFAULT_TIMINGS: RconTimings = {
  pollMs: 2_000,
  leaseMs: 6_000,
  renewMs: 1_500,
  backoffBaseMs: 1_000,
  backoffMaxMs: 30_000,
  commandMs: 10_000,
  quietMs: 200,
  shortQuietMs: 50,
  reconnectGraceMs: 120_000,
  dropGraceMs: 60_000,
  startingWaitMs: 180_000,
  startingRetryMs: 5_000,
};

/** Where and how to reach one server, as its row says. */
interface Target {
  serviceId: string;
  host: string;
  port: number;
  sealed: string;
}

const sameTarget = (a: Target, b: Target) => a.host === b.host && a.port === b.port && a.sealed === b.sealed;

/** Causes that a server still starting shows (it refuses, or accepts and says nothing yet), in words. */
const STARTING_SAYS: Partial<Record<RconFailureCause, string>> = {
  refused: 'the connection is refused',
  connectTimeout: 'the connection is not answered',
  loginTimeout: 'the login is not answered',
};

/**
 * Why a connection failed, in the words the server list shows, naming the real cause so the admin
 * looks in the right place. Addresses pass the outbound policy first (net/outbound.ts), so these
 * words say nothing about a private network that a scanner could use.
 */
export function rconFailure(
  e: unknown,
  t: Pick<Target, 'host' | 'port'>,
  timings: Pick<RconTimings, 'commandMs'>,
  starting = false,
): string {
  const where = `${t.host}:${t.port}`;
  if (e instanceof OutboundRefused) return `RCON address ${e.message}`;
  const code = (e as { code?: string }).code;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `Unknown host ${t.host}.`;
  if (!(e instanceof RconError)) return `RCON at ${where} failed: ${(e as Error).message ?? String(e)}`;
  if (starting && STARTING_SAYS[e.cause])
    return `Waiting for RCON at ${where} (${STARTING_SAYS[e.cause]} so far): a server that is starting opens it up to two minutes after start.`;
  const secs = timings.commandMs / 1000;
  switch (e.cause) {
    case 'refused':
      return `RCON at ${where} refused the connection: check that the server runs with RCONEnabled=True and RCONPort=${t.port}.`;
    case 'connectTimeout':
      return `RCON at ${where} did not answer the connection within ${secs} s: check the address, the port and the firewall.`;
    case 'unreachable':
      return `No route to ${where}: check the address.`;
    case 'loginTimeout':
      return `RCON at ${where} accepted the connection but did not answer the login within ${secs} s: the server may still be starting, or the password is wrong (ARK sometimes answers a wrong one with silence).`;
    case 'wrongPassword':
      return "Wrong RCON password: the server refused it (it is the server's ServerAdminPassword).";
    case 'closedDuringLogin':
      return `RCON at ${where} closed the connection during the login: check the password (the server's ServerAdminPassword).`;
    case 'closed':
      return `RCON at ${where} closed the connection.`;
    case 'replyTimeout':
      return `RCON at ${where} stopped answering (no reply within ${secs} s).`;
    case 'replyTooLarge':
      return `RCON at ${where} sent a reply of more than ${MAX_REPLY_BYTES / 1024 / 1024} MiB, far more than a game sends: it was dropped, and the connection made again.`;
    case 'protocol':
      return `What answers at ${where} does not speak RCON: check the port (RCONPort, not the game port).`;
  }
}

/**
 * The wait before reconnect attempt `attempts` (1 = the first retry): doubling from the base up to
 * the cap, the upper half of it at random, so servers that dropped together do not retry together.
 */
export function reconnectDelay(
  attempts: number,
  t: Pick<RconTimings, 'backoffBaseMs' | 'backoffMaxMs'>,
  random = Math.random,
): number {
  const ms = Math.min(t.backoffMaxMs, t.backoffBaseMs * 2 ** Math.max(0, attempts - 1));
  return ms / 2 + random() * (ms / 2);
}

/** What a server shows through a drop's grace, before the cause. */
const DROPPED = 'The connection dropped; reconnecting.';

/** Text the tables can hold: no NUL. */
const storable = (text: string) => text.replace(/\0/g, '');

/**
 * Who is online as the last poll saw them, by game id; `who` is the same for every id of one
 * player (their player id when read from the database, else the game id).
 */
type Online = Map<string, RconPlayer & { who: string }>;

/** `online` with `players` in it: those it did not hold as their own game ids until stored. */
const withPlayers = (online: Online, players: readonly RconPlayer[]): Online =>
  new Map([
    ...online,
    ...players.map((p) => [p.gameId, { ...p, who: online.get(p.gameId)?.who ?? p.gameId }] as const),
  ]);

/** Lines read from the game and not yet stored, oldest first, each with its key. */
class Unstored {
  readonly lines: { key: string; event: GameEvent }[] = [];
  /** How many, from the first, a store was tried with: one may have committed unseen. */
  tried = 0;

  add(events: readonly GameEvent[]): void {
    for (const event of events) this.lines.push({ key: randomUUID(), event });
  }
}

class Session {
  client: RconClient | null = null;
  /** The database records this server connected by this process (it stays so through a short drop). */
  connected = false;
  stopped = false;
  attempts = 0;
  timer: NodeJS.Timeout | undefined;
  /** Runs out a drop's grace: then the server is recorded disconnected (dropGraceMs). */
  graceTimer: NodeJS.Timeout | undefined;
  /** When connecting began failing (epoch ms), null while connected: a starting server is waited for. */
  failingSince: number | null = null;
  /** When the last poll saw who is online (epoch seconds): a player gone since left then. */
  lastSeen: number | null = null;
  /** Which game this server runs, as stored (detected or set); null until known. */
  kind: GameKind | null = null;
  /** Players' comings and goings and chat read and not yet stored: every poll stores them all. */
  readonly pending = new Unstored();
  /** The game's log read and not yet stored: a poll stores some (GAME_LOG_BATCHES_PER_POLL). */
  readonly gameLog = new Unstored();
  /** One step at a time: a poll, a (re)connect, a loss, letting go (commands go to the client). */
  work: Promise<unknown> = Promise.resolve();
  /**
   * Who the database has online here once the last poll's lines were all stored, so a poll diffs
   * against it without reading the sessions. Null after a (re)connect or a poll that failed
   * half-way: the next poll then reads what is stored.
   */
  stored: Online | null = null;
  /** Connected since the last poll: the next one comes after a random part of the interval. */
  fresh = false;
  /** Polls since connecting: which of them ask for players and the game log (PLAYERS_EVERY). */
  polls = 0;
  /** The system's reason the last connection attempt failed, as the operator's log said it. */
  lastFailure: string | null = null;
  /** What the server list says of the last failure: a drop that outlasts its grace ends with it. */
  lastError: string | null = null;
  constructor(readonly target: Target) {}

  /** Runs `step` after whatever step runs now: a poll never overlaps a reconnect or another poll. */
  queue<T>(step: () => Promise<T>): Promise<T> {
    const next = this.work.then(step, step);
    this.work = next.catch(() => {});
    return next;
  }
}

export interface RconConnector {
  /** Runs a game command on an RCON server (forwarded to the process holding it). */
  sendCommand(serviceId: string, command: GameCommand): Promise<unknown>;
  isConnected(serviceId: string): boolean;
  /** Takes leases now rather than at the next renewal (a server was just added or changed). */
  renew(): Promise<void>;
  close(): Promise<void>;
}

/**
 * `holds`: whether this process takes leases and connects. A process that does not (its RCON
 * worker does, app.ts) still runs commands, on the process holding the server.
 */
export function createRconConnector(
  ctx: ServerContext,
  bus: Bus,
  timings: Partial<RconTimings> = {},
  holds = true,
): RconConnector {
  const t = { ...DEFAULT_TIMINGS, ...timings };
  const sessions = new Map<string, Session>();
  let closed = false;

  const setError = (serviceId: string, error: string | null): Promise<void> =>
    updateService(
      ctx,
      serviceId,
      'rcon_error = $2, rcon_connected = ($2::text IS NULL AND is_connected)',
      [error],
      {
        when: 's.rcon_error IS DISTINCT FROM $2',
      },
    );

  async function markConnected(s: Session): Promise<void> {
    const id = s.target.serviceId;
    clearTimeout(s.graceTimer);
    s.graceTimer = undefined;
    // Back within a drop's grace: the database still has it connected and its sessions open.
    if (s.connected) {
      await setError(id, null);
      return;
    }
    const change = await ctx.db.transaction(async (tx) => {
      const c = await recordConnect(tx, id, bus.nodeId, t.reconnectGraceMs);
      await tx.query('UPDATE services SET rcon_error = NULL, rcon_connected = true WHERE service_id = $1', [
        id,
      ]);
      return c;
    });
    s.connected = true;
    await publishLogChange(ctx, id, change);
  }

  async function markDisconnected(s: Session, error: string | null): Promise<void> {
    const id = s.target.serviceId;
    const wasConnected = s.connected;
    clearTimeout(s.graceTimer);
    s.graceTimer = undefined;
    s.connected = false;
    s.stored = null;
    // Retries that fail for the same reason change nothing anyone sees: nothing is published.
    if (!wasConnected) return setError(id, error);
    const change = await ctx.db.transaction(async (tx) => {
      await tx.query('UPDATE services SET rcon_error = $2, rcon_connected = false WHERE service_id = $1', [
        id,
        error,
      ]);
      // Nobody was seen playing after the last poll that answered.
      return recordDisconnectBy(tx, id, bus.nodeId, s.lastSeen ?? undefined);
    });
    if (change) await publishLogChange(ctx, id, change);
    else await publishServiceChanged(ctx, id);
  }

  function schedule(s: Session, ms: number, step: () => Promise<void>): void {
    clearTimeout(s.timer);
    if (s.stopped) return;
    s.timer = setTimeout(() => {
      s.queue(step).catch((e) => console.error(`rcon: ${s.target.serviceId}:`, e));
    }, ms);
    s.timer.unref();
  }

  const backoff = (attempts: number) => reconnectDelay(attempts, t);

  /** The wait before the next attempt: short while a starting server is waited for. */
  function retryDelay(s: Session, e: unknown): number {
    if (e instanceof RconError && e.cause === 'wrongPassword') return t.backoffMaxMs;
    return waitingForStart(s, e) ? Math.min(t.startingRetryMs, backoff(s.attempts)) : backoff(s.attempts);
  }

  const waitingForStart = (s: Session, e: unknown) =>
    s.failingSince !== null && Date.now() - s.failingSince < t.startingWaitMs && e instanceof RconError;

  /** A failed attempt: said as its cause, retried after a back-off. */
  async function failed(s: Session, e: unknown, address: string): Promise<void> {
    s.attempts++;
    s.failingSince ??= Date.now();
    // The system's reason is the operator's; said once each time it changes, not at every retry.
    const why = (e as RconError).detail ?? (e as NodeJS.ErrnoException).code ?? (e as Error).message;
    if (why !== s.lastFailure)
      console.error(`rcon: connecting ${s.target.serviceId} at ${address}:${s.target.port}: ${why}`);
    s.lastFailure = why;
    const message = rconFailure(e, s.target, t, waitingForStart(s, e));
    s.lastError = message;
    // Inside a drop's grace the server still shows connected, with what is wrong.
    if (s.graceTimer) await setError(s.target.serviceId, `${DROPPED} ${message}`);
    else await markDisconnected(s, message);
    schedule(s, retryDelay(s, e), () => connect(s));
  }

  async function connect(s: Session): Promise<void> {
    if (s.stopped) return;
    const { host, port, sealed } = s.target;
    let password: string;
    try {
      password = unseal(sealed, ctx.config.rconKey);
    } catch {
      // A key that changed cannot open what the old one sealed: only a new password helps.
      await setError(s.target.serviceId, 'The stored RCON password cannot be read: enter it again.');
      return;
    }
    let address: string;
    try {
      address = await resolveOutbound(host, ctx.config.outboundAllow);
    } catch (e) {
      // Refused, the address waits for new settings (a new target); a name that did not resolve
      // is tried again.
      if (e instanceof OutboundRefused) await markDisconnected(s, rconFailure(e, s.target, t));
      else await failed(s, e, host);
      return;
    }
    let client: RconClient;
    try {
      client = await RconClient.connect({
        host: address,
        port,
        password,
        connectMs: t.commandMs,
        loginMs: t.commandMs,
        replyMs: t.commandMs,
        quietMs: t.quietMs,
        shortQuietMs: t.shortQuietMs,
      });
    } catch (e) {
      await failed(s, e, address);
      return;
    }
    if (s.stopped) {
      client.close();
      return;
    }
    s.client = client;
    s.attempts = 0;
    s.failingSince = null;
    s.lastFailure = null;
    client.onClose = (e) => {
      if (s.client !== client || s.stopped) return;
      s.queue(() => lost(s, client, e)).catch((err) =>
        console.error('rcon: recording a lost connection failed', err),
      );
    };
    s.fresh = true;
    s.stored = null;
    s.polls = 0;
    await markConnected(s);
    await poll(s);
  }

  /**
   * The connection dropped: reconnect at once, and keep the server connected with its sessions
   * open for the grace; only a drop that outlasts it records the disconnect, its players last seen
   * at the last poll.
   */
  async function lost(s: Session, client: RconClient, e: unknown): Promise<void> {
    // A poll and the socket's close may both report one loss: the first handles it.
    if (s.client !== client) return;
    s.client = null;
    client.close();
    if (s.stopped) return;
    const message = rconFailure(e, s.target, t);
    s.lastError = message;
    if (s.connected && !s.graceTimer) {
      s.graceTimer = setTimeout(() => {
        s.queue(async () => {
          if (s.graceTimer && !s.client) await markDisconnected(s, s.lastError ?? message);
        }).catch((err) => console.error('rcon: recording a disconnect failed', err));
      }, t.dropGraceMs);
      s.graceTimer.unref();
      await setError(s.target.serviceId, `${DROPPED} ${message}`);
      s.attempts = 0;
      schedule(s, 0, () => connect(s));
      return;
    }
    await failed(s, e, s.target.host);
  }

  /** Who the database has online here, by game id (any a player has), under their current names. */
  async function storedOnline(serviceId: string): Promise<Online> {
    const { rows } = await ctx.db.query<{ id: string; provider: 'EOS' | 'Steam'; name: string; who: string }>(
      `SELECT DISTINCT pi.identifier AS id, pi.provider, p.name, p.player_id::text AS who
         FROM player_sessions ps
         JOIN players p ON p.player_id = ps.player_id
         JOIN player_identifiers pi ON pi.player_id = ps.player_id AND pi.provider IN ('EOS', 'Steam')
        WHERE ps.service_id = $1 AND ps.disconnect_time IS NULL`,
      [serviceId],
    );
    return new Map(rows.map((r) => [r.id, { gameId: r.id, provider: r.provider, name: r.name, who: r.who }]));
  }

  /** Stores which game the server runs when its answers show it and it differs from what is stored. */
  async function noteKind(s: Session, kind: GameKind | null): Promise<void> {
    if (!kind || kind === s.kind) return;
    s.kind = kind;
    await updateService(ctx, s.target.serviceId, 'game_kind = $2', [kind], {
      when: 's.game_kind IS DISTINCT FROM $2',
    });
  }

  /** The servers' batches, stored together under load (groupStore). */
  const store = groupStore(ctx.db);

  /**
   * Stores unstored lines in order, a batch at a time (with other servers' batches, see
   * groupStore), all of them or `batches` batches; on failure the rest wait for the next poll.
   */
  async function flush(s: Session, unstored: Unstored, batches = Number.POSITIVE_INFINITY): Promise<void> {
    for (let n = 0; n < batches && unstored.lines.length > 0; n++) {
      const batch = unstored.lines.slice(0, FLUSH_BATCH);
      // Keys are made as lines are read: only a store tried before can have stored one.
      const fresh = unstored.tried === 0;
      unstored.tried = Math.max(unstored.tried, batch.length);
      const stored = await store(
        s.target.serviceId,
        batch.map(({ key, event }) => ({ event, key: { rconKey: key } })),
        { fresh, gather: n === 0 },
      );
      unstored.lines.splice(0, batch.length);
      unstored.tried -= batch.length;
      await afterStored(
        ctx,
        s.target.serviceId,
        batch.map((b) => b.event),
        stored,
      );
    }
  }

  /**
   * Asks who is online and queues the joins and renames since `before` (the last list, or the
   * database's): what the poll diffs its leaves against.
   */
  async function seePlayers(s: Session, client: RconClient, before: Online): Promise<RconPlayer[]> {
    const players = parseListPlayers(storable(await client.send('ListPlayers')));
    s.pending.add(
      players.flatMap((p) => {
        const was = before.get(p.gameId);
        return was === undefined ? [joinedEvent(p)] : was.name !== p.name ? [renamedEvent(p, was.name)] : [];
      }),
    );
    return players;
  }

  async function poll(s: Session): Promise<void> {
    const client = s.client;
    if (!client || s.stopped) return;
    const id = s.target.serviceId;
    const startedAt = Date.now();
    try {
      // Stored lines first: a player's session must be current before the next diff reads it.
      await flush(s, s.pending);
      s.polls++;
      const known = s.stored;
      const before = known ?? (await storedOnline(id));
      // Until this poll's lines are stored, the database is what the next poll must diff against.
      s.stored = null;
      let players = !known || s.polls % PLAYERS_EVERY === 0 ? await seePlayers(s, client, before) : null;
      const seenAt = Date.now() / 1000;
      // The game hands each line out once: lines are queued as each answer arrives, so a command
      // that fails after another succeeded loses nothing the first one read.
      const feed = parseChatFeed(storable(await client.send('GetChat')));
      // Someone talking who was not online at the last list joined since (in this poll too): asked
      // again now, so the join is stored before their line and the line carries their ids.
      const listed = players ? withPlayers(before, players) : before;
      const speakers = new Set([...listed.values()].map((p) => p.name));
      if (feed.some((l) => l.kind === 'chat' && !speakers.has(l.sender)))
        players = await seePlayers(s, client, listed).catch((e) => {
          s.pending.add(feed.map((line) => chatFeedEvent(line, [...listed.values()])));
          throw e;
        });
      const online = players ?? [...before.values()];
      s.pending.add(feed.map((line) => chatFeedEvent(line, online)));
      // Which game this is is stored before its lines: whoever sees the chat sees the game it came from.
      await noteKind(
        s,
        kindOf([...online, ...feed.flatMap((l) => (l.kind === 'admin' && l.player ? [l.player] : []))]),
      );
      // Players and chat are stored before the game log is asked for: chat reaches the screen
      // sooner. Leaves wait for the end, with the player count.
      await flush(s, s.pending);
      // The game log repeats what GetChat carries (chat, the console's lines, admin commands):
      // only its own lines are kept.
      if (s.polls % GAME_LOG_EVERY === 1)
        s.gameLog.add(
          parseGameLog(storable(await client.send('GetGameLog')))
            .filter((line) => readChatLine(line.message).kind === 'other')
            .map(gameLogEvent),
        );
      if (players) {
        const here = new Set(players.map((p) => p.gameId));
        // A player who has gone was last seen at the list before this one.
        const leftAt = s.lastSeen ?? seenAt;
        const staying = new Set(players.flatMap((p) => before.get(p.gameId)?.who ?? []));
        const gone = new Map<string, RconPlayer>();
        for (const p of before.values()) if (!here.has(p.gameId) && !staying.has(p.who)) gone.set(p.who, p);
        s.pending.add([...gone.values()].map((p) => leftEvent(p, leftAt)));
        await flush(s, s.pending);
        s.lastSeen = seenAt;
        if (!known || players.length !== before.size)
          await updateService(ctx, id, 'current_players = $2', [players.length], {
            when: 's.current_players <> $2',
          });
      }
      s.stored = players
        ? new Map(players.map((p) => [p.gameId, { ...p, who: before.get(p.gameId)?.who ?? p.gameId }]))
        : before;
      const excess = Math.max(0, s.gameLog.lines.length - GAME_LOG_UNSTORED_MAX);
      await flush(s, s.gameLog, GAME_LOG_BATCHES_PER_POLL + Math.ceil(excess / FLUSH_BATCH));
    } catch (e) {
      if (s.client !== client) return;
      // The connection failed (timed out, dropped, garbled): reconnect. A database failure: try again.
      if (e instanceof RconError) {
        await lost(s, client, e);
        return;
      }
      console.error(`rcon: polling ${id} failed:`, (e as Error).message);
    }
    // Servers that connected together (this process started, or took over a dead one's leases)
    // would poll together for good, their work one burst each interval that the consoles'
    // requests wait behind; one random shorter interval spreads them over it.
    // Every pollMs from the start of one poll to the next, not after it ends: a line said just
    // after a poll waits one interval, however long the poll took.
    schedule(s, s.fresh ? Math.random() * t.pollMs : Math.max(0, t.pollMs - (Date.now() - startedAt)), () =>
      poll(s),
    );
    s.fresh = false;
  }

  function start(target: Target): void {
    const s = new Session(target);
    sessions.set(target.serviceId, s);
    s.queue(() => connect(s)).catch((e) => console.error(`rcon: connecting ${target.serviceId}:`, e));
  }

  async function stop(s: Session, record: boolean): Promise<void> {
    s.stopped = true;
    clearTimeout(s.timer);
    if (sessions.get(s.target.serviceId) === s) sessions.delete(s.target.serviceId);
    await s.queue(async () => {
      const client = s.client;
      s.client = null;
      client?.close();
      clearTimeout(s.graceTimer);
      // Lines already read are the game's no longer: store them before letting go.
      for (const unstored of [s.pending, s.gameLog])
        await flush(s, unstored).catch((e) =>
          console.error(`rcon: ${unstored.lines.length} lines of ${s.target.serviceId} not stored:`, e),
        );
      if (record && s.connected) await markDisconnected(s, null);
    });
  }

  async function renew(): Promise<void> {
    if (closed || !holds) return;
    const { rows } = await ctx.db.query<{
      service_id: string;
      rcon_host: string;
      rcon_port: number;
      rcon_password_sealed: string;
      held: boolean;
    }>(
      `WITH rcon AS (
         SELECT service_id, rcon_host, rcon_port, rcon_password_sealed FROM services
          WHERE connection_kind = 'rcon' AND NOT deleted
            AND rcon_host IS NOT NULL AND rcon_port IS NOT NULL AND rcon_password_sealed IS NOT NULL),
       held AS (
         INSERT INTO rcon_leases (service_id, holder, until)
         SELECT service_id, $1, now() + $2::float8 * interval '1 millisecond' FROM rcon
         ON CONFLICT (service_id) DO UPDATE SET holder = excluded.holder, until = excluded.until
          WHERE rcon_leases.holder = excluded.holder OR rcon_leases.until < now()
         RETURNING service_id)
       SELECT rcon.*, service_id IN (SELECT service_id FROM held) AS held FROM rcon`,
      [bus.nodeId, t.leaseMs],
    );
    // Whether each is held is an answer's column, not a join: the two sides' sizes are rarely known
    // to the planner (servers move to and from RCON), and guessed at one row each, a join of 500
    // with 500 compared every pair, 12-23 ms of the database's time at every renewal.
    const held = new Map<string, Target>(
      rows
        .filter((r) => r.held)
        .map((r) => [
          r.service_id,
          { serviceId: r.service_id, host: r.rcon_host, port: r.rcon_port, sealed: r.rcon_password_sealed },
        ]),
    );
    // The server limit applies as on the link: an owner over their plan has none connected.
    for (const [serviceId, refusal] of await linkRefusals(ctx, [...held.keys()]))
      if (refusal) held.delete(serviceId);
    for (const s of [...sessions.values()]) {
      const now = held.get(s.target.serviceId);
      // Lost the lease, removed, moved to the link or refused by the limit: let go. Changed address or password: start over.
      if (!now) await stop(s, true);
      else if (!sameTarget(now, s.target)) {
        await stop(s, true);
        start(now);
      }
    }
    for (const target of held.values()) if (!sessions.has(target.serviceId)) start(target);
  }

  let renewing: Promise<void> | null = null;
  const renewOnce = () => {
    renewing ??= renew()
      .catch((e) => console.error('rcon: renewing leases failed', (e as Error).message))
      .finally(() => {
        renewing = null;
      });
    return renewing;
  };
  const renewer = holds ? setInterval(renewOnce, t.renewMs) : undefined;
  renewer?.unref();
  void renewOnce();

  async function runHere(serviceId: string, command: Record<string, unknown>): Promise<unknown> {
    const line = toRconCommand(command as GameCommand);
    const s = sessions.get(serviceId);
    const client = s?.client;
    if (!s || !client || !s.connected) throw serviceNotConnected(serviceId);
    // Straight to the client, which sends one command at a time in order: a command goes out
    // between a poll's own, not after the poll has stored a reconnect's backlog.
    let answer: string;
    try {
      answer = await client.send(line);
    } catch (e) {
      throw new ApiException(502, `RCON: ${rconFailure(e, s.target, t)}`, 'commandFailed');
    }
    // What the command did (a kick, a chat line) shows at once rather than at the next poll.
    schedule(s, 0, () => poll(s));
    // "Server received, But no response!!" means it ran and printed nothing: no answer to show.
    return saysNothing(answer) ? null : storable(answer).trim();
  }
  const forwarded = forwardedCommands(bus, t.commandMs * 2, runHere, 'rconCommand');

  return {
    async sendCommand(serviceId, command) {
      toRconCommand(command);
      if (sessions.has(serviceId)) return runHere(serviceId, command);
      return forwarded.toHolder(ctx.db, serviceId, command);
    },
    isConnected: (serviceId) => sessions.get(serviceId)?.connected ?? false,
    renew: renewOnce,
    async close() {
      closed = true;
      clearInterval(renewer);
      await renewing;
      forwarded.close();
      await Promise.all([...sessions.values()].map((s) => stop(s, true)));
      // Let go at once: another process takes the servers over without waiting for the lease.
      await ctx.db.query('DELETE FROM rcon_leases WHERE holder = $1', [bus.nodeId]);
    },
  };
}
