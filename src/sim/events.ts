// Builders for the events the simulated mod sends: one place decides each event's wording,
// level and metadata keys (SENTINEL-API §6), so behaviours and commands cannot disagree.

import { MODERATION_SCORES, type ModerationScore } from '../domain/enums.ts';
import type { LinkEvent } from '../domain/link.ts';
import type { PlayerIdentity } from './population.ts';
import type { Rng } from './random.ts';

const now = () => Date.now() / 1000;

function gameplay(
  eventName: LinkEvent['eventName'],
  message: string,
  metadata: Record<string, unknown>,
): LinkEvent {
  return { eventName, time: now(), type: 'Gameplay', level: 'Informational', message, metadata };
}

export const playerJoined = (p: PlayerIdentity): LinkEvent =>
  gameplay('playerJoined', `${p.name} joined the server`, {
    playerId: p.playerId,
    playerName: p.name,
    eosId: p.eosId,
    ipFingerprint: p.ipFingerprint,
    connectionDetails: { ...p.connectionDetails },
  });

export type LeaveReason = 'left' | 'kicked' | 'banned';
const LEAVE_TEXT: Record<LeaveReason, string> = {
  left: 'left the server',
  kicked: 'was kicked from the server',
  banned: 'was banned from the server',
};

export const playerLeft = (p: PlayerIdentity, reason: LeaveReason): LinkEvent =>
  gameplay('playerLeft', `${p.name} ${LEAVE_TEXT[reason]}`, { playerId: p.playerId, playerName: p.name });

export const playerRenamed = (p: PlayerIdentity, characterId: string, oldName: string): LinkEvent => ({
  ...gameplay('playerRenamed', `${oldName} is now known as ${p.name}`, {
    playerId: p.playerId,
    characterId,
    tribeId: null,
    oldName,
    newName: p.name,
  }),
  level: 'Notice',
});

/** Mostly near zero; the phrase's flags and a rare random spike are what moderators look for. */
export function moderationScores(rng: Rng, flags: Partial<Record<ModerationScore, number>> = {}) {
  const spike = rng.chance(0.03) ? rng.pick(MODERATION_SCORES) : null;
  const scores = {} as Record<ModerationScore, number>;
  for (const name of MODERATION_SCORES) {
    const low = rng.next() ** 4 * 0.12;
    const high = flags[name] ?? (name === spike ? rng.range(0.6, 1) : 0);
    scores[name] = Math.round(Math.max(low, high) * 1000) / 1000;
  }
  return scores;
}

export interface ChatLine {
  source: 'Game' | 'WebService';
  senderName: string;
  language: string;
  translations: Record<string, string>;
  scores: Record<ModerationScore, number>;
  scope: string;
  player?: { playerId: string; characterId: string };
}

export const chat = (line: ChatLine): LinkEvent => {
  const originalMessage = line.translations[line.language];
  return gameplay('chat', `${line.senderName}: ${line.translations.en ?? originalMessage}`, {
    source: line.source,
    sourceId: line.player?.playerId ?? null,
    sourceName: line.senderName,
    originalMessage,
    originalLanguage: line.language,
    senderName: line.senderName,
    scope: line.scope,
    playerId: line.player?.playerId ?? null,
    characterId: line.player?.characterId ?? null,
    translations: line.translations,
    analysis: { success: true, scores: line.scores },
  });
};

export const broadcasted = (message: string, source: string): LinkEvent =>
  gameplay('broadcasted', `Broadcast: ${message}`, { originalMessage: message, source });
