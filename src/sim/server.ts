// One simulated game server: its world, its event queue, and how it reaches the network: the
// Sentinel mod's link (with an access key), RCON (with a port and password), or both at once.

import type { GameCommand, LinkEvent } from '../domain/link.ts';
import { BEHAVIOURS, playerTypes } from './behaviours.ts';
import { runCommand } from './commands.ts';
import { EventQueue } from './eventQueue.ts';
import { LinkClient } from './link.ts';
import type { PlayerIdentity } from './population.ts';
import type { Rng } from './random.ts';
import { RconListener } from './rcon.ts';
import { World } from './world.ts';

export interface SimRconOptions {
  /** 0 picks a free port (read it back from `rcon.port`). */
  port: number;
  password: string;
  host?: string;
}

export interface SimServerOptions {
  linkUrl: string;
  /** Without one the server runs no mod: it is reachable over RCON only. */
  accessKey: string | null;
  name: string;
  rng: Rng;
  population: readonly PlayerIdentity[];
  rcon?: SimRconOptions;
  log(line: string): void;
}

export class SimServer {
  readonly name: string;
  readonly accessKey: string | null;
  readonly world: World;
  readonly queue = new EventQueue();
  readonly link: LinkClient | null;
  readonly rcon: RconListener | null;

  constructor(opts: SimServerOptions) {
    this.name = opts.name;
    this.accessKey = opts.accessKey;
    this.world = new World(opts.rng, opts.population);
    const log = (line: string) => opts.log(`[${this.name}] ${line}`);
    this.link = opts.accessKey
      ? new LinkClient({
          url: opts.linkUrl,
          accessKey: opts.accessKey,
          queue: this.queue,
          onCommand: (cmd) => this.command(cmd),
          status: () => this.world.status(),
          log,
        })
      : null;
    this.rcon = opts.rcon
      ? new RconListener({ ...opts.rcon, admin: (command) => this.adminOverRcon(command), log })
      : null;
  }

  /** One step of world life: the clock moves, things happen, the server hears of it. */
  tick(): void {
    this.world.advanceClock();
    this.emit(BEHAVIOURS.flatMap((behave) => behave(this.world)));
    this.link?.sendStatus();
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
    const { events, playerId, characterId } = playerTypes(this.world, text, who);
    this.emit(events);
    return { playerId, characterId };
  }

  /** Changes the world from outside its own life (a scripted scene), reporting what happened. */
  play(change: (world: World) => LinkEvent[]): void {
    this.emit(change(this.world));
  }

  /** An RCON console command prints its answer, or why it failed, as the game's console does. */
  private adminOverRcon(command: string): string {
    const reply = this.command({ type: 'admin', command });
    return reply.ok ? String(reply.result ?? '') : String(reply.error ?? 'Command failed');
  }

  private emit(events: LinkEvent[]): void {
    for (const e of events) {
      // Without a mod nothing drains the queue; only RCON pollers hear of it.
      if (this.link) this.queue.push(e);
      this.rcon?.record(e);
    }
    this.link?.flush();
  }
}
