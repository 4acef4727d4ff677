// The game-server link (protocol in docs/api.md): one WebSocket per game server at
// /v4/sentinel/link. Authenticates by access key, stores numbered events once, applies status
// updates, and carries game commands back to the server. With several server processes, the
// link lives in one of them (services.connected_to); the others reach it over the bus.

import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';
import type { LogMessage } from '../../../domain/api.ts';
import { LINK_REFUSALS } from '../../../domain/billing.ts';
import { LOG_LEVELS, LOG_TYPES } from '../../../domain/enums.ts';
import { type InputRules, inputProblem, isEpochSeconds, textProblem } from '../../../domain/limits.ts';
import { BAD_ACCESS_KEY_CLOSE, SUBSCRIPTION_CLOSE } from '../../../domain/link.ts';
import { linkRefusal } from '../../billing/limits.ts';
import type { Bus } from '../../cluster/bus.ts';
import { deadNode, NODE_HEARTBEAT_MS } from '../../cluster/nodes.ts';
import type { KickReason, Links, ServerContext } from '../../context.ts';
import { hashToken } from '../../crypto.ts';
import { ApiException, serviceNotConnected } from '../../http/errors.ts';
import { publishLogMessage } from '../../model/logMessage.ts';
import { updateService } from '../../model/service.ts';
import type { GameEvent } from '../../model/world.ts';
import { forwardedCommands } from '../forward.ts';
import {
  insertLog,
  keySeen,
  publishLogChange,
  recordConnect,
  recordDisconnect,
  recordDisconnectBy,
  serviceEvent,
  storeGameEvents,
} from '../ingest.ts';
import { afterStored } from '../pipeline.ts';

export const LINK_PATH = '/v4/sentinel/link';

export interface LinkTimings {
  /** Send a ping after this much silence from us. */
  pingMs: number;
  /** Drop a link we have not heard from for this long. */
  idleMs: number;
  /** Give up on a command's result after this long. */
  commandMs: number;
  /** Close a socket that does not say hello within this long. */
  helloMs: number;
  /** A reconnect within this long after a disconnect removes the disconnect's line (SENTINEL-API §6). */
  reconnectGraceMs: number;
}

const DEFAULT_TIMINGS: LinkTimings = {
  pingMs: 20_000,
  idleMs: 60_000,
  commandMs: 30_000,
  helloMs: 10_000,
  reconnectGraceMs: 120_000,
};
/** A forwarded command waits a little longer than the far process does, so its timeout wins. */
const FORWARD_SLACK_MS = 2_000;

const CLOSE = {
  badFrame: 4000,
  badAccessKey: BAD_ACCESS_KEY_CLOSE,
  replaced: 4002,
  deleted: 4003,
  idle: 4004,
  subscription: SUBSCRIPTION_CLOSE,
} as const;

/** Each reason to close a link from outside it, as the game hears it. */
const KICKS: Record<KickReason, [number, string]> = {
  deleted: [CLOSE.deleted, 'service deleted'],
  // The game is told its key no longer holds, as it would be at its next hello.
  keyChanged: [CLOSE.badAccessKey, 'badAccessKey'],
  subscription: [CLOSE.subscription, 'subscription'],
};

interface Pending {
  resolve(v: unknown): void;
  reject(e: Error): void;
  timer: NodeJS.Timeout;
}

class Link {
  commandSeq = 0;
  readonly pending = new Map<number, Pending>();
  lastHeard = Date.now();
  lastSent = Date.now();
  /** Frames are handled one after another, so events are stored in the order they were sent. */
  work: Promise<void> = Promise.resolve();
  /** An event could be neither stored nor refused: the link is closing, and stores nothing more. */
  failed = false;
  /**
   * Event frames received and not yet taken, oldest first. The step of the first takes all that
   * arrived meanwhile: a game that sends faster than they are stored has them stored together.
   */
  readonly inbox: Record<string, unknown>[] = [];
  private corked = false;
  constructor(
    readonly serviceId: string,
    readonly ws: WebSocket,
    /** The WebSocket's own connection, held back while a turn's frames are written. */
    private readonly socket: Duplex,
  ) {}

