// One simulated game server's state: who is online and banned, their survivors, tribes, dinos
// (tamed, born, frozen, uploaded, dead with or without a cryopod backup), the game clock and the
// cluster id. Changes return the events the mod would report, so the caller decides where they go.

import { naturalColorsOf } from '../domain/blueprints/index.ts';
import type { LinkEvent, StatusFrame } from '../domain/link.ts';
import * as ev from './events.ts';
import type { PlayerIdentity } from './population.ts';
import type { Rng } from './random.ts';
import { SPECIES, type Species } from './species.ts';

/** Colours a simulated creature is born with (Evolved's table; Ascended's natural ones are the same ids). */
const NATURAL_COLORS = naturalColorsOf('ASE');

export const MAX_PLAYERS = 70;
/** Game days per tick: fast enough that a watcher sees the clock move. */
const CLOCK_STEP = 0.01;
/** Age a baby gains per tick; it matures (age 1) after about 25 ticks. */
const GROWTH_STEP = 0.04;
const NO_CLUSTER = '00000000-0000-0000-0000-000000000000';
/** The island spans ±MAP_EXTENT units; latitude and longitude run 0–100 across it. */
const MAP_EXTENT = 400_000;

export interface Position {
  x: number;
  y: number;
  z: number;
}

export interface Survivor {
  readonly characterId: string;
  readonly specimenId: number;
  readonly player: PlayerIdentity;
  tribeId: string | null;
  pos: Position;
  cuffed: boolean;
  buffs: string[];
  /** Items by class path and how many. */
  inventory: Map<string, number>;
}

export interface Tribe {
  readonly tribeId: string;
  readonly tribeNumber: number;
  name: string;
}

export type DinoStatus = 'Deployed' | 'Dead' | 'Frozen' | 'Uploaded';

export interface Dino {
  readonly dinoId: string;
  /** The 64-bit dino number: high and low 32-bit halves, as the game keeps them. */
  readonly id1: number;
  readonly id2: number;
  name: string;
  readonly species: Species;
  level: number;
  gender: 'None' | 'Female' | 'Male';
  /** 0 (newborn) to 1 (adult). */
  age: number;
  status: DinoStatus;
  tribeId: string | null;
  sterilized: boolean;
  /** Colour ids of the six regions (the blueprint data's colours; 0 none). */
  colors: number[];
  /** Whether a cryopod backup exists: a dead dino with one can be restored. */
  backup: boolean;
  pos: Position;
}

export const latLon = (p: Position) => ({
  lat: Math.round((50 + (p.y / MAP_EXTENT) * 50) * 100) / 100,
  lon: Math.round((50 + (p.x / MAP_EXTENT) * 50) * 100) / 100,
});

export class World {
  readonly online = new Map<string, PlayerIdentity>();
  /** Banned EOS ids, lower-case. */
  readonly banned = new Set<string>();
  /** One survivor per player per server, made on first join; keyed by player id. */
  readonly survivors = new Map<string, Survivor>();
  readonly tribes = new Map<string, Tribe>();
  readonly dinos = new Map<string, Dino>();
  wildDinos: number;
  clusterId: string;
  readonly ipAddress: string;
  gameClock: number;
  /** How many players this server tends to hold; behaviours drift the population toward it. */
  readonly targetPopulation: number;
  private nextTribeNumber = 1_000_000_000;
  private nextSpecimenId = 100_000_000;
  /**
   * The population by lower-case EOS id: a 30,000-line ban list looked each id up in a scan of
   * the whole population (2,000 players for 50 servers), 4.7 s of the game's time.
   */
  private readonly byEosId: ReadonlyMap<string, PlayerIdentity>;

  constructor(
    readonly rng: Rng,
    readonly population: readonly PlayerIdentity[],
  ) {
    this.byEosId = new Map(population.map((p) => [p.eosId.toLowerCase(), p]));
    this.clusterId = rng.uuid();
    this.ipAddress = `203.0.113.${1 + rng.int(254)}`;
    this.gameClock = 1 + rng.int(300) + rng.next();
    this.targetPopulation = 4 + rng.int(16);
    this.wildDinos = 5000 + rng.int(5000);
  }

