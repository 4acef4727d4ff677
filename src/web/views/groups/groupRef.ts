// A group as the entity store holds it: its name and the caller's bits, which commands' permission
// checks read (SENTINEL-API §7).

import type { EntityRef } from '../../../../commands/args.ts';
import type { Group } from '../../../domain/api.ts';

export const groupRef = (g: Group): EntityRef => ({
  kind: 'group',
  id: g.groupId,
  label: g.name,
  mask: g.permissions,
});
