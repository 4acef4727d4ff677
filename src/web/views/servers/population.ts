// A server's population as the console reads it: one query per server and range, shared by the
// server list's sparkline and the server page's chart, and the sentence that says what a chart
// shows (a canvas says nothing to a screen reader, and a number is quicker to read than a line).

import { useQuery } from '@tanstack/react-query';
import { POPULATION_RANGES, type Population, type PopulationRange } from '../../../domain/population.ts';
import { useApp } from '../../app/deps.tsx';

const rangeOf = (id: PopulationRange) => POPULATION_RANGES.find((r) => r.id === id)!;

/** Fetched again each minute: a chart of the last hours moves. */
const FRESH_MS = 60_000;

export function usePopulation(serviceId: string, range: PopulationRange) {
  const { api } = useApp();
  const r = rangeOf(range);
  return useQuery({
    queryKey: ['population', serviceId, range],
    queryFn: () => api.services.population(serviceId, Math.floor(Date.now() / 1000) - r.seconds, r.step),
    staleTime: FRESH_MS,
    refetchInterval: FRESH_MS,
  });
}

export function populationSummary(p: Population, range: PopulationRange): string {
  const players = p.points.map((x) => x.players);
  if (players.length === 0) return 'No players yet.';
  const most = Math.max(...players);
  const now = players[players.length - 1];
  const average = players.reduce((a, b) => a + b, 0) / players.length;
  return `Over ${rangeOf(range).title}: at most ${most}, on average ${average.toFixed(1)}, now ${now}.`;
}
