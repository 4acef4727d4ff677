// Entities the console does not hold, asked of the server as the palette's query changes. A fleet
// holds a million dinos: the palette finds any of them by name or id with a bounded request per
// settled query instead of holding them. Keystrokes within the debounce send nothing, a newer query
// cancels the request of the one before, and the answers of the last few queries are kept, so
// backspacing over a query asks again for nothing.

import type { EntityRef } from '../../../commands/args.ts';
import { UUID } from '../../domain/constants.ts';

/** One bounded request: the entities matching `text`, best first. */
export type RemoteSearch = (text: string, signal: AbortSignal) => Promise<EntityRef[]>;

/** A name search needs this many characters: the server's substring index reads three at a time. */
export const REMOTE_MIN_CHARS = 3;
/** Typing runs at a key every 100 ms or faster; a query that stands this long is asked for. */
export const REMOTE_DEBOUNCE_MS = 60;
export const REMOTE_KEPT = 32;

/** The text worth a request: an id (uuid or in-game number) as typed, or a name of three characters or more. */
export function remoteText(query: string): string | null {
  const q = query.trim();
  if (UUID.test(q) || /^\d+$/.test(q)) return q;
  return q.length >= REMOTE_MIN_CHARS ? q : null;
}

export interface RemoteSearchOptions {
  debounceMs?: number;
  kept?: number;
}

export class RemoteEntitySearch {
  private readonly kept = new Map<string, EntityRef[]>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private inFlight: AbortController | null = null;
  private readonly debounceMs: number;
  private readonly keep: number;

  constructor(
    private readonly search: RemoteSearch,
    opts: RemoteSearchOptions = {},
  ) {
    this.debounceMs = opts.debounceMs ?? REMOTE_DEBOUNCE_MS;
    this.keep = opts.kept ?? REMOTE_KEPT;
  }

  /** The answer kept for this query, if it was asked lately. */
  cached(query: string): EntityRef[] | undefined {
    const text = remoteText(query);
    return text === null ? [] : this.kept.get(text);
  }

  /**
   * Asks for `query` once it has stood for the debounce, cancelling whatever was pending; `onResult`
   * gets the answer unless a newer query came first. A failed request finds nothing: the palette
   * still lists what it holds.
   */
  request(query: string, onResult: (query: string, refs: EntityRef[]) => void): void {
    this.cancel();
    const text = remoteText(query);
    if (text === null || this.kept.has(text)) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      const abort = new AbortController();
      this.inFlight = abort;
      this.search(text, abort.signal).then(
        (refs) => {
          if (abort.signal.aborted) return;
          this.inFlight = null;
          this.remember(text, refs);
          onResult(query, refs);
        },
        () => {
          if (this.inFlight === abort) this.inFlight = null;
        },
      );
    }, this.debounceMs);
  }

  /** Drops the pending request and aborts the one in flight. */
  cancel(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.inFlight?.abort();
    this.inFlight = null;
  }

  private remember(text: string, refs: EntityRef[]): void {
    this.kept.delete(text);
    this.kept.set(text, refs);
    if (this.kept.size > this.keep) this.kept.delete(this.kept.keys().next().value as string);
  }
}
