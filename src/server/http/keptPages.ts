// Pages of a list kept with the version of their rows (ListSource.version in listQuery.ts), so a
// page asked again is answered from here once the database says its rows are unchanged. A
// hundred consoles watching fifty servers' logs ask for each newest page four times a second,
// and a server adds a line about once a second: most asks find the page as it was, and checking
// that costs the database a quarter of writing the page again as JSON.

/** A page's rows as the JSON array the database wrote (UTF-8), how many, and their version then. */
export interface KeptPage {
  version: string | null;
  results: Buffer;
  n: number;
  /**
   * Where the source's writes are known (ListSource.writes): the rows' tiebreaks and the span of
   * their partition keys (text, as the database wrote them), and the snapshot (pg_snapshot) as of
   * which the page was last found to be the page.
   */
  since?: { snapshot: string; ids: string[]; low: string | null; high: string | null };
}

/**
 * What a kept page holds besides its results, counted against the bound: its key, version and
 * snapshot (a few hundred bytes) and its rows' ids. Counting results alone, a flood of searches
 * that match nothing ("[]", 2 bytes) could keep millions of pages within 16 MiB.
 */
const PAGE_OVERHEAD_BYTES = 512;
const ID_BYTES = 64;

/** The bytes a kept page is counted as. */
const sizeOf = (page: KeptPage) =>
  page.results.byteLength + PAGE_OVERHEAD_BYTES + (page.since?.ids.length ?? 0) * ID_BYTES;

/**
 * Least recently asked first out, past `maxBytes` (sizeOf). Nothing here is ever stale, so
 * nothing expires: a kept page is only answered after its version is read again and matches.
 */
export class KeptPages {
  readonly #pages = new Map<string, KeptPage>();
  #bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string): KeptPage | undefined {
    const page = this.#pages.get(key);
    if (page) {
      // Map keeps insertion order: moved to the end, it is the last to go.
      this.#pages.delete(key);
      this.#pages.set(key, page);
    }
    return page;
  }

  set(key: string, page: KeptPage): void {
    this.#drop(key);
    if (sizeOf(page) > this.maxBytes) return;
    this.#pages.set(key, page);
    this.#bytes += sizeOf(page);
    for (const oldest of this.#pages.keys()) {
      if (this.#bytes <= this.maxBytes) break;
      this.#drop(oldest);
    }
  }

  #drop(key: string): void {
    const page = this.#pages.get(key);
    if (!page) return;
    this.#pages.delete(key);
    this.#bytes -= sizeOf(page);
  }
}
