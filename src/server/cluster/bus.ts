// The cross-process bus: how one server process tells the others something (forward a game
// command, fan out a realtime event, drop a link). It is PostgreSQL's LISTEN/NOTIFY, so processes
// on one database need nothing else.

import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Queryable } from '../db/db.ts';

export type BusHandler = (message: unknown, fromNode: string) => void;

export interface Bus {
  /** This process, as `services.connected_to` names it. */
  readonly nodeId: string;
  /** Delivers to every other process on the bus, never back to this one. */
  publish(topic: string, message: unknown): Promise<void>;
  on(topic: string, handler: BusHandler): void;
  close(): Promise<void>;
}

/** One message on the bus: its topic, and the message inline or the cluster_messages row holding it. */
interface Item {
  t: string;
  m?: unknown;
  r?: number;
}

/** What one NOTIFY carries: the sender node, and the messages it sent since its last NOTIFY. */
interface Envelope {
  f: string;
  b: Item[];
}

/** PostgreSQL refuses NOTIFY payloads from 8000 bytes on; leave room for the envelope. */
const NOTIFY_MAX_BYTES = 7900;
/** Spilled messages are read within milliseconds; a minute is generous. */
const SPILL_KEEP = "interval '1 minute'";
const RECONNECT_MS = 1000;

function dispatcher() {
  const handlers = new Map<string, BusHandler[]>();
  return {
    on(topic: string, h: BusHandler) {
      handlers.set(topic, [...(handlers.get(topic) ?? []), h]);
    },
    deliver(topic: string, message: unknown, from: string) {
      for (const h of handlers.get(topic) ?? []) {
        try {
          h(message, from);
        } catch (e) {
          console.error(`bus: handler for ${topic} failed`, e);
        }
      }
    },
  };
}

export interface PgBusOptions {
  databaseUrl: string;
  /** The schema the server keeps its tables in; processes on other schemas do not hear this bus. */
  schema?: string;
  /** For spilled messages. */
  db: Queryable;
}

/**
 * LISTEN/NOTIFY on one dedicated connection, which also sends, so a process's messages arrive in
 * the order it sent them. Messages published while a NOTIFY is under way go out together in the
 * next: one NOTIFY per message was a query per realtime event, and every process, the sender
 * included, reads every NOTIFY. A dropped connection is reopened; what was sent meanwhile is lost,
 * as it would be with any broker without persistence (realtime clients refetch on resubscribe).
 */
export async function createPgBus(opts: PgBusOptions): Promise<Bus> {
  const nodeId = randomUUID();
  const channel = `palisade_bus_${opts.schema ?? 'public'}`;
  // Our own NOTIFYs come back to us; they are known by their start, unread.
  const ownPrefix = `{"f":"${nodeId}"`;
  /** The envelope around a NOTIFY's messages: the prefix, `,"b":[`, `]}`, and a margin. */
  const envelopeBytes = ownPrefix.length + 10;
  const d = dispatcher();
  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  /** Messages not yet sent, in the order publish was called; a spilled one's row may be coming. */
  const waiting: { item: Promise<string>; done: (e?: unknown) => void }[] = [];
  let sending = false;

  async function send(): Promise<void> {
    sending = true;
    while (waiting.length > 0) {
      const batch: typeof waiting = [];
      const items: string[] = [];
      let bytes = envelopeBytes;
      while (waiting.length > 0) {
        let item: string;
        try {
          item = await waiting[0]!.item;
        } catch (e) {
          waiting.shift()!.done(e);
          continue;
        }
        const size = Buffer.byteLength(item) + 1;
        if (batch.length > 0 && bytes + size > NOTIFY_MAX_BYTES) break;
        bytes += size;
        items.push(item);
        batch.push(waiting.shift()!);
      }
      if (batch.length === 0) continue;
      try {
        const c = client;
        if (!c) throw new Error('bus: not connected');
        await c.query('SELECT pg_notify($1, $2)', [channel, `${ownPrefix},"b":[${items.join(',')}]}`]);
        for (const w of batch) w.done();
      } catch (e) {
        for (const w of batch) w.done(e);
      }
    }
    sending = false;
  }

  async function spill(topic: string, message: unknown): Promise<string> {
    const { rows } = await opts.db.query<{ message_id: number }>(
      `WITH gone AS (DELETE FROM cluster_messages WHERE created < now() - ${SPILL_KEEP})
       INSERT INTO cluster_messages (payload) VALUES ($1) RETURNING message_id`,
      [JSON.stringify(message)],
    );
    return JSON.stringify({ t: topic, r: rows[0]!.message_id } satisfies Item);
  }

  async function receive(payload: string | undefined): Promise<void> {
    if (!payload || payload.startsWith(ownPrefix)) return;
    const e = JSON.parse(payload) as Envelope;
    for (const i of e.b) {
      try {
        if (i.r === undefined) {
          d.deliver(i.t, i.m, e.f);
          continue;
        }
        const { rows } = await opts.db.query<{ payload: string }>(
          'SELECT payload FROM cluster_messages WHERE message_id = $1',
          [i.r],
        );
        if (rows[0]) d.deliver(i.t, JSON.parse(rows[0].payload), e.f);
      } catch (err) {
        // One message lost (its row unread), not the rest of the NOTIFY.
        console.error(`bus: receiving ${i.t} failed`, err);
      }
    }
  }
  /** NOTIFYs are handled one after another: one waiting for a spilled row holds the next back. */
  let receiving: Promise<void> = Promise.resolve();

  async function connect(): Promise<void> {
    const c = new pg.Client({ connectionString: opts.databaseUrl });
    c.on('notification', (n) => {
      receiving = receiving
        .then(() => receive(n.payload))
        .catch((err) => console.error('bus: receiving failed', err));
    });
    c.on('error', () => {
      if (client !== c) return;
      client = null;
      c.end().catch(() => {});
      if (!closed) retry = setTimeout(() => connect().catch(() => {}), RECONNECT_MS);
    });
    await c.connect();
    await c.query(`LISTEN ${channel}`);
    client = c;
  }

  await connect();

  return {
    nodeId,
    publish(topic, message) {
      if (!client) return Promise.reject(new Error('bus: not connected'));
      let inline: string;
      try {
        inline = JSON.stringify({ t: topic, m: message } satisfies Item);
      } catch (e) {
        return Promise.reject(e);
      }
      const item =
        Buffer.byteLength(inline) <= NOTIFY_MAX_BYTES - envelopeBytes
          ? Promise.resolve(inline)
          : spill(topic, message);
      item.catch(() => {});
      return new Promise<void>((resolve, reject) => {
        waiting.push({ item, done: (e) => (e === undefined ? resolve() : reject(e)) });
        if (!sending) void send();
      });
    },
    on: d.on,
    async close() {
      closed = true;
      clearTimeout(retry);
      const c = client;
      client = null;
      await c?.end().catch(() => {});
    },
  };
}
