// The loaded parts of a server-side list: blocks of rows at known positions, the least recently
// used dropped beyond a capacity, so scrolling through a million rows holds a few thousand.
// Blocks need not be page-aligned: when live lines are folded into the list every held block
// moves down by the same count, and a page fetched later may overlap one already held.

interface Block<T> {
  start: number;
  rows: readonly T[];
  used: number;
}

export class BlockCache<T> {
  private blocks: Block<T>[] = [];
  private clock = 0;

  constructor(readonly capacity: number) {}

  get size(): number {
    return this.blocks.length;
  }

  /** Rows held, for tests and the heap figure. */
  get heldRows(): number {
    return this.blocks.reduce((n, b) => n + b.rows.length, 0);
  }

  put(start: number, rows: readonly T[]): void {
    if (rows.length === 0) return;
    // A block wholly inside the new one is stale.
    this.blocks = this.blocks.filter(
      (b) => !(b.start >= start && b.start + b.rows.length <= start + rows.length),
    );
    this.blocks.push({ start, rows, used: ++this.clock });
    if (this.blocks.length > this.capacity) {
      this.blocks.sort((a, b) => b.used - a.used);
      this.blocks.length = this.capacity;
    }
  }

  get(i: number): T | undefined {
    for (const b of this.blocks) if (i >= b.start && i < b.start + b.rows.length) return b.rows[i - b.start];
    return undefined;
  }

  /** Whether every index of [start, end) is held. */
  covers(start: number, end: number): boolean {
    let i = start;
    while (i < end) {
      const b = this.blocks.find((x) => i >= x.start && i < x.start + x.rows.length);
      if (!b) return false;
      i = b.start + b.rows.length;
    }
    return true;
  }

  /** Marks the blocks a view shows as recently used, so eviction takes others first. */
  touch(start: number, end: number): void {
    for (const b of this.blocks) if (b.start < end && b.start + b.rows.length > start) b.used = ++this.clock;
  }

  /** Every block moves by `by` positions (rows were inserted before them). */
  shift(by: number): void {
    for (const b of this.blocks) b.start += by;
  }

  clear(): void {
    this.blocks = [];
  }
}