  position(): Position {
    const c = () => Math.round(this.rng.range(-MAP_EXTENT, MAP_EXTENT) * 10) / 10;
    return { x: c(), y: c(), z: Math.round(this.rng.range(-2000, 12_000)) };
  }

  /** The survivor's id, made on first use (a player's first join on this server). */
  characterId(p: PlayerIdentity): string {
    return this.survivor(p).characterId;
  }

  survivor(p: PlayerIdentity): Survivor {
    let s = this.survivors.get(p.playerId);
    if (!s) {
      s = {
        characterId: this.rng.uuid(),
        specimenId: this.nextSpecimenId++,
        player: p,
        tribeId: null,
        pos: this.position(),
        cuffed: false,
        buffs: [],
        inventory: new Map(),
      };
      this.survivors.set(p.playerId, s);
    }
    return s;
  }

  tribeOf(s: Survivor): Tribe | null {
    return s.tribeId ? (this.tribes.get(s.tribeId) ?? null) : null;
  }

  onlineSurvivors(): Survivor[] {
    return [...this.online.values()].map((p) => this.survivor(p));
  }

  findSurvivor(ref: Readonly<Record<string, unknown>>): Survivor | undefined {
    for (const s of this.survivors.values())
      if (s.characterId === ref.characterId || s.specimenId === ref.specimenId) return s;
    return undefined;
  }

  findDino(ref: Readonly<Record<string, unknown>>): Dino | undefined {
    if (typeof ref.dinoId === 'string') return this.dinos.get(ref.dinoId);
    for (const d of this.dinos.values()) if (d.id1 === ref.dinoId1 && d.id2 === ref.dinoId2) return d;
    return undefined;
  }

  isBanned(p: PlayerIdentity): boolean {
    return this.banned.has(p.eosId.toLowerCase());
  }

  findByEosId(eosId: string): PlayerIdentity | undefined {
    return this.byEosId.get(eosId.toLowerCase());
  }

  /** Players who could join now: not online, not banned. */
  candidates(): PlayerIdentity[] {
    return this.population.filter((p) => !this.online.has(p.playerId) && !this.isBanned(p));
  }

  join(p: PlayerIdentity): LinkEvent[] {
    if (this.online.has(p.playerId) || this.isBanned(p) || this.online.size >= MAX_PLAYERS) return [];
    const firstTime = !this.survivors.has(p.playerId);
    this.online.set(p.playerId, p);
    const s = this.survivor(p);
    return firstTime ? [ev.playerJoined(p), ev.playerSpawned(s, null)] : [ev.playerJoined(p)];
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
    const s = this.survivor(p);
    return [ev.playerRenamed(p, s.characterId, s.tribeId, oldName)];
  }

  // Tribes

  createTribe(founder: Survivor, name: string): LinkEvent[] {
    const tribe: Tribe = { tribeId: this.rng.uuid(), tribeNumber: this.nextTribeNumber++, name };
    this.tribes.set(tribe.tribeId, tribe);
    const old = founder.tribeId;
    founder.tribeId = tribe.tribeId;
    return [ev.tribeCreated(tribe, founder), ...(old ? [ev.playerTribeChanged(founder, old, tribe)] : [])];
  }

  joinTribe(s: Survivor, tribe: Tribe | null): LinkEvent[] {
    const old = s.tribeId;
    if (old === (tribe?.tribeId ?? null)) return [];
    s.tribeId = tribe?.tribeId ?? null;
    return [ev.playerTribeChanged(s, old, tribe)];
  }

  renameTribe(tribe: Tribe, name: string): LinkEvent[] {
    if (tribe.name === name) return [];
    const old = tribe.name;
    tribe.name = name;
    return [ev.tribeRenamed(tribe, old)];
  }

  destroyTribe(tribe: Tribe): LinkEvent[] {
    if (!this.tribes.delete(tribe.tribeId)) return [];
    for (const s of this.survivors.values()) if (s.tribeId === tribe.tribeId) s.tribeId = null;
    for (const d of this.dinos.values()) if (d.tribeId === tribe.tribeId) d.tribeId = null;
    return [ev.tribeDestroyed(tribe)];
  }

  // Dinos

