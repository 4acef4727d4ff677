// Console history per user, kept in localStorage like a shell's history file: ↑/↓ walk it without
// losing the line being typed, Ctrl+R searches it backwards.

import { type ListStorage, readStringList } from '../store/commandHistory.ts';

export const HISTORY_LIMIT = 500;
export const historyKey = (userId: string) => `palisade.history.${userId}`;

/** The part of Storage history needs; tests pass a Map-backed one. */
export type HistoryStorage = ListStorage;

export class History {
  private lines: string[];
  /** Where ↑/↓ stand: lines.length means the draft. */
  private pos: number;
  private draft = '';

  constructor(
    private readonly userId: string,
    private readonly storage: HistoryStorage | null = globalThis.localStorage ?? null,
  ) {
    this.lines = readStringList(storage, historyKey(userId)).slice(-HISTORY_LIMIT);
    this.pos = this.lines.length;
  }

  entries(): readonly string[] {
    return this.lines;
  }

  /** Records a line that was run; blank lines and a repeat of the previous one are not kept. */
  add(line: string): void {
    this.reset();
    if (line.trim() === '' || this.lines.at(-1) === line) return;
    this.lines.push(line);
    if (this.lines.length > HISTORY_LIMIT) this.lines.splice(0, this.lines.length - HISTORY_LIMIT);
    this.pos = this.lines.length;
    try {
      this.storage?.setItem(historyKey(this.userId), JSON.stringify(this.lines));
    } catch {
      // Storage full or disabled: history still works for this session.
    }
  }

  /** ↑: the previous entry, remembering `current` as the draft when leaving it; null at the oldest. */
  previous(current: string): string | null {
    if (this.pos === 0) return null;
    if (this.pos === this.lines.length) this.draft = current;
    return this.lines[--this.pos];
  }

  /** ↓: the next entry, or the draft once past the newest; null when already on the draft. */
  next(): string | null {
    if (this.pos >= this.lines.length) return null;
    this.pos++;
    return this.pos === this.lines.length ? this.draft : this.lines[this.pos];
  }

  /** Back on the draft (after Enter or Ctrl+C). */
  reset(): void {
    this.pos = this.lines.length;
    this.draft = '';
  }

  /**
   * Ctrl+R: the newest entry before index `before` containing `query` (case-insensitive), or null.
   * Pressing Ctrl+R again passes the last hit's index to find an older one.
   */
  search(query: string, before = this.lines.length): { index: number; line: string } | null {
    const q = query.toLowerCase();
    for (let i = Math.min(before, this.lines.length) - 1; i >= 0; i--) {
      if (this.lines[i].toLowerCase().includes(q)) return { index: i, line: this.lines[i] };
    }
    return null;
  }
}

/** The prompt shown while searching, as bash shows it. */
export const searchPrompt = (query: string, found: boolean) =>
  `(${found ? '' : 'failed '}reverse-i-search)'${query}': `;
