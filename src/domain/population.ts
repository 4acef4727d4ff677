// A server's population over time (docs/api.md "Population"): how many players were on it, per
// step, from its players' sessions. The ranges the console offers and the step each is read at
// keep every chart near 150 to 300 points, whatever its span.

export interface PopulationPoint {
  /** Epoch seconds: the start of the step. */
  time: number;
  /** The most players on the server at once during the step. */
  players: number;
}

export interface Population {
  serviceId: string;
  since: number;
  /** Seconds per point. */
  step: number;
  points: PopulationPoint[];
}

export const POPULATION_RANGES = [
  { id: '6h', title: '6 hours', seconds: 6 * 3600, step: 120 },
  { id: '24h', title: '24 hours', seconds: 86_400, step: 300 },
  { id: '7d', title: '7 days', seconds: 7 * 86_400, step: 3600 },
  { id: '30d', title: '30 days', seconds: 30 * 86_400, step: 3 * 3600 },
  { id: '90d', title: '90 days', seconds: 90 * 86_400, step: 8 * 3600 },
] as const;
export type PopulationRange = (typeof POPULATION_RANGES)[number]['id'];

/** Points one answer may hold: a step too small for its span is refused, not served slowly. */
export const POPULATION_MAX_POINTS = 5000;
/** The smallest step, in seconds. */
export const POPULATION_MIN_STEP = 60;
