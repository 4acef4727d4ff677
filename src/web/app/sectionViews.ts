// The views of each section of commands/sections.ts. A Record over SectionId, so a section
// declared without its views is a type error. Each view is its own chunk, fetched when the
// browser is idle: the shell's initial script stays small however many sections the console grows.

import type { ComponentType, LazyExoticComponent } from 'react';
import type { SectionId } from '../../../commands/sections.ts';
import { lazyWhenIdle } from './lazyPane.ts';

type LazyView = LazyExoticComponent<ComponentType>;

export const lazyView = <K extends string>(
  load: () => Promise<Record<K, ComponentType>>,
  name: K,
): LazyView => lazyWhenIdle(() => load().then((m) => ({ default: m[name] })));

export interface SectionViews {
  /** At the section's route. */
  list: LazyView;
  /** Below it, paths relative to the section's route, the most specific first. */
  pages: readonly { path: string; view: LazyView }[];
}

export const SECTION_VIEWS: Record<SectionId, SectionViews> = {
  servers: {
    list: lazyView(() => import('../views/servers/ServerList.tsx'), 'ServerList'),
    pages: [
      {
        path: ':serviceId/setup',
        view: lazyView(() => import('../views/servers/ServerSetup.tsx'), 'ServerSetup'),
      },
      {
        path: ':serviceId/:tab?',
        view: lazyView(() => import('../views/servers/ServerPage.tsx'), 'ServerPage'),
      },
    ],
  },
  groups: {
    list: lazyView(() => import('../views/groups/GroupList.tsx'), 'GroupList'),
    pages: [
      {
        path: ':groupId/:tab?',
        view: lazyView(() => import('../views/groups/GroupPage.tsx'), 'GroupPage'),
      },
    ],
  },
  scripts: {
    list: lazyView(() => import('../views/scripts/ScriptsPage.tsx'), 'ScriptsPage'),
    pages: [
      {
        path: 'workshop/:scriptId',
        view: lazyView(() => import('../views/workshop/WorkshopPreview.tsx'), 'WorkshopPreview'),
      },
      { path: 'workshop', view: lazyView(() => import('../views/scripts/ScriptsPage.tsx'), 'ScriptsPage') },
      {
        path: ':scriptId',
        view: lazyView(() => import('../views/scripts/editor/ScriptEditorPage.tsx'), 'ScriptEditorPage'),
      },
    ],
  },
  players: {
    list: lazyView(() => import('../views/players/PlayerList.tsx'), 'PlayerList'),
    pages: [
      {
        path: ':playerId/:tab?',
        view: lazyView(() => import('../views/players/PlayerPage.tsx'), 'PlayerPage'),
      },
    ],
  },
  survivors: {
    list: lazyView(() => import('../views/world/WorldSection.tsx'), 'SurvivorSection'),
    pages: [{ path: ':id', view: lazyView(() => import('../views/world/WorldPage.tsx'), 'SurvivorPage') }],
  },
  tribes: {
    list: lazyView(() => import('../views/world/WorldSection.tsx'), 'TribeSection'),
    pages: [{ path: ':id/:tab?', view: lazyView(() => import('../views/world/WorldPage.tsx'), 'TribePage') }],
  },
  dinos: {
    list: lazyView(() => import('../views/world/WorldSection.tsx'), 'DinoSection'),
    pages: [{ path: ':id', view: lazyView(() => import('../views/world/WorldPage.tsx'), 'DinoPage') }],
  },
  alerts: {
    list: lazyView(() => import('../views/alerts/AlertList.tsx'), 'AlertList'),
    pages: [{ path: ':ruleId', view: lazyView(() => import('../views/alerts/AlertPage.tsx'), 'AlertPage') }],
  },
  destinations: {
    list: lazyView(() => import('../views/alerts/DestinationList.tsx'), 'DestinationList'),
    pages: [
      {
        path: ':destinationId',
        view: lazyView(() => import('../views/alerts/DestinationPage.tsx'), 'DestinationPage'),
      },
    ],
  },
  notifications: {
    list: lazyView(() => import('../views/alerts/NotificationList.tsx'), 'NotificationList'),
    pages: [],
  },
  security: {
    list: lazyView(() => import('../views/account/SecurityPage.tsx'), 'SecurityPage'),
    pages: [],
  },
  tokens: {
    list: lazyView(() => import('../views/account/TokenList.tsx'), 'TokenList'),
    pages: [],
  },
  buckets: {
    list: lazyView(() => import('../views/buckets/BucketList.tsx'), 'BucketList'),
    pages: [
      {
        path: ':bucketId/:tab?',
        view: lazyView(() => import('../views/buckets/BucketPage.tsx'), 'BucketPage'),
      },
    ],
  },
};
