// The game's blueprint catalogue (items, creatures, colours) for a view that shows or picks from
// it: loaded with the first such view, not with the shell (it is the largest module).

import { useEffect, useState } from 'react';
import { loadCatalogue } from '../../../commands/args.ts';

export type Catalogue = Awaited<ReturnType<typeof loadCatalogue>>;

/** The catalogue, or null while it loads. */
export function useCatalogue(): Catalogue | null {
  const [m, setM] = useState<Catalogue | null>(null);
  useEffect(() => {
    let live = true;
    void loadCatalogue().then((c) => live && setM(c));
    return () => {
      live = false;
    };
  }, []);
  return m;
}