  private newDino(species: Species, tribeId: string | null, over: Partial<Dino> = {}): Dino {
    const d: Dino = {
      dinoId: this.rng.uuid(),
      id1: this.rng.int(2 ** 31),
      id2: this.rng.int(2 ** 32),
      name: '',
      species,
      level: 1 + this.rng.int(150),
      gender: species.gendered ? (this.rng.chance(0.5) ? 'Female' : 'Male') : 'None',
      age: 1,
      status: 'Deployed',
      tribeId,
      sterilized: false,
      colors: this.naturalColors(),
      backup: false,
      pos: this.position(),
      ...over,
    };
    this.dinos.set(d.dinoId, d);
    return d;
  }

  /** Six region colours a creature is born with; `asked` (0: the game decides) wins where given. */
  private naturalColors(asked: readonly number[] = []): number[] {
    return Array.from({ length: 6 }, (_, i) => asked[i] || this.rng.pick(NATURAL_COLORS).id);
  }

  tame(s: Survivor, tribe: Tribe): LinkEvent[] {
    if (this.wildDinos === 0) return [];
    this.wildDinos--;
    // A tribe tames more of what it already keeps half the time: among the catalogue's hundred-odd
    // species, pairs to breed (and so babies growing up) would otherwise hardly ever form.
    const kept = [...this.dinos.values()].filter((d) => d.tribeId === tribe.tribeId);
    const species =
      kept.length > 0 && this.rng.chance(0.5) ? this.rng.pick(kept).species : this.rng.pick(SPECIES);
    const d = this.newDino(species, tribe.tribeId, { pos: { ...s.pos } });
    return [ev.dinoTamed(d, tribe)];
  }

  /** A baby of two adults of one species in a tribe, claimed as it hatches. */
  breed(mother: Dino, father: Dino): LinkEvent[] {
    const tribe = mother.tribeId ? this.tribes.get(mother.tribeId) : undefined;
    if (!tribe || mother.species !== father.species || mother.sterilized || father.sterilized) return [];
    const level = Math.max(mother.level, father.level);
    const baby = this.newDino(mother.species, tribe.tribeId, { level, age: 0, pos: { ...mother.pos } });
    return [ev.dinoClaimed(baby, tribe)];
  }

  /** Babies grow each tick; those reaching adulthood are reported. */
  grow(): LinkEvent[] {
    const events: LinkEvent[] = [];
    for (const d of this.dinos.values()) {
      if (d.age >= 1 || d.status !== 'Deployed') continue;
      d.age = Math.min(1, Math.round((d.age + GROWTH_STEP) * 1000) / 1000);
      if (d.age === 1) events.push(ev.dinoMatured(d));
    }
    return events;
  }

  killDino(d: Dino, attacker: string): LinkEvent[] {
    if (d.status !== 'Deployed') return [];
    d.status = 'Dead';
    // A dino that was ever in a cryopod has a backup the tribe can restore.
    return [ev.dinoDied(d, attacker)];
  }

  freeze(d: Dino): LinkEvent[] {
    if (d.status !== 'Deployed') return [];
    d.status = 'Frozen';
    d.backup = true;
    return [ev.dinoFrozen(d)];
  }

  unfreeze(d: Dino, by: Survivor): LinkEvent[] {
    if (d.status !== 'Frozen') return [];
    d.status = 'Deployed';
    d.pos = { ...by.pos };
    return [ev.dinoUnfrozen(d, by, this.rng.chance(0.7))];
  }

  upload(d: Dino): LinkEvent[] {
    if (d.status !== 'Deployed') return [];
    d.status = 'Uploaded';
    return [ev.dinoUploaded(d)];
  }

  download(d: Dino): LinkEvent[] {
    if (d.status !== 'Uploaded') return [];
    d.status = 'Deployed';
    return [ev.dinoDownloaded(d)];
  }

  renameDino(d: Dino, name: string): LinkEvent[] {
    if (d.name === name) return [];
    const old = d.name;
    d.name = name;
    return [ev.dinoRenamed(d, old)];
  }

  unclaim(d: Dino): LinkEvent[] {
    if (!d.tribeId || d.status !== 'Deployed') return [];
    const old = d.tribeId;
    d.tribeId = null;
    return [ev.dinoUnclaimed(d, old)];
  }

