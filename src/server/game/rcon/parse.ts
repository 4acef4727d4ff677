// Reading what ARK prints over RCON (../shared/ARK-RCON.md): ListPlayers, GetChat and GetGameLog
// answers, and the events the connector stores from them, under the same event names and metadata
// the mod sends, so one pipeline handles both.

import { type GameIdProvider, type GameKind, gameIdProvider, normalGameId } from '../../../domain/gameIds.ts';
import type { GameEvent } from '../../model/world.ts';

/** What ARK prints for a command with no output, and for an empty chat or game log (compared trimmed). */
export const NO_RESPONSE = /^\s*Server received, But no response!!\s*$/i;

/** A reply that says nothing: the phrase above, an Ascended tool's "(no response)", or nothing. */
export const saysNothing = (text: string) =>
  text.trim() === '' || NO_RESPONSE.test(text) || /^\s*\(no response\)\s*$/i.test(text);

export interface RconPlayer {
  name: string;
  /** SteamID64 on Evolved, the EOS id on Ascended, in its stored form. */
  gameId: string;
  provider: GameIdProvider;
}

/** One line of GetChat: a player talking, the console, an admin's command, a tribe's log, or else. */
export type ChatFeedLine =
  | { kind: 'chat'; sender: string; character: string | null; message: string }
  | { kind: 'server'; message: string }
  | { kind: 'admin'; command: string; playerName: string; arkId: string; player: RconPlayer | null }
  | { kind: 'tribe'; tribeName: string; tribeNumber: number; day: number; clock: string; message: string }
  | { kind: 'other'; text: string };

export interface GameLogLine {
  /** Epoch seconds from the line's stamp, null when it has none. */
  time: number | null;
  message: string;
}

const linesOf = (text: string): string[] =>
  saysNothing(text)
    ? []
    : text
        .split(/\r?\n/)
        .map((l) => l.trimEnd())
        .filter((l) => l.trim() !== '' && !NO_RESPONSE.test(l));

const player = (name: string, id: string): RconPlayer | null => {
  const provider = gameIdProvider(id);
  return provider ? { name: name.trim(), gameId: normalGameId(id), provider } : null;
};

/** "0. Name, ID": split at the last ", ", since a name may hold commas and dots. */
export function parseListPlayers(text: string): RconPlayer[] {
  const out: RconPlayer[] = [];
  for (const line of linesOf(text)) {
    const m = /^\s*\d+\.\s(.*),\s*(\S+)\s*$/.exec(line);
    const p = m && player(m[1], m[2]);
    if (p) out.push(p);
  }
  return out;
}

/** Which game prints these ids: SteamID64 is Evolved's, the EOS id Ascended's; null when none says. */
export function kindOf(players: readonly RconPlayer[]): GameKind | null {
  const p = players[0];
  return p ? (p.provider === 'Steam' ? 'evolved' : 'ascended') : null;
}

const ADMIN_CMD =
  /^AdminCmd: (.*) \(PlayerName: (.*), ARKID: (\d+), (?:SteamID|PlatformID): ([0-9A-Za-z]+)\)\s*$/;
const TRIBE_LOG = /^Tribe (.+), ID (\d+): Day (\d+), (\d{1,2}:\d{2}:\d{2}): (.*)$/;
/** The tribe log's colour markup: `<RichColor Color="1, 0, 0, 1">text</>)`. */
const RICH_COLOR = /<RichColor[^>]*>|<\/>\)?/g;

/** One GetChat line as what it is. */
export function readChatLine(line: string): ChatFeedLine {
  const admin = ADMIN_CMD.exec(line);
  if (admin)
    return {
      kind: 'admin',
      command: admin[1],
      playerName: admin[2],
      arkId: admin[3],
      player: player(admin[2], admin[4]),
    };
  const tribe = TRIBE_LOG.exec(line);
  if (tribe)
    return {
      kind: 'tribe',
      tribeName: tribe[1],
      tribeNumber: Number(tribe[2]),
      day: Number(tribe[3]),
      clock: tribe[4],
      message: tribe[5].replace(RICH_COLOR, '').trim(),
    };
  if (/^SERVER: /.test(line)) return { kind: 'server', message: line.slice('SERVER: '.length) };
  const said = /^(.*?) \(([^()]*)\): (.*)$/.exec(line);
  if (said) return { kind: 'chat', sender: said[1], character: said[2], message: said[3] };
  return { kind: 'other', text: line };
}

export const parseChatFeed = (text: string): ChatFeedLine[] => linesOf(text).map(readChatLine);

/** "2026.11.24_04.15.00: text"; the stamp (the server's local time) is taken as UTC. */
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

/** The metadata naming a player by the id the game printed: the mod's `eosId`, or `steamId`. */
const idMeta = (p: RconPlayer) => (p.provider === 'EOS' ? { eosId: p.gameId } : { steamId: p.gameId });

export const joinedEvent = (p: RconPlayer) =>
  gameplay('playerJoined', `${p.name} joined the server`, { ...idMeta(p), playerName: p.name });

/** `time`: when they were last seen online, which is when they left as far as anyone can tell. */
export const leftEvent = (p: RconPlayer, time?: number) =>
  gameplay('playerLeft', `${p.name} left the server`, { ...idMeta(p), playerName: p.name }, time);

export const renamedEvent = (p: RconPlayer, oldName: string) =>
  gameplay(
    'playerRenamed',
    `${oldName} is now known as ${p.name}`,
    { ...idMeta(p), oldName, newName: p.name },
    undefined,
    'Notice',
  );

/** A GetChat line as the event the mod would send for it. */
export function chatFeedEvent(line: ChatFeedLine, online: readonly RconPlayer[]): GameEvent {
  switch (line.kind) {
    case 'admin':
      return gameplay(
        'adminCommand',
        `${line.playerName} executed \`${line.command}\``,
        {
          command: line.command,
          playerName: line.playerName,
          arkId: line.arkId,
          ...(line.player ? idMeta(line.player) : {}),
        },
        undefined,
        'Notice',
      );
    case 'tribe':
      return gameplay('tribeLog', `${line.tribeName}: ${line.message}`, {
        tribeName: line.tribeName,
        tribeNumber: line.tribeNumber,
        day: line.day,
        clock: line.clock,
        message: line.message,
      });
    case 'other':
      return gameplay('customMessage', line.text, { message: line.text, source: 'chatFeed' });
    default:
      return chatEvent(line, online);
  }
}

/**
 * The console's lines ("SERVER: …") are what the web or a script sent through ServerChat; the
 * rest is players talking.
 */
function chatEvent(
  line: ChatFeedLine & { kind: 'chat' | 'server' },
  online: readonly RconPlayer[],
): GameEvent {
  const fromConsole = line.kind === 'server';
  const senderName = fromConsole ? 'Server' : line.sender;
  const character = fromConsole ? null : line.character;
  const speaker = fromConsole ? undefined : online.find((p) => p.name === line.sender);
  return gameplay('chat', `${senderName}: ${line.message}`, {
    source: fromConsole ? 'WebService' : 'Game',
    sourceName: senderName,
    senderName,
    characterName: character,
    originalMessage: line.message,
    originalLanguage: 'en',
    translations: { en: line.message },
    scope: 'Global',
    ...(speaker ? idMeta(speaker) : {}),
  });
}

export const gameLogEvent = (line: GameLogLine) =>
  gameplay(
    'customMessage',
    line.message,
    { message: line.message, source: 'gameLog' },
    line.time ?? undefined,
  );
