// One simulated game server: its world, its event queue and its link, driven by a tick.

import type { GameCommand, LinkEvent } from '../domain/link.ts';
import { BEHAVIOURS, typedLine } from './behaviours.ts';
import { runCommand } from './commands.ts';
import { EventQueue } from './eventQueue.ts';
import { LinkClient } from './link.ts';
import type { PlayerIdentity } from './population.ts';
import type { Rng } from './random.ts';
import { World } from './world.ts';

export interface SimServerOptions {
  linkUrl: string;
  accessKey: string;
  name: string;
  rng: Rng;
  population: readonly PlayerIdentity[];
  log(line: string): void;
}

export class SimServer {
  readonly name: string;
  readonly accessKey: string;
  readonly world: World;
  readonly queue = new EventQueue();
  readonly link: LinkClient;

  constructor(opts: SimServerOptions) {
    this.name = opts.name;
    this.accessKey = opts.accessKey;
    this.world = new World(opts.rng, opts.population);
    this.link = new LinkClient({
      url: opts.linkUrl,
      accessKey: opts.accessKey,
      queue: this.queue,
      onCommand: (cmd) => this.command(cmd),
      status: () => this.world.status(),
      log: (line) => opts.log(`[${this.name}] ${line}`),
    });
  }

  /** One step of world life: the clock moves, things happen, the server hears of it. */
  tick(): void {
    this.world.advanceClock();
    this.emit(BEHAVIOURS.flatMap((behave) => behave(this.world)));
    this.link.sendStatus();
  }

  command(cmd: GameCommand) {
    const outcome = runCommand(this.world, cmd);
    this.emit(outcome.events);
    return outcome.reply;
  }

  /**
   * A player types a line in game: `/kw …` and `cheat scriptcommand kw …` start scripts, anything
   * else is chat. The player (by id or name, else anyone online) joins first if they are away.
   */
  type(text: string, who?: string): { playerId: string; characterId: string } {
    const p =
      this.world.population.find((x) => x.playerId === who || x.name === who) ??
      [...this.world.online.values()][0] ??
      this.world.candidates()[0];
    const joined = this.world.join(p);
    const s = this.world.survivor(p);
    this.emit([...joined, ...typedLine(this.world, s, text)]);
    return { playerId: p.playerId, characterId: s.characterId };
  }

  private emit(events: LinkEvent[]): void {
    for (const e of events) this.queue.push(e);
    this.link.flush();
  }
}