  send(frame: unknown): void {
    if (this.ws.readyState !== this.ws.OPEN) return;
    this.lastSent = Date.now();
    // The frames of one turn leave in one write: a 30,000-line ban import's commands were a
    // system call each, most of the server's time while it sent them.
    if (!this.corked) {
      this.corked = true;
      this.socket.cork();
      process.nextTick(() => {
        this.corked = false;
        this.socket.uncork();
      });
    }
    this.ws.send(JSON.stringify(frame));
  }
}

export interface LinkServer extends Omit<Links, 'assertCanRun'> {
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  close(): Promise<void>;
}

const INT4_MAX = 2_147_483_647;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A game's text is stored as the game sent it, escape sequences and all (the console shows it
 * inert), but a NUL, an unpaired surrogate or nesting past the limit cannot be stored as sent.
 */
const STORABLE: InputRules = { characters: 'noNul', lengths: false };

function parseEvent(v: unknown): GameEvent | string {
  if (!isObject(v)) return 'event must be an object';
  const unstorable = inputProblem(v, STORABLE);
  if (unstorable) return unstorable.message.replace(/\.$/, '');
  const { eventName, time, type, level, message, metadata } = v;
  if (typeof eventName !== 'string' || eventName === '') return 'eventName is required';
  if (!isEpochSeconds(time)) return 'time must be epoch seconds';
  if (!(LOG_TYPES as readonly unknown[]).includes(type)) return `type must be one of ${LOG_TYPES.join(', ')}`;
  if (!(LOG_LEVELS as readonly unknown[]).includes(level))
    return `level must be one of ${LOG_LEVELS.join(', ')}`;
  if (typeof message !== 'string') return 'message must be a string';
  if (metadata !== undefined && !isObject(metadata)) return 'metadata must be an object';
  return { eventName, time, type: type as string, level: level as string, message, metadata: metadata ?? {} };
}

