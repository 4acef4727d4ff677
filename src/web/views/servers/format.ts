// How server facts read in lists and headers.

import type { Service, ServiceHistory } from '../../../domain/api.ts';
import { LINK_REFUSALS } from '../../../domain/billing.ts';
import { SERVER_STATUS_LABELS, type ServerStatus } from '../../../domain/enums.ts';
import { formatDate, formatLongDate } from '../../../domain/format.ts';

export function serverStatus(
  s: Pick<Service, 'isConnected' | 'rconConnected'> & Partial<Pick<Service, 'rconError'>>,
): ServerStatus {
  // An RCON server that cannot connect says why; a linked one reports its own RCON state.
  if (s.rconError) return 'rconError';
  if (!s.isConnected) return 'disconnected';
  return s.rconConnected ? 'connected' : 'rconError';
}

/**
 * "Connected", "RCON error: Wrong RCON password…" with the reason when there is one, or why the
 * game-server link refuses a disconnected server (its owner's subscription, SPEC §4).
 */
export const statusLabel = (s: Service) => {
  const label = SERVER_STATUS_LABELS[serverStatus(s)];
  if (!s.isConnected && s.linkRefusal) return LINK_REFUSALS[s.linkRefusal];
  return s.rconError ? `${label}: ${s.rconError}` : label;
};

export function population(s: Service): string {
  return s.maxPlayers > 0 ? `${s.currentPlayers} / ${s.maxPlayers}` : String(s.currentPlayers);
}

/** "3 min ago", "2 h ago", or a date, from epoch seconds. */
export function relativeTime(epoch: number | null, now = Date.now() / 1000): string {
  if (epoch === null) return '—';
  const d = Math.max(0, now - epoch);
  if (d < 60) return 'just now';
  if (d < 3600) return `${Math.floor(d / 60)} min ago`;
  if (d < 86400) return `${Math.floor(d / 3600)} h ago`;
  return formatDate(epoch);
}

/** "90 days, since 30 August 2026": how far back logs, chat, sessions and activity go. */
export function historyLabel(h: ServiceHistory): string {
  return `${h.days} ${h.days === 1 ? 'day' : 'days'}, since ${formatLongDate(h.since)}`;
}
