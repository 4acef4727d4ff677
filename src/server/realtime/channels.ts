// Who is subscribed to what. Fan-out serialises each frame once per channel and hands the same
// buffer to every socket, so a publish to 1,000 subscribers costs one JSON.stringify.

export interface Subscriber {
  readonly socketId: string;
  send(frame: Buffer): void;
}

export class ChannelRegistry<S extends Subscriber> {
  private readonly members = new Map<string, Set<S>>();
  private readonly bySocket = new Map<S, Set<string>>();

  subscribe(channel: string, sub: S): void {
    let set = this.members.get(channel);
    if (!set) {
      set = new Set();
      this.members.set(channel, set);
    }
    set.add(sub);
    let mine = this.bySocket.get(sub);
    if (!mine) {
      mine = new Set();
      this.bySocket.set(sub, mine);
    }
    mine.add(channel);
  }

  unsubscribe(channel: string, sub: S): void {
    const set = this.members.get(channel);
    if (set?.delete(sub) && set.size === 0) this.members.delete(channel);
    this.bySocket.get(sub)?.delete(channel);
  }

  /** Drops every subscription of a closed socket. */
  remove(sub: S): void {
    for (const channel of this.bySocket.get(sub) ?? []) {
      const set = this.members.get(channel);
      if (set?.delete(sub) && set.size === 0) this.members.delete(channel);
    }
    this.bySocket.delete(sub);
  }

  isSubscribed(channel: string, sub: S): boolean {
    return this.members.get(channel)?.has(sub) ?? false;
  }

  /** Delivers an event whose data is already a JSON string; returns how many sockets got it. */
  broadcast(channels: string[], event: string, data: string, exceptSocketId?: string): number {
    let delivered = 0;
    for (const channel of new Set(channels)) {
      const set = this.members.get(channel);
      if (!set) continue;
      const frame = Buffer.from(JSON.stringify({ event, channel, data }));
      for (const sub of set) {
        if (sub.socketId === exceptSocketId) continue;
        sub.send(frame);
        delivered++;
      }
    }
    return delivered;
  }

  get channelCount(): number {
    return this.members.size;
  }
}
