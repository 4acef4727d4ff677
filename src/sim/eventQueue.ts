// The mod's numbered event queue: every event gets the next seq and stays until the server
// acknowledges it (acks are cumulative), so a dropped link loses nothing.

import type { LinkEvent } from '../domain/link.ts';

export interface QueuedEvent {
  seq: number;
  event: LinkEvent;
}

export class EventQueue {
  private items: QueuedEvent[] = [];
  private nextSeq = 1;

  push(event: LinkEvent): number {
    const seq = this.nextSeq++;
    this.items.push({ seq, event });
    return seq;
  }

  /** Drops every event with seq ≤ n. */
  ack(n: number): void {
    const keepFrom = this.items.findIndex((q) => q.seq > n);
    this.items = keepFrom === -1 ? [] : this.items.slice(keepFrom);
  }

  /**
   * Reconciles with the server's highest stored seq. A server that has seen seqs this queue never
   * issued (the simulator restarted, its memory gone) would take ours as resends and store none of
   * them, so the unsent events are renumbered after the server's.
   */
  welcome(lastEventSeq: number): void {
    if (lastEventSeq < this.nextSeq) {
      this.ack(lastEventSeq);
      return;
    }
    this.items = this.items.map((q, i) => ({ seq: lastEventSeq + 1 + i, event: q.event }));
    this.nextSeq = lastEventSeq + 1 + this.items.length;
  }

  /** Queued events with seq > n, in order. */
  after(n: number): readonly QueuedEvent[] {
    return this.items.filter((q) => q.seq > n);
  }

  get pending(): number {
    return this.items.length;
  }

  get lastSeq(): number {
    return this.nextSeq - 1;
  }
}
