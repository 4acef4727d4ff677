// Where each list's active row was, per pane and route, so that going back to a view (Back, or the
// same section again) finds the row the user left. Kept for the session, not stored.

import { createContext } from 'react';

export interface RowPlace {
  key: string;
  index: number;
}

/** The pane and route a list is shown at; null outside a pane. */
export const ListPlaceContext = createContext<string | null>(null);

const places = new Map<string, RowPlace>();
/** Enough for every list a session visits; the oldest is forgotten first. */
const LIMIT = 500;

export function recallRow(place: string): RowPlace | undefined {
  return places.get(place);
}

export function rememberRow(place: string, row: RowPlace): void {
  places.delete(place);
  places.set(place, row);
  if (places.size > LIMIT) places.delete(places.keys().next().value as string);
}