  claim(d: Dino, tribe: Tribe): LinkEvent[] {
    if (d.tribeId || d.status !== 'Deployed') return [];
    d.tribeId = tribe.tribeId;
    return [ev.dinoClaimed(d, tribe)];
  }

  transfer(d: Dino, to: Tribe): LinkEvent[] {
    if (!d.tribeId || d.tribeId === to.tribeId) return [];
    const old = d.tribeId;
    d.tribeId = to.tribeId;
    return [ev.dinoTribeChanged(d, old, to)];
  }

  setSterilized(d: Dino, sterilized: boolean): LinkEvent[] {
    if (d.sterilized === sterilized) return [];
    d.sterilized = sterilized;
    return [
      sterilized
        ? ev.dinoSterilized(d, this.tribes.get(d.tribeId ?? ''))
        : ev.dinoUnsterilized(d, this.tribes.get(d.tribeId ?? '')),
    ];
  }

  /** Brings a dead dino back from its cryopod backup, next to the survivor. */
  restore(d: Dino, to: Survivor): LinkEvent[] {
    if (d.status !== 'Dead' || !d.backup) return [];
    d.status = 'Deployed';
    d.tribeId = to.tribeId ?? d.tribeId;
    d.pos = { ...to.pos };
    return [ev.dinoRestored(d, to)];
  }

  giveDino(to: Survivor, species: Species, opts: ev.GivenDino): { dino: Dino; events: LinkEvent[] } {
    const dino = this.newDino(species, to.tribeId, {
      name: opts.name ?? '',
      level: opts.level ?? 1,
      age: opts.age ?? 1,
      // No gender asked: the game decides, as for a wild spawn.
      gender: species.gendered ? ((opts.isFemale ?? this.rng.chance(0.5)) ? 'Female' : 'Male') : 'None',
      sterilized: opts.isSterilized ?? false,
      colors: this.naturalColors(opts.colors),
      pos: { ...to.pos },
    });
    return { dino, events: [ev.dinoCreated(dino, to, opts)] };
  }

  // Inventories and what scripts do to survivors

  giveItem(to: Survivor, item: ev.GivenItem): LinkEvent[] {
    to.inventory.set(item.itemPath, (to.inventory.get(item.itemPath) ?? 0) + item.quantity);
    return [ev.itemGiven(to, this.tribeOf(to), item)];
  }

  /** Removes an item from every inventory; how many were destroyed. */
  destroyItem(itemPath: string): number {
    let n = 0;
    for (const s of this.survivors.values()) {
      n += s.inventory.get(itemPath) ?? 0;
      s.inventory.delete(itemPath);
    }
    return n;
  }

  /** Kills a survivor, online or not; they drop what they carried. */
  killSurvivor(s: Survivor, attacker: string): LinkEvent[] {
    s.inventory.clear();
    return [ev.playerDied(s, this.tribeOf(s), attacker)];
  }

  setBuff(s: Survivor, buff: string, mode: 'add' | 'remove' | 'toggle'): LinkEvent[] {
    const had = s.buffs.includes(buff);
    const want = mode === 'toggle' ? !had : mode === 'add';
    if (want === had) return [];
    s.buffs = want ? [...s.buffs, buff] : s.buffs.filter((b) => b !== buff);
    return [ev.playerBuffsChanged(s, this.tribeOf(s), want ? [buff] : [], want ? [] : [buff])];
  }

  destroyWildDinos(): number {
    const n = this.wildDinos;
    this.wildDinos = 0;
    return n;
  }

  // Clock and cluster

  advanceClock(): void {
    this.gameClock = Math.round((this.gameClock + CLOCK_STEP) * 1e6) / 1e6;
  }

  /** The clock jumps (a save from the past was loaded, or someone set the time). */
  jumpClock(to: number, rollback: boolean): LinkEvent[] {
    const old = this.gameClock;
    this.gameClock = Math.round(Math.max(1, to) * 1e6) / 1e6;
    return [
      rollback ? ev.rollbackDetected(old, this.gameClock) : ev.clockTamperingDetected(old, this.gameClock),
    ];
  }

  changeClusterId(id: string | null): LinkEvent[] {
    this.clusterId = id ?? NO_CLUSTER;
    return [id ? ev.clusterIdChanged() : ev.noClusterId()];
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
