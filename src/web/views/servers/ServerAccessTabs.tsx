// The server tabs about who and what is attached to it: users with access, the groups holding it
// and the scripts attached to it (SPEC §2), each the real API list. Users and groups get the group
// commands in their rows' menus (edit permissions, remove user, go to group, take the server out),
// scripts theirs (detach, choose version, update to latest) and a toolbar that attaches one.

import type { GroupService, ServiceScript, ServiceUser } from '../../../domain/api.ts';
import { permissionNames } from '../../../domain/permissions.ts';
import { pathOf, type Ref } from '../../../domain/resolver.ts';
import { contextWords, neverOverRcon } from '../../../domain/scripts/contexts.ts';
import { MENUS } from '../../app/menus.ts';
import { usePaneNavigate } from '../../app/PaneView.tsx';
import { MAX_ROWS, usePagedList } from '../../store/pagedList.ts';
import { Toolbar } from '../../ui/Toolbar.tsx';
import { type Column, VirtualList } from '../../ui/VirtualList.tsx';
import { attachmentColumns, attachmentPath } from '../scripts/attachmentColumns.tsx';

const bits = (mask: number) => permissionNames(mask).join(', ');

const userColumns: Column<ServiceUser>[] = [
  { id: 'user', title: 'User', value: (u) => u.usernameFull },
  { id: 'permissions', title: 'Permissions', value: (u) => bits(u.permissions), width: '3fr' },
];
const groupColumns: Column<GroupService>[] = [
  { id: 'group', title: 'Group', value: (g) => g.groupName },
  { id: 'color', title: 'Colour', value: (g) => g.groupColor },
  { id: 'allowed', title: 'Allowed', value: (g) => bits(g.permissionsMask), width: '3fr' },
];
const scriptColumns = attachmentColumns<ServiceScript>();

export function UsersTab({ serviceId }: { serviceId: string }) {
  const list = usePagedList({
    of: 'serviceUsers',
    params: { serviceId },
    limit: MAX_ROWS,
  });
  return (
    <VirtualList<ServiceUser>
      {...list.view}
      name="serverUsers"
      label="Users"
      columns={userColumns}
      rowKey={(u) => u.serviceUserId}
      emptyText="Nobody else has access."
      menu={() => MENUS.serverUserRow}
      menuValues={(rows) => ({ user: rows[0]?.usernameFull })}
    />
  );
}

const groupOf = (g: GroupService): Ref => ({ kind: 'group', id: g.groupId, label: g.groupName });

export function GroupsTab({ serviceId }: { serviceId: string }) {
  const go = usePaneNavigate();
  const list = usePagedList({
    of: 'groupServices',
    params: { serviceId },
    limit: MAX_ROWS,
  });
  return (
    <VirtualList<GroupService>
      {...list.view}
      name="serverGroups"
      label="Groups"
      columns={groupColumns}
      rowKey={(g) => g.groupServiceId}
      emptyText="The server is in no group."
      onOpen={(g) => go(pathOf('group', g.groupId))}
      menu={() => MENUS.serverGroupRow}
      entity={groupOf}
    />
  );
}

const scriptOf = (s: ServiceScript): Ref => ({ kind: 'script', id: s.scriptId, label: s.scriptName });

/**
 * On a server connected over RCON: whether each script can run there at all, since what only the
 * mod reports (a death, a tame…) never happens over RCON.
 */
const rconColumn: Column<ServiceScript> = {
  id: 'rcon',
  title: 'Over RCON',
  value: (s) => {
    const never = neverOverRcon(s.contexts);
    if (never.length === 0) return 'Runs here';
    const names = never.map(contextWords).join(', ');
    return never.length === s.contexts.length
      ? `Never runs here: ${names} need the mod`
      : `Partly: ${names} need the mod`;
  },
  width: '2fr',
};
const rconScriptColumns = [...scriptColumns, rconColumn];

export function ScriptsTab({ serviceId, overRcon }: { serviceId: string; overRcon: boolean }) {
  const go = usePaneNavigate();
  const list = usePagedList({
    of: 'serviceScripts',
    params: { serviceId },
    limit: MAX_ROWS,
  });
  return (
    <VirtualList<ServiceScript>
      {...list.view}
      name="serverScripts"
      label="Scripts"
      columns={overRcon ? rconScriptColumns : scriptColumns}
      rowKey={(s) => s.serviceScriptId}
      emptyText="No scripts are attached to the server."
      menu={() => MENUS.serverScriptRow}
      entity={scriptOf}
      onOpen={(s) => go(attachmentPath(s))}
      toolbar={
        <Toolbar
          commandIds={MENUS.serverScriptsToolbar}
          label="Scripts"
          selection={{ kind: 'server', ids: [serviceId] }}
        />
      }
    />
  );
}
