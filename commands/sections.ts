// The console's sections (DESIGN "Sections"): one row each, read by the nav bar, the routes and
// the `nav.<id>` commands generated here. A later section (Groups, Scripts, …) is one more row
// here and one more view in src/web/app/sectionViews.ts, which the type checker then asks for.

import { KIND_ROUTES, type PermissionNeed } from '../src/domain/resolver.ts';
import type { CommandContext } from './context.ts';
import { defineCommand } from './registry.ts';

export interface Section {
  id: string;
  title: string;
  /** The section's list, at its kind's first route segment (the resolver's); its entities' pages live under it. */
  route: string;
  /** `g` then a letter (DESIGN "Keyboard conventions"). */
  key: `g>${string}`;
  /** Bits needed on what is in view to open it, when the section is not for everyone. */
  permission?: PermissionNeed;
}

export const SECTIONS = [
  { id: 'servers', title: 'Servers', route: `/${KIND_ROUTES.server.section}`, key: 'g>s' },
  { id: 'players', title: 'Players', route: `/${KIND_ROUTES.player.section}`, key: 'g>p' },
  { id: 'groups', title: 'Groups', route: `/${KIND_ROUTES.group.section}`, key: 'g>g' },
  { id: 'scripts', title: 'Scripts', route: `/${KIND_ROUTES.script.section}`, key: 'g>x' },
  { id: 'survivors', title: 'Survivors', route: `/${KIND_ROUTES.survivor.section}`, key: 'g>c' },
  { id: 'tribes', title: 'Tribes', route: `/${KIND_ROUTES.tribe.section}`, key: 'g>t' },
  { id: 'dinos', title: 'Dinos', route: `/${KIND_ROUTES.dino.section}`, key: 'g>d' },
  { id: 'buckets', title: 'Buckets', route: `/${KIND_ROUTES.bucket.section}`, key: 'g>b' },
  { id: 'alerts', title: 'Alerts', route: `/${KIND_ROUTES.alert.section}`, key: 'g>a' },
  { id: 'destinations', title: 'Destinations', route: `/${KIND_ROUTES.destination.section}`, key: 'g>o' },
  { id: 'notifications', title: 'Notifications', route: '/notifications', key: 'g>n' },
  { id: 'security', title: 'Security', route: '/security', key: 'g>u' },
  { id: 'tokens', title: 'API tokens', route: '/tokens', key: 'g>i' },
] as const satisfies readonly Section[];

export type SectionId = (typeof SECTIONS)[number]['id'];

/** `nav.servers` for Servers: the id stays a literal type, so CommandId names every section's. */
function navCommand<S extends (typeof SECTIONS)[number]>(section: S) {
  const s: Section = section;
  return defineCommand({
    id: `nav.${section.id}` as `nav.${S['id']}`,
    title: `Go to ${s.title}`,
    group: 'Navigation',
    keys: [s.key],
    permission: s.permission,
    run: (_a, ctx: CommandContext) => {
      ctx.app.navigate(s.route);
      return undefined;
    },
  });
}

export const sectionCommands = SECTIONS.map(navCommand);
