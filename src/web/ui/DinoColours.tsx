// A dino's six colour regions as swatches with the colours' names, from the blueprint data's
// colour table of the dino's game (Evolved and Ascended number some colours differently).

import { colorTitle } from '../../domain/words.ts';
import { useCatalogue } from './catalogue.ts';

export function DinoColours({ ids, speciesPath }: { ids: readonly number[]; speciesPath: string }) {
  const m = useCatalogue();
  if (ids.length === 0) return <>Not reported yet</>;
  const game = m ? m.gameOf(m.findCreature(speciesPath)) : 'ASE';
  return (
    <ul className="dino-colours" aria-label="Colour regions">
      {ids.map((id, region) => {
        const c = m?.findColor(game, id);
        const name = id === 0 ? 'none' : c ? colorTitle(c) : m ? `colour ${id}` : '…';
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: the regions are fixed, one per place.
          <li key={region}>
            <span
              className="dino-swatch"
              style={{ background: c?.hex ?? 'transparent' }}
              aria-hidden="true"
            />
            Region {region + 1}: {name}
          </li>
        );
      })}
    </ul>
  );
}
