// The console's sections (DESIGN "Sections"): one row each, read by the nav bar, the routes and
// the `nav.<id>` commands generated here. A later section (Groups, Scripts, …) is one more row
// here and one more view in src/web/app/sectionViews.ts, which the type checker then asks for.

import type { CommandContext } from './context.ts';
import { defineCommand } from './registry.ts';

export interface Section {
  id: string;
  title: string;
  /** The section's list; its entities' pages live under it. */
  route: string;
  /** `g` then a letter (DESIGN "Keyboard conventions"). */
  key: `g>${string}`;
  /** Bits needed on the entity in view to open it, when the section is not for everyone. */
  permission?: number;
}

export const SECTIONS = [
  { id: 'servers', title: 'Servers', route: '/servers', key: 'g>s' },
  { id: 'players', title: 'Players', route: '/players', key: 'g>p' },
] as const satisfies readonly Section[];

export type SectionId = (typeof SECTIONS)[number]['id'];

export const sectionCommands = (SECTIONS as readonly Section[]).map((s) =>
  defineCommand({
    id: `nav.${s.id}`,
    title: `Go to ${s.title}`,
    group: 'Navigation',
    keys: [s.key],
    permission: s.permission,
    run: (_a, ctx: CommandContext) => {
      ctx.app.navigate(s.route);
      return undefined;
    },
  }),
);
