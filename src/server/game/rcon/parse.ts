// Reading what ARK prints over RCON: ListPlayers, GetChat and GetGameLog answers, and the
// events the connector stores from them (the same event names and metadata the link's mod sends).

import { EOS_ID } from '../../../domain/constants.ts';
import type { GameEvent } from '../../model/world.ts';

/** What ARK prints for a command with no output, and for an empty chat or game log. */
export const NO_RESPONSE = /^\s*Server received, But no response!!\s*$/i;

export interface RconPlayer {
  name: string;
  eosId: string;
}

export interface ChatLine {
  sender: string;
  character: string | null;
  message: string;
}

export interface GameLogLine {
  /** Epoch seconds from the line's stamp, null when it has none. */
  time: number | null;
  message: string;
}

const linesOf = (text: string): string[] =>
  NO_RESPONSE.test(text)
    ? []
    : text
        .split(/\r?\n/)
        .map((l) => l.trimEnd())
        .filter((l) => l.trim() !== '');

/** "0. Name, 0002…": the id follows the last comma, since a name may hold commas. */
export function parseListPlayers(text: string): RconPlayer[] {
  const out: RconPlayer[] = [];
  for (const line of linesOf(text)) {
    const m = /^\s*\d+\.\s(.*),\s*(\S+)\s*$/.exec(line);
    if (m && EOS_ID.test(m[2])) out.push({ name: m[1].trim(), eosId: m[2].toLowerCase() });
  }
  return out;
}

/** "Sender (Character): text" from a player, "SERVER: text" from the console. */
export function parseChat(text: string): ChatLine[] {
  return linesOf(text).map((line) => {
    const m = /^(.*?) \(([^()]*)\): (.*)$/.exec(line);
    if (m) return { sender: m[1], character: m[2], message: m[3] };
    const i = line.indexOf(': ');
    return i > 0
      ? { sender: line.slice(0, i), character: null, message: line.slice(i + 2) }
      : { sender: 'Unknown', character: null, message: line };
  });
}

/** "2026.11.24_04.15.00: text"; the stamp is taken as UTC. */
export function parseGameLog(text: string): GameLogLine[] {
  return linesOf(text).map((line) => {
    const m = /^(\d{4})\.(\d{2})\.(\d{2})_(\d{2})\.(\d{2})\.(\d{2}): (.*)$/.exec(line);
    if (!m) return { time: null, message: line };
    const [, y, mo, d, h, mi, s, message] = m;
    return { time: Date.UTC(+y, +mo - 1, +d, +h, +mi, +s) / 1000, message };
  });
}

const gameplay = (
  eventName: string,
  message: string,
  metadata: Record<string, unknown>,
  time = Date.now() / 1000,
  level = 'Informational',
): GameEvent => ({ eventName, time, type: 'Gameplay', level, message, metadata });

export const joinedEvent = (p: RconPlayer) =>
  gameplay('playerJoined', `${p.name} joined the server`, { eosId: p.eosId, playerName: p.name });

export const leftEvent = (p: RconPlayer) =>
  gameplay('playerLeft', `${p.name} left the server`, { eosId: p.eosId, playerName: p.name });

export const renamedEvent = (p: RconPlayer, oldName: string) =>
  gameplay(
    'playerRenamed',
    `${oldName} is now known as ${p.name}`,
    { eosId: p.eosId, oldName, newName: p.name },
    undefined,
    'Notice',
  );

/** The console's own lines ("SERVER: …") are what the web sent; the rest is players talking. */
export function chatEvent(line: ChatLine, online: readonly RconPlayer[]): GameEvent {
  const fromConsole = line.character === null && line.sender.toUpperCase() === 'SERVER';
  const senderName = fromConsole ? 'Server' : line.sender;
  const player = fromConsole ? undefined : online.find((p) => p.name === line.sender);
  return gameplay('chat', `${senderName}: ${line.message}`, {
    source: fromConsole ? 'WebService' : 'Game',
    sourceName: senderName,
    senderName,
    characterName: line.character,
    originalMessage: line.message,
    originalLanguage: 'en',
    translations: { en: line.message },
    scope: 'Global',
    ...(player ? { eosId: player.eosId } : {}),
  });
}

export const gameLogEvent = (line: GameLogLine) =>
  gameplay(
    'customMessage',
    line.message,
    { message: line.message, source: 'gameLog' },
    line.time ?? undefined,
  );
