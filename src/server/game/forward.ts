// Game commands for a service whose connection (link or RCON) another server process holds: sent
// over the bus to that process, which runs them there and sends the outcome (or the ApiException)
// back. Each kind of connection has its own topic, so each process hands a request to the right one.

import { randomUUID } from 'node:crypto';
import type { Bus } from '../cluster/bus.ts';
import type { Queryable } from '../db/db.ts';
import { ApiException, serviceNotConnected } from '../http/errors.ts';

interface CommandRequest {
  id: string;
  to: string;
  serviceId: string;
  command: Record<string, unknown>;
}

interface WireError {
  status: number;
  message: string;
  code?: string;
  details: unknown;
}

interface CommandResponse {
  id: string;
  to: string;
  ok: boolean;
  result?: unknown;
  error?: WireError;
}

interface Waiting {
  resolve(v: unknown): void;
  reject(e: Error): void;
  timer: NodeJS.Timeout;
}

const toWire = (e: unknown): WireError =>
  e instanceof ApiException
    ? { status: e.status, message: e.message, code: e.code, details: e.details }
    : { status: 500, message: 'Internal server error', code: 'exception', details: null };

export interface ForwardedCommands {
  /** Runs the command on the link `node` holds. */
  send(node: string, serviceId: string, command: Record<string, unknown>): Promise<unknown>;
  /**
   * Runs the command on the process that holds the server's connection now, as the database says;
   * refused as not connected when none does (or only this one, which would have run it itself).
   */
  toHolder(db: Queryable, serviceId: string, command: Record<string, unknown>): Promise<unknown>;
  close(): void;
}

export function forwardedCommands(
  bus: Bus,
  /** The far process answers within this (its own command timeout); past it, it is gone. */
  timeoutMs: number,
  runHere: (serviceId: string, command: Record<string, unknown>) => Promise<unknown>,
  topic = 'command',
): ForwardedCommands {
  const resultTopic = `${topic}Result`;
  const waiting = new Map<string, Waiting>();
  const reply = (r: CommandResponse) =>
    bus.publish(resultTopic, r).catch((e) => console.error('link: replying over the bus failed', e));

  bus.on(topic, (m, from) => {
    const req = m as CommandRequest;
    if (req.to !== bus.nodeId) return;
    runHere(req.serviceId, req.command).then(
      (result) => reply({ id: req.id, to: from, ok: true, result: result ?? null }),
      (e) => reply({ id: req.id, to: from, ok: false, error: toWire(e) }),
    );
  });

  bus.on(resultTopic, (m) => {
    const r = m as CommandResponse;
    const w = r.to === bus.nodeId ? waiting.get(r.id) : undefined;
    if (!w) return;
    waiting.delete(r.id);
    clearTimeout(w.timer);
    if (r.ok) w.resolve(r.result);
    else {
      const e = r.error ?? toWire(null);
      w.reject(new ApiException(e.status, e.message, e.code, e.details));
    }
  });

  const send: ForwardedCommands['send'] = (node, serviceId, command) => {
    const id = randomUUID();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new ApiException(504, 'The server did not answer the command in time.', 'commandTimeout'));
      }, timeoutMs);
      waiting.set(id, { resolve, reject, timer });
      bus.publish(topic, { id, to: node, serviceId, command } satisfies CommandRequest).catch((e) => {
        waiting.delete(id);
        clearTimeout(timer);
        reject(e);
      });
    });
  };

  return {
    send,
    async toHolder(db, serviceId, command) {
      const { rows } = await db.query<{ connected_to: string | null }>(
        'SELECT connected_to FROM services WHERE service_id = $1 AND is_connected',
        [serviceId],
      );
      const node = rows[0]?.connected_to;
      if (!node || node === bus.nodeId) throw serviceNotConnected(serviceId);
      return send(node, serviceId, command);
    },
    close() {
      for (const w of waiting.values()) {
        clearTimeout(w.timer);
        w.reject(new ApiException(503, 'The server is shutting down.', 'shuttingDown'));
      }
      waiting.clear();
    },
  };
}
