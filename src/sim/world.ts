// One simulated game server's state: who is online, who is banned, the game clock. Changes
// return the events the mod would report, so the caller decides where they go.

import type { LinkEvent, StatusFrame } from '../domain/link.ts';
import * as ev from './events.ts';
import type { PlayerIdentity } from './population.ts';
import type { Rng } from './random.ts';

export const MAX_PLAYERS = 70;
/** Game days per tick: fast enough that a watcher sees the clock move. */
const CLOCK_STEP = 0.01;

export class World {
  readonly online = new Map<string, PlayerIdentity>();
  /** Banned EOS ids, lower-case. */
  readonly banned = new Set<string>();
  private readonly characters = new Map<string, string>();
  readonly clusterId: string;
  readonly ipAddress: string;
  gameClock: number;
  /** How many players this server tends to hold; behaviours drift the population toward it. */
  readonly targetPopulation: number;

  constructor(
    readonly rng: Rng,
    readonly population: readonly PlayerIdentity[],
  ) {
    this.clusterId = rng.uuid();
    this.ipAddress = `203.0.113.${1 + rng.int(254)}`;
    this.gameClock = 1 + rng.int(300) + rng.next();
    this.targetPopulation = 4 + rng.int(16);
  }

  /** Each player gets one survivor per server, made on first join. */
  characterId(p: PlayerIdentity): string {
    let id = this.characters.get(p.playerId);
    if (!id) {
      id = this.rng.uuid();
      this.characters.set(p.playerId, id);
    }
    return id;
  }

  isBanned(p: PlayerIdentity): boolean {
    return this.banned.has(p.eosId.toLowerCase());
  }

  findByEosId(eosId: string): PlayerIdentity | undefined {
    const id = eosId.toLowerCase();
    return this.population.find((p) => p.eosId.toLowerCase() === id);
  }

  /** Players who could join now: not online, not banned. */
  candidates(): PlayerIdentity[] {
    return this.population.filter((p) => !this.online.has(p.playerId) && !this.isBanned(p));
  }

  join(p: PlayerIdentity): LinkEvent[] {
    if (this.online.has(p.playerId) || this.isBanned(p) || this.online.size >= MAX_PLAYERS) return [];
    this.online.set(p.playerId, p);
    this.characterId(p);
    return [ev.playerJoined(p)];
  }

  leave(p: PlayerIdentity, reason: ev.LeaveReason): LinkEvent[] {
    if (!this.online.delete(p.playerId)) return [];
    return [ev.playerLeft(p, reason)];
  }

  ban(eosId: string): LinkEvent[] {
    this.banned.add(eosId.toLowerCase());
    const p = this.findByEosId(eosId);
    return p ? this.leave(p, 'banned') : [];
  }

  unban(eosId: string): boolean {
    return this.banned.delete(eosId.toLowerCase());
  }

  rename(p: PlayerIdentity, newName: string): LinkEvent[] {
    if (p.name === newName) return [];
    const oldName = p.name;
    p.name = newName;
    return [ev.playerRenamed(p, this.characterId(p), oldName)];
  }

  advanceClock(): void {
    this.gameClock = Math.round((this.gameClock + CLOCK_STEP) * 1e6) / 1e6;
  }

  status(): StatusFrame {
    return {
      type: 'status',
      currentPlayers: this.online.size,
      maxPlayers: MAX_PLAYERS,
      gameClock: this.gameClock,
      clusterId: this.clusterId,
      ipAddress: this.ipAddress,
      rconConnected: true,
      difficulty: 5,
    };
  }
}
