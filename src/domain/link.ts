// The game-server link protocol (version 1), as docs/api.md describes it: one WebSocket per game
// server, JSON text frames. The simulator speaks the mod's side, src/server/link the network's.

import type { EventName, LogLevel, LogType } from './enums.ts';

export const LINK_PROTOCOL = 1;
/** Either side pings after this much idle time… */
export const LINK_PING_MS = 20_000;
/** …and drops a link that has been silent this long. */
export const LINK_SILENCE_MS = 60_000;
export const BAD_ACCESS_KEY_CLOSE = 4001;
/** The owner's subscription does not allow this server now (SPEC §4); the game retries later. */
export const SUBSCRIPTION_CLOSE = 4005;

export interface LinkEvent {
  eventName: EventName;
  /** Epoch seconds. */
  time: number;
  type: LogType;
  level: LogLevel;
  /** Human text, English. */
  message: string;
  metadata: Record<string, unknown>;
}

export interface StatusFrame {
  type: 'status';
  currentPlayers: number;
  maxPlayers: number;
  /** Day number plus the fraction of the day: 12.5 is day 12, 12:00. */
  gameClock: number;
  clusterId: string;
  ipAddress: string;
  rconConnected: boolean;
  difficulty: number;
}

/** A `gameCommands` body (SENTINEL-API §2.3/§6); fields beyond `type` depend on it. */
export interface GameCommand {
  type: string;
  [field: string]: unknown;
}

export interface CommandReply {
  ok: boolean;
  result?: unknown;
  error?: string;
}

export type ModFrame =
  | { type: 'hello'; accessKey: string; protocol: typeof LINK_PROTOCOL }
  | { type: 'event'; seq: number; event: LinkEvent }
  | StatusFrame
  | ({ type: 'commandResult'; seq: number } & CommandReply)
  | { type: 'ping' }
  | { type: 'pong' };

export type ServerFrame =
  | { type: 'welcome'; serviceId: string; lastEventSeq: number }
  | { type: 'ack'; seq: number }
  | { type: 'command'; seq: number; command: GameCommand }
  | { type: 'error'; code: string; message: string }
  | { type: 'ping' }
  | { type: 'pong' };
