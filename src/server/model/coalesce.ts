// Work that arrives faster than the database answers, done in rounds: everything added while one
// round is being written goes into the next, so a burst of a thousand costs a few statements, and
// a single item waits for nothing but the round in progress.

/** `add(item)` resolves once the round holding `item` has been written (or rejects with its error). */
export function coalesce<T>(
  flush: (items: T[]) => Promise<void>,
  maxRound = 200,
): (item: T) => Promise<void> {
  let waiting: { item: T; done: (e?: unknown) => void }[] = [];
  let writing = false;
  async function rounds(): Promise<void> {
    writing = true;
    while (waiting.length > 0) {
      const round = waiting.slice(0, maxRound);
      waiting = waiting.slice(round.length);
      try {
        await flush(round.map((w) => w.item));
        for (const w of round) w.done();
      } catch (e) {
        for (const w of round) w.done(e ?? new Error('coalesce: round failed'));
      }
    }
    writing = false;
  }
  return (item) =>
    new Promise<void>((resolve, reject) => {
      waiting.push({ item, done: (e) => (e === undefined ? resolve() : reject(e)) });
      if (!writing) void rounds();
    });
}
