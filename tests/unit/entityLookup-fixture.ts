// An entity lookup over a fixed set, for tests of parsing and completion: names complete by
// prefix, and resolve by id or by the whole name, in any case.

import type { EntityLookup, EntityRef } from '../../commands/args.ts';

export function lookupOf(refs: readonly EntityRef[]): EntityLookup {
  return {
    search: (kinds, q) =>
      refs.filter((r) => kinds.includes(r.kind) && r.label.toLowerCase().startsWith(q.toLowerCase())),
    resolve: async (kinds, t) =>
      refs.filter((r) => kinds.includes(r.kind) && (r.id === t || r.label.toLowerCase() === t.toLowerCase())),
  };
}
