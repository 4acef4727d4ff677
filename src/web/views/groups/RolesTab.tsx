// A group's roles (the access issue): the built-in ones and the group's own, with how many members
// hold each and what it gives. The toolbar makes and assigns roles; a row's menu edits or deletes
// one of the group's own. A role's change reaches its holders at once (the users tab shows it).

import type { GroupRole } from '../../../domain/access.ts';
import type { Group } from '../../../domain/api.ts';
import { bitsText } from '../../../domain/groups.ts';
import { MENUS } from '../../app/menus.ts';
import { Toolbar } from '../../ui/Toolbar.tsx';
import { type Column, VirtualList } from '../../ui/VirtualList.tsx';
import { useGroupList } from './groupLists.ts';

export function RolesTab({ group }: { group: Group }) {
  const roles = useGroupList('groupRoles', group.groupId);
  const members = useGroupList('groupUsers', group.groupId);
  const holders = (r: GroupRole) => members.rows.filter((m) => m.roleId === r.roleId).length;
  const columns: Column<GroupRole>[] = [
    { id: 'name', title: 'Role', value: (r) => r.name },
    { id: 'kind', title: 'Kind', value: (r) => (r.builtIn ? 'Built in' : 'This group’s') },
    { id: 'holders', title: 'Holders', value: holders },
    { id: 'permissions', title: 'Permissions', value: (r) => bitsText(r.permissions), width: '3fr' },
  ];
  return (
    <div className="tab-panel">
      <VirtualList<GroupRole>
        {...roles.view}
        name="groupRoles"
        label="Roles"
        rowKey={(r) => r.roleId}
        columns={columns}
        defaultSort={{ column: 'permissions', direction: 'asc' }}
        emptyText="No roles."
        menu={(rows) => (rows.some((r) => r.builtIn) ? [] : MENUS.roleRow)}
        menuValues={(rows) => ({ role: rows[0]?.name })}
        toolbar={<Toolbar commandIds={MENUS.roleListToolbar} label="Roles" />}
      />
    </div>
  );
}
