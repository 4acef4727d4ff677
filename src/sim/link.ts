// The mod's side of the game-server link: hello, welcome, resend from the server's last stored
// seq, acks, commands, keep-alive, and reconnecting with backoff when the link drops.

import WebSocket from 'ws';
import {
  BAD_ACCESS_KEY_CLOSE,
  type CommandReply,
  type GameCommand,
  LINK_PING_MS,
  LINK_PROTOCOL,
  LINK_SILENCE_MS,
  type ModFrame,
  type ServerFrame,
  type StatusFrame,
} from '../domain/link.ts';
import type { EventQueue } from './eventQueue.ts';

export interface LinkOptions {
  url: string;
  accessKey: string;
  queue: EventQueue;
  onCommand(command: GameCommand): CommandReply;
  status(): StatusFrame;
  log(line: string): void;
}

const BACKOFF_BASE_MS = 200;
const BACKOFF_MAX_MS = 30_000;

export class LinkClient {
  private ws: WebSocket | null = null;
  private welcomed = false;
  private stopped = false;
  private attempts = 0;
  /** Highest seq sent on the current connection. */
  private sentThrough = 0;
  private lastSent = 0;
  private lastReceived = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private readonly keepAlive: NodeJS.Timeout;
  serviceId: string | null = null;

  constructor(private readonly opts: LinkOptions) {
    this.keepAlive = setInterval(() => this.checkIdle(), LINK_PING_MS / 4);
    this.keepAlive.unref();
    this.connect();
  }

  get connected(): boolean {
    return this.welcomed;
  }

  /** Sends whatever the queue holds beyond what this connection has already carried. */
  flush(): void {
    if (!this.welcomed) return;
    for (const q of this.opts.queue.after(this.sentThrough)) {
      this.send({ type: 'event', seq: q.seq, event: q.event });
      this.sentThrough = q.seq;
    }
  }

  sendStatus(): void {
    if (this.welcomed) this.send(this.opts.status());
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.keepAlive);
    clearTimeout(this.retryTimer);
    const ws = this.ws;
    if (!ws || ws.readyState === WebSocket.CLOSED) return;
    await new Promise<void>((resolve) => {
      ws.once('close', () => resolve());
      ws.close(1000);
    });
  }

  private connect(): void {
    const ws = new WebSocket(this.opts.url);
    this.ws = ws;
    ws.on('open', () => {
      this.lastReceived = Date.now();
      this.send({ type: 'hello', accessKey: this.opts.accessKey, protocol: LINK_PROTOCOL });
    });
    ws.on('message', (raw) => {
      this.lastReceived = Date.now();
      let frame: ServerFrame;
      try {
        frame = JSON.parse(raw.toString());
      } catch {
        return;
      }
      this.onFrame(frame);
    });
    ws.on('close', (code) => this.onClose(code));
    // 'close' follows every 'error'; reconnecting is handled there.
    ws.on('error', (err) => this.opts.log(`link error: ${err.message}`));
  }

  private onFrame(frame: ServerFrame): void {
    switch (frame.type) {
      case 'welcome':
        this.welcomed = true;
        this.attempts = 0;
        this.serviceId = frame.serviceId;
        this.opts.queue.welcome(frame.lastEventSeq);
        // After reconciling, everything still queued is newer than what the server stores.
        this.sentThrough = frame.lastEventSeq;
        this.opts.log(`connected as ${frame.serviceId}; resending ${this.opts.queue.pending} event(s)`);
        this.flush();
        this.sendStatus();
        return;
      case 'ack':
        this.opts.queue.ack(frame.seq);
        return;
      case 'command': {
        const reply = this.opts.onCommand(frame.command);
        this.send({ type: 'commandResult', seq: frame.seq, ...reply });
        return;
      }
      case 'ping':
        this.send({ type: 'pong' });
        return;
      case 'error':
        this.opts.log(`server error ${frame.code}: ${frame.message}`);
        return;
    }
  }

  private onClose(code: number): void {
    this.welcomed = false;
    this.ws = null;
    if (this.stopped) return;
    const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** this.attempts) * (0.75 + Math.random() / 2);
    this.attempts++;
    const why = code === BAD_ACCESS_KEY_CLOSE ? 'access key refused' : `closed (${code})`;
    this.opts.log(`link ${why}; retrying in ${Math.round(delay)} ms`);
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  private checkIdle(): void {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    const now = Date.now();
    if (now - this.lastReceived > LINK_SILENCE_MS) ws.terminate();
    else if (now - this.lastSent >= LINK_PING_MS) this.send({ type: 'ping' });
  }

  private send(frame: ModFrame): void {
    if (this.ws?.readyState !== WebSocket.OPEN) return;
    this.ws.send(JSON.stringify(frame));
    this.lastSent = Date.now();
  }
}
