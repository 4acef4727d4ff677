// The alerts of one process: stored lines held against event rules as they are published, the
// clock's tick for conditions that last, and the sender of what is stored to send.

import type { LogMessage } from '../../domain/api.ts';
import type { ServerContext } from '../context.ts';
import { createDeliverer } from './deliver.ts';
import { alertOnLines } from './evaluate.ts';
import { createMailer, type MailConfig } from './mail.ts';
import { alertTick } from './tick.ts';

export interface AlertOptions {
  mail?: MailConfig;
  /** How often lasting conditions are looked at and quiet incidents cleared; default 15 s. */
  tickMs?: number;
  /** How often deliveries due (retries, other processes') are looked for; default 1 s. */
  pollMs?: number;
}

export interface Alerts {
  /** Lines stored and published: held against the rules, after the caller moved on. */
  onLines(lines: readonly LogMessage[]): void;
  /** Something was stored to send. */
  wake(): void;
  /** Whether this install can send mail (a relay is configured). */
  readonly sendsMail: boolean;
  /** One tick now (tests, and the timer). */
  tick(): Promise<void>;
  /** Lines handed over so far are held, and what is due is sent (tests wait on it). */
  settle(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Lines waiting to be held against the rules at most: past it (a flood the database cannot keep
 * up with) lines are let through unmatched, said once in the server's log, rather than held in
 * memory without bound.
 */
const MAX_WAITING = 20_000;
const TICK_MS = 15_000;
const POLL_MS = 1_000;

export function createAlerts(ctx: ServerContext, opts: AlertOptions = {}): Alerts {
  const mailer = opts.mail ? createMailer(opts.mail) : null;
  const deliverer = createDeliverer(ctx, mailer, opts.pollMs ?? POLL_MS);
  let chain: Promise<void> = Promise.resolve();
  let waiting = 0;
  let warned = false;
  let ticking: Promise<void> | null = null;

  const tick = () => {
    ticking ??= alertTick(ctx)
      .catch((e) => console.error('alerts: tick failed:', (e as Error).message))
      .finally(() => {
        ticking = null;
      });
    return ticking;
  };
  const timer = setInterval(() => void tick(), opts.tickMs ?? TICK_MS);
  timer.unref();

  return {
    sendsMail: mailer !== null,
    onLines(lines) {
      if (lines.length === 0) return;
      if (waiting + lines.length > MAX_WAITING) {
        if (!warned) console.error('alerts: too many lines waiting; some are not held against rules');
        warned = true;
        return;
      }
      waiting += lines.length;
      // In order, one batch at a time: an incident's count and its first notice follow the log's order.
      chain = chain
        .then(() => alertOnLines(ctx, lines))
        .catch((e) => console.error('alerts: matching lines failed:', (e as Error).message))
        .finally(() => {
          waiting -= lines.length;
        });
    },
    wake: () => deliverer.wake(),
    tick,
    async settle() {
      await chain;
      await ticking;
      await deliverer.drain();
    },
    async close() {
      clearInterval(timer);
      await chain;
      await ticking;
      await deliverer.close();
      mailer?.close();
    },
  };
}
