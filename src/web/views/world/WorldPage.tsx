// A survivor, tribe or dino (SPEC §2 /characters/{id}, /tribes/{id}, /dinos/{id}): its facts, a
// toolbar over its commands, and its tabs (logs; a tribe also its survivors and dinos).

import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { useParams } from 'react-router';
import type { EntityRef } from '../../../../commands/args.ts';
import { TRIBE_TABS } from '../../../../commands/tribes.ts';
import type { Character, Dino, Tribe } from '../../../domain/api.ts';
import { DINO_STATUS_LABELS, lifeStage } from '../../../domain/enums.ts';
import { Msg } from '../../../domain/messages.ts';
import { pathOf, selectionOf } from '../../../domain/resolver.ts';
import { DINO_DISCLAIMER } from '../../../domain/world.ts';
import { ApiError } from '../../api/http.ts';
import { useApp } from '../../app/deps.tsx';
import { MENUS } from '../../app/menus.ts';
import { PaneLink } from '../../app/PaneView.tsx';
import { DinoColours } from '../../ui/DinoColours.tsx';
import { Toolbar } from '../../ui/Toolbar.tsx';
import { LogView } from '../logs/LogView.tsx';
import { DinoList, SurvivorList } from './WorldList.tsx';
import { dinoRef, survivorRef, tribeRef } from './worldRefs.ts';

interface PageSpec<T> {
  kind: 'survivor' | 'tribe' | 'dino';
  noun: string;
  get(api: ReturnType<typeof useApp>['api'], id: string): Promise<T>;
  ref(r: T): EntityRef;
  facts(r: T): [string, ReactNode][];
  toolbar: readonly string[];
  notFound: string;
  /** Tabs beyond the logs, each with its view. */
  tabs?: readonly { id: string; title: string; view(id: string): ReactNode }[];
  note?: string;
}

const serverLink = (r: { serviceId: string; serviceDisplayName: string }) => (
  <PaneLink to={pathOf('server', r.serviceId)}>{r.serviceDisplayName}</PaneLink>
);
const tribeLink = (r: { tribeId: string | null; tribeName: string | null }) =>
  r.tribeId ? <PaneLink to={pathOf('tribe', r.tribeId)}>{r.tribeName}</PaneLink> : '—';

const SURVIVOR_PAGE: PageSpec<Character> = {
  kind: 'survivor',
  noun: 'Survivor',
  get: (api, id) => api.characters.get(id),
  ref: survivorRef,
  facts: (c) => [
    [
      'Player',
      <PaneLink key="player" to={pathOf('player', c.playerId)}>
        {c.playerName}
      </PaneLink>,
    ],
    ['Implant', c.specimenId],
    ['Tribe', tribeLink(c)],
    ['Server', serverLink(c)],
  ],
  toolbar: MENUS.survivorPage,
  notFound:
    'The survivor was not found. It either never existed, no longer exists, or you do not have access to it.',
};

const TRIBE_PAGE: PageSpec<Tribe> = {
  kind: 'tribe',
  noun: 'Tribe',
  get: (api, id) => api.tribes.get(id),
  ref: tribeRef,
  facts: (t) => [
    ['Tribe ID', t.tribeNumber],
    ['Server', serverLink(t)],
  ],
  toolbar: MENUS.tribePage,
  notFound:
    'The tribe was not found. It either never existed, no longer exists, or you do not have access to it.',
  tabs: [
    {
      id: TRIBE_TABS[1],
      title: 'Survivors',
      view: (id) => <SurvivorList filter={{ tribeId: id }} name="tribe-survivors" />,
    },
    {
      id: TRIBE_TABS[2],
      title: 'Dinos',
      view: (id) => <DinoList filter={{ tribeId: id }} name="tribe-dinos" />,
    },
  ],
};

const DINO_PAGE: PageSpec<Dino> = {
  kind: 'dino',
  noun: 'Dino',
  get: (api, id) => api.dinos.get(id),
  ref: dinoRef,
  facts: (d) => [
    ['Species', d.dinoSpecies],
    ['Level', d.dinoLevel],
    ['Life Stage', lifeStage(d.dinoAge)],
    ['Gender', d.dinoGender],
    ['Dino Id', d.dinoNumber],
    [
      'Status',
      <span key="status" className={`state state-${d.dinoStatus.toLowerCase()}`}>
        {DINO_STATUS_LABELS[d.dinoStatus]}
      </span>,
    ],
    ['Revivable', d.dinoRestoreEligible ? 'Yes' : 'No'],
    ['Colours', <DinoColours key="colours" ids={d.dinoColors} speciesPath={d.dinoSpeciesPath} />],
    ['Tribe', tribeLink(d)],
    ['Server', serverLink(d)],
  ],
  toolbar: MENUS.dinoPage,
  notFound: Msg.dinoNotFound,
  note: DINO_DISCLAIMER,
};

function worldPage<T>(spec: PageSpec<T>) {
  return function WorldPage() {
    const { id = '', tab = 'logs' } = useParams();
    const { api, index } = useApp();
    const query = useQuery({ queryKey: [spec.kind, id], queryFn: () => spec.get(api, id) });
    useEffect(() => {
      if (query.data) index.upsert([spec.ref(query.data)]);
    }, [query.data, index]);

    if (query.error) {
      const missing = query.error instanceof ApiError && query.error.status === 404;
      return (
        <div className="page">
          <h1>{spec.noun}</h1>
          <p role="alert">{missing ? spec.notFound : query.error.message}</p>
        </div>
      );
    }
    const r = query.data;
    const ref = r ? spec.ref(r) : { kind: spec.kind, id, label: id };
    const tabs = [{ id: 'logs', title: 'Logs' }, ...(spec.tabs ?? [])];
    const current = spec.tabs?.find((t) => t.id === tab);
    return (
      <div className="page page-list">
        <header className="server-header">
          <h1>{r ? ref.label : 'Loading…'}</h1>
          {r && (
            <dl className="facts">
              {spec.facts(r).map(([k, v]) => (
                <div key={k} className="fact">
                  <dt>{k}</dt>
                  <dd>{v}</dd>
                </div>
              ))}
            </dl>
          )}
          <Toolbar commandIds={spec.toolbar} label={`${spec.noun} actions`} selection={selectionOf([ref])} />
        </header>
        {spec.note && <p className="world-disclaimer">{spec.note}</p>}
        <nav className="tabs" aria-label={`${spec.noun} tabs`}>
          {tabs.map((t) => (
            <PaneLink
              key={t.id}
              to={pathOf(spec.kind, id, t.id === 'logs' ? undefined : t.id)}
              className={tab === t.id ? 'tab tab-active' : 'tab'}
            >
              {t.title}
            </PaneLink>
          ))}
        </nav>
        {tab === 'logs' && (
          <LogView
            filter={{ [`${spec.kind === 'survivor' ? 'character' : spec.kind}Id`]: id }}
            name={`${spec.kind}-logs`}
          />
        )}
        {current?.view(id)}
        {tab !== 'logs' && !current && <p role="alert">There is no tab "{tab}" here.</p>}
      </div>
    );
  };
}

export const SurvivorPage = worldPage(SURVIVOR_PAGE);
export const TribePage = worldPage(TRIBE_PAGE);
export const DinoPage = worldPage(DINO_PAGE);
