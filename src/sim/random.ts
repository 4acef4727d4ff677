// A seeded PRNG, so a simulator run is reproducible: the same seed gives the same players,
// names, ids and chat, which makes demos and bug reports repeatable.

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [0, maxExclusive). */
  int(maxExclusive: number): number;
  range(min: number, max: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  hex(digits: number): string;
  /** A version 4 UUID made of this generator's bits. */
  uuid(): string;
  /** An independent stream, so adding draws to one part of the world does not reshuffle another. */
  fork(salt: number): Rng;
}

/** Tommy Ettinger's mulberry32: 32-bit state, good enough spread for simulation. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function createRng(seed: number): Rng {
  const next = mulberry32(seed);
  const int = (n: number) => Math.floor(next() * n);
  const hex = (digits: number) => Array.from({ length: digits }, () => int(16).toString(16)).join('');
  return {
    next,
    int,
    range: (min, max) => min + next() * (max - min),
    chance: (p) => next() < p,
    pick: (items) => items[int(items.length)],
    hex,
    uuid() {
      const h = hex(32).split('');
      h[12] = '4';
      h[16] = ((Number.parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
      const s = h.join('');
      return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
    },
    fork: (salt) => createRng((Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) + Math.imul(salt, 0xc2b2ae35)) >>> 0),
  };
}