export function createLinkServer(
  ctx: ServerContext,
  bus: Bus,
  timings: Partial<LinkTimings> = {},
): LinkServer {
  const t = { ...DEFAULT_TIMINGS, ...timings };
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  const links = new Map<string, Link>();
  /** Disconnect bookkeeping still being written; awaited before the database closes. */
  const inFlight = new Set<Promise<unknown>>();
  let closing = false;
  const track = <T>(p: Promise<T>): Promise<T> => {
    inFlight.add(p);
    p.finally(() => inFlight.delete(p)).catch(() => {});
    return p;
  };

  /** Records a connect (held here from now) or a disconnect (unless another process holds it now). */
  async function setConnected(serviceId: string, connected: boolean): Promise<void> {
    const change = await ctx.db.transaction(async (tx) => {
      if (connected) return recordConnect(tx, serviceId, bus.nodeId, t.reconnectGraceMs);
      return recordDisconnectBy(tx, serviceId, bus.nodeId);
    });
    await publishLogChange(ctx, serviceId, change);
  }

  /** Links whose process stopped without recording their disconnect (it crashed, or was killed). */
  async function sweepStaleLinks(): Promise<void> {
    const { rows } = await ctx.db.query<{ service_id: string; connected_to: string | null }>(
      `SELECT service_id, connected_to FROM services WHERE is_connected AND ${deadNode('connected_to')}`,
    );
    for (const r of rows) {
      const change = await ctx.db.transaction(async (tx) => {
        const taken = await tx.query(
          `UPDATE services SET is_connected = false, connected_to = NULL, connection_change_time = now()
            WHERE service_id = $1 AND is_connected AND connected_to IS NOT DISTINCT FROM $2 RETURNING 1`,
          [r.service_id, r.connected_to],
        );
        return taken.rows.length === 0 ? null : recordDisconnect(tx, r.service_id);
      });
      await publishLogChange(ctx, r.service_id, change);
    }
  }

  /**
   * An event that cannot be stored takes its seq as a refusal line, which counts it and tells the
   * admins; the game is told with an error naming the seq, then acknowledged so its queue moves on.
   * If not even that line can be written, nothing is acknowledged and the link is closed: the game
   * sends the event again when it reconnects, and no later acknowledgement covers it meanwhile.
   */
  async function refuseEvent(link: Link, seq: number, code: string, reason: string): Promise<void> {
    link.send({ type: 'error', code, message: `Event ${seq}: ${reason}.`, seq });
    try {
      const line = await ctx.db.transaction(async (tx) =>
        (await keySeen(tx, link.serviceId, { seq }))
          ? null
          : insertLog(
              tx,
              link.serviceId,
              {
                ...serviceEvent('eventRefused', `The game's event ${seq} was refused: ${reason}.`),
                level: 'Warning',
                metadata: { refusedSeq: seq, code },
              },
              { seq },
            ),
      );
      link.send({ type: 'ack', seq });
      if (line) await publishLogMessage(ctx, line);
    } catch (e) {
      console.error(`link: event ${seq} of ${link.serviceId} could not be stored nor refused:`, e);
      link.failed = true;
      link.ws.close(1011, 'event not stored');
    }
  }

  /**
   * Stores events, each once under its seq, acknowledges them and runs what follows each stored
   * line. If they cannot be stored together, each is stored alone, so only one that fails is
   * refused.
   */
  async function storeEvents(link: Link, events: { seq: number; event: GameEvent }[]): Promise<void> {
    let stored: (LogMessage | null)[];
    try {
      stored = await storeGameEvents(
        ctx.db,
        link.serviceId,
        events.map(({ seq, event }) => ({ event, key: { seq } })),
      );
    } catch (e) {
      if (events.length > 1) {
        for (const one of events) if (!link.failed) await storeEvents(link, [one]);
        return;
      }
      console.error(`link: event ${events[0].seq} of ${link.serviceId} was not stored:`, e);
      return refuseEvent(link, events[0].seq, 'eventNotStored', 'the server could not store it');
    }
    // Acks are cumulative: one for the batch, not a frame (and a write) per event.
    link.send({ type: 'ack', seq: events.reduce((top, e) => Math.max(top, e.seq), 0) });
    await afterStored(
      ctx,
      link.serviceId,
      events.map((e) => e.event),
      stored,
    );
  }

  /** The event frames in the inbox, in order: the valid ones stored together, the others refused. */
  async function onEvents(link: Link): Promise<void> {
    let valid: { seq: number; event: GameEvent }[] = [];
    const storeValid = async () => {
      if (valid.length > 0 && !link.failed) await storeEvents(link, valid);
      valid = [];
    };
    for (const frame of link.inbox.splice(0)) {
      const seq = frame.seq;
      const goodSeq = typeof seq === 'number' && Number.isSafeInteger(seq) && seq >= 1;
      const event = goodSeq ? parseEvent(frame.event) : null;
      if (goodSeq && typeof event === 'object' && event !== null) {
        valid.push({ seq, event });
        continue;
      }
      await storeValid();
      // After an event was lost, none behind it may be stored or refused: its seq would be passed over.
      if (link.failed) return;
      if (!goodSeq)
        link.send({ type: 'error', code: 'badFrame', message: 'seq must be a positive integer.' });
      else await refuseEvent(link, seq, 'badEvent', event as string);
    }
    await storeValid();
  }

  async function onStatus(link: Link, f: Record<string, unknown>): Promise<void> {
    // Values the columns cannot hold are left out, as a missing value is, rather than failing the frame.
    const int = (v: unknown) =>
      typeof v === 'number' && Number.isInteger(v) && Math.abs(v) <= INT4_MAX ? v : null;
    const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
    const cluster =
      typeof f.clusterId === 'string' && /^[0-9a-f-]{36}$/i.test(f.clusterId) ? f.clusterId : null;
    await updateService(
      ctx,
      link.serviceId,
      `current_players = coalesce($2, current_players), max_players = coalesce($3, max_players),
       game_clock = coalesce($4, game_clock), cluster_id = coalesce($5::uuid, cluster_id),
       ip_address = coalesce($6, ip_address), rcon_connected = coalesce($7, rcon_connected),
       difficulty = coalesce($8, difficulty)`,
      [
        int(f.currentPlayers),
        int(f.maxPlayers),
        num(f.gameClock),
        cluster,
        typeof f.ipAddress === 'string' && !textProblem(f.ipAddress, 'ipAddress', 'noNul', 100)
          ? f.ipAddress
          : null,
        typeof f.rconConnected === 'boolean' ? f.rconConnected : null,
        num(f.difficulty),
      ],
      { name: 'link-status' },
    );
  }

  function onCommandResult(link: Link, f: Record<string, unknown>): void {
    const pending = typeof f.seq === 'number' ? link.pending.get(f.seq) : undefined;
    if (!pending) return;
    link.pending.delete(f.seq as number);
    clearTimeout(pending.timer);
    if (f.ok === true) pending.resolve(f.result ?? null);
    else
      pending.reject(
        new ApiException(502, typeof f.error === 'string' ? f.error : 'The command failed.', 'commandFailed'),
      );
  }

  /** Whether the owner's subscription refuses the server now; if so it is told why, and closed. */
  async function refused(ws: WebSocket, serviceId: string): Promise<boolean> {
    const refusal = await linkRefusal(ctx, serviceId);
    if (!refusal) return false;
    ws.send(JSON.stringify({ type: 'error', code: refusal, message: LINK_REFUSALS[refusal] }));
    ws.close(CLOSE.subscription, refusal);
    return true;
  }

  async function hello(ws: WebSocket, socket: Duplex, f: Record<string, unknown>): Promise<Link | null> {
    const key =
      typeof f.accessKey === 'string' && /^[A-Za-z0-9_-]{43}$/.test(f.accessKey) ? f.accessKey : null;
    const { rows } = key
      ? await ctx.db.query<{ service_id: string }>(
          'SELECT service_id FROM services WHERE access_key_hash = $1 AND NOT deleted',
          [hashToken(key)],
        )
      : { rows: [] };
    const serviceId = rows[0]?.service_id;
    if (!serviceId) {
      ws.send(JSON.stringify({ type: 'error', code: 'badAccessKey', message: 'Unknown access key.' }));
      ws.close(CLOSE.badAccessKey, 'badAccessKey');
      return null;
    }
    if (await refused(ws, serviceId)) return null;
    // A game let go by the shutdown comes back at once; taking it would keep the shutdown waiting
    // on its traffic. It links to whichever process starts next.
    if (closing) {
      ws.close(1001, 'server shutting down');
      return null;
    }
    links.get(serviceId)?.ws.close(CLOSE.replaced, 'replaced by a newer connection');
    const link = new Link(serviceId, ws, socket);
    links.set(serviceId, link);
    const last = await ctx.db.query<{ seq: number }>(
      'SELECT coalesce(max(link_seq), 0) AS seq FROM log_messages WHERE service_id = $1',
      [serviceId],
    );
    await setConnected(serviceId, true);
    // A plan change between the check above and this record dropped only the links it saw
    // connected: asked again now, whichever of the two came last sees the other.
    if (await refused(ws, serviceId)) {
      onClose(link);
      return null;
    }
    // After connected_to names us, so a process dropping its older link leaves the record alone.
    await bus.publish('linkClaimed', { serviceId });
    link.send({ type: 'welcome', serviceId, lastEventSeq: last.rows[0].seq });
    return link;
  }

  function onClose(link: Link): void {
    for (const p of link.pending.values()) {
      clearTimeout(p.timer);
      p.reject(serviceNotConnected(link.serviceId));
    }
    link.pending.clear();
    if (links.get(link.serviceId) !== link) return;
    links.delete(link.serviceId);
    track(link.work.then(() => setConnected(link.serviceId, false))).catch((e) =>
      console.error('link: recording a disconnect failed', e),
    );
  }

  function runHere(serviceId: string, command: Record<string, unknown>): Promise<unknown> {
    const link = links.get(serviceId);
    if (!link) return Promise.reject(serviceNotConnected(serviceId));
    const seq = ++link.commandSeq;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        link.pending.delete(seq);
        reject(new ApiException(504, 'The server did not answer the command in time.', 'commandTimeout'));
      }, t.commandMs);
      link.pending.set(seq, { resolve, reject, timer });
      link.send({ type: 'command', seq, command });
    });
  }
  const forwarded = forwardedCommands(bus, t.commandMs + FORWARD_SLACK_MS, runHere);
  const closeHere = (serviceId: string, code: number, reason: string) =>
    links.get(serviceId)?.ws.close(code, reason);
  bus.on('linkClaimed', (m) => closeHere((m as { serviceId: string }).serviceId, CLOSE.replaced, 'replaced'));
  bus.on('kick', (m) => {
    const { serviceId, why } = m as { serviceId: string; why: KickReason };
    closeHere(serviceId, ...KICKS[why]);
  });

  wss.on('connection', (ws: WebSocket, req: IncomingMessage) => {
    if (closing) {
      ws.close(1001, 'server shutting down');
      return;
    }
    let link: Link | null = null;
    let greeting: Promise<Link | null> | null = null;
    const helloTimer = setTimeout(() => {
      if (!greeting) ws.close(CLOSE.badFrame, 'hello expected');
    }, t.helloMs);

    ws.on('message', (data: RawData) => {
      let frame: unknown;
      try {
        frame = JSON.parse(data.toString());
      } catch {
        frame = null;
      }
      if (!isObject(frame) || typeof frame.type !== 'string') {
        ws.send(
          JSON.stringify({
            type: 'error',
            code: 'badFrame',
            message: 'Frames are JSON objects with a type.',
          }),
        );
        return;
      }
      if (!greeting) {
        clearTimeout(helloTimer);
        if (frame.type !== 'hello') {
          ws.send(JSON.stringify({ type: 'error', code: 'helloRequired', message: 'Say hello first.' }));
          ws.close(CLOSE.badFrame, 'hello expected');
          return;
        }
        greeting = track(
          hello(ws, req.socket, frame).then((l) => {
            link = l;
            return l;
          }),
        );
        greeting.catch((e) => {
          console.error('link: hello failed', e);
          ws.close(1011, 'internal error');
        });
        return;
      }
      const f = frame;
      // Frames that arrive while hello is still being answered wait for it.
      void greeting.then((l) => {
        if (!l) return;
        l.lastHeard = Date.now();
        if (f.type === 'event') l.inbox.push(f);
        const step = async () => {
          // Shutting down: events still queued behind a backlog are left unacknowledged, and the
          // game sends them again to whichever process it links to next. Answers to commands are
          // still taken: runs waiting on them end before the server does.
          if (closing && f.type === 'event') return;
          switch (f.type) {
            case 'event':
              return onEvents(l);
            case 'status':
              return onStatus(l, f);
            case 'commandResult':
              return onCommandResult(l, f);
            case 'ping':
              return l.send({ type: 'pong' });
            case 'pong':
              return;
            default:
              l.send({ type: 'error', code: 'badFrame', message: `Unknown frame type ${String(f.type)}.` });
          }
        };
        l.work = track(l.work.then(step)).catch((e) => console.error('link: frame failed', e));
      });
    });

    ws.on('close', () => {
      clearTimeout(helloTimer);
      if (link) onClose(link);
      else void greeting?.then((l) => l && onClose(l));
    });
    ws.on('error', () => ws.terminate());
  });

  const heartbeat = setInterval(() => {
    const now = Date.now();
    for (const link of links.values()) {
      if (now - link.lastHeard > t.idleMs) link.ws.close(CLOSE.idle, 'idle');
      else if (now - link.lastSent > t.pingMs) link.send({ type: 'ping' });
    }
  }, Math.min(t.pingMs, t.idleMs) / 2);
  heartbeat.unref();
  const sweep = () =>
    track(sweepStaleLinks()).catch((e) => console.error('link: sweeping stale links failed', e));
  const sweeper = setInterval(sweep, NODE_HEARTBEAT_MS);
  sweeper.unref();
  sweep();

  return {
    handleUpgrade(req, socket, head) {
      const path = (req.url ?? '').split('?')[0];
      if (path !== LINK_PATH) return false;
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
      return true;
    },
    isConnected: (serviceId) => links.has(serviceId),
    kick(serviceId, why) {
      closeHere(serviceId, ...KICKS[why]);
      bus
        .publish('kick', { serviceId, why })
        .catch((e) => console.error('link: kick over the bus failed', e));
    },
    async sendCommand(serviceId, command) {
      if (links.has(serviceId)) return runHere(serviceId, command);
      return forwarded.toHolder(ctx.db, serviceId, command);
    },
    async close() {
      closing = true;
      clearInterval(heartbeat);
      clearInterval(sweeper);
      forwarded.close();
      for (const link of links.values()) link.ws.close(1001, 'server shutting down');
      for (const ws of wss.clients) ws.terminate();
      // Let close handlers record the disconnects before the database goes away.
      await new Promise((r) => setTimeout(r, 50));
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
      await new Promise<void>((r) => wss.close(() => r()));
    },
  };
}
