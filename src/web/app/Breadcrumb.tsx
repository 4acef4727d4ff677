// Where the active pane is, as SPEC §9 asks: no padding, no background.

import { useAtomValue } from 'jotai';
import { KIND_ROUTES, placeOf, WORKSHOP } from '../../domain/resolver.ts';
import { useEntityIndexVersion } from '../store/useEntityIndexVersion.ts';
import { useApp } from './deps.tsx';
import { currentPath, findPane } from './layout.ts';
import { layoutAtom } from './state.ts';

const SECTION_TITLES: Record<string, string> = {
  servers: 'Servers',
  players: 'Players',
  groups: 'Groups',
  scripts: 'Scripts',
  characters: 'Survivors',
  tribes: 'Tribes',
  dinos: 'Dinos',
  buckets: 'Buckets',
  logs: 'Logs',
};

const titleCase = (s: string) => s.charAt(0).toUpperCase() + s.slice(1).replace(/([A-Z])/g, ' $1');

export function Breadcrumb() {
  const layout = useAtomValue(layoutAtom);
  const { index } = useApp();
  // An entity's name may reach the index after its page opened (a page fetched by its address).
  useEntityIndexVersion(index);
  const pane = findPane(layout, layout.active);
  const path = pane ? currentPath(pane) : '/servers';
  const { section, kind, id, tab } = placeOf(path);
  const parts = [SECTION_TITLES[section] ?? titleCase(section)];
  if (section === KIND_ROUTES.script.section && path.split('/')[2] === WORKSHOP) parts.push('Workshop');
  if (kind && id) parts.push(index.get(kind, id)?.label ?? id);
  // A tab named for a section (a tribe's characters) reads as the section does: Survivors.
  if (tab) parts.push(SECTION_TITLES[tab] ?? titleCase(tab));
  return (
    <nav aria-label="Breadcrumb" className="breadcrumb">
      <ol>
        {parts.map((p, i) => (
          <li
            key={parts.slice(0, i + 1).join('/')}
            aria-current={i === parts.length - 1 ? 'page' : undefined}
          >
            {p}
          </li>
        ))}
      </ol>
    </nav>
  );
}
