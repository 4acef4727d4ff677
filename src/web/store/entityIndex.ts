// Every entity the console has seen, by kind and id, as references the palette and the console
// search and complete. Plain structure with a version counter, not an atom per entity: the
// palette filters up to 100k of these per key press.

import type { EntityKind, EntityRef } from '../../../commands/args.ts';

type Listener = () => void;

export class EntityIndex {
  private byKind = new Map<EntityKind, Map<string, EntityRef>>();
  private flat: EntityRef[] | null = null;
  private listeners = new Set<Listener>();
  version = 0;

  upsert(refs: readonly EntityRef[]): void {
    if (refs.length === 0) return;
    for (const r of refs) {
      let m = this.byKind.get(r.kind);
      if (!m) {
        m = new Map();
        this.byKind.set(r.kind, m);
      }
      m.set(r.id, r);
    }
    this.changed();
  }

  remove(kind: EntityKind, id: string): void {
    if (this.byKind.get(kind)?.delete(id)) this.changed();
  }

  get(kind: EntityKind, id: string): EntityRef | undefined {
    return this.byKind.get(kind)?.get(id);
  }

  ofKind(kind: EntityKind): EntityRef[] {
    return [...(this.byKind.get(kind)?.values() ?? [])];
  }

  /** All references, in a stable array that is rebuilt only after a change. */
  all(): EntityRef[] {
    if (!this.flat) this.flat = [...this.byKind.values()].flatMap((m) => [...m.values()]);
    return this.flat;
  }

  subscribe(fn: Listener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private changed(): void {
    this.flat = null;
    this.version++;
    for (const fn of this.listeners) fn();
  }
}
