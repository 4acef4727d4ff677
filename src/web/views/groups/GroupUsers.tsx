// A group's users (SPEC §2 users tab, §5 lookup, §6 bits): the members with their bits, live; a
// form to add one by email, user id or username#discriminator; for the active member the bits as
// an editor and, for each server of the group, what they can do there (their bits AND the
// server's). Every change runs its group.* command, so the palette and console say the same.

import { type FormEvent, useId, useState } from 'react';
import type { Group, GroupUser } from '../../../domain/api.ts';
import { bitsText, effectiveBits, slugsOfMask } from '../../../domain/groups.ts';
import { hasAll, Perm } from '../../../domain/permissions.ts';
import { MENUS } from '../../app/menus.ts';
import { type Column, VirtualList } from '../../ui/VirtualList.tsx';
import { useGroupList } from './groupLists.ts';
import { PermissionEditor } from './PermissionEditor.tsx';
import { useGroupCommand } from './useGroupCommand.ts';

const columns: Column<GroupUser>[] = [
  { id: 'user', title: 'User', value: (u) => u.usernameFull },
  { id: 'role', title: 'Role', value: (u) => u.roleName ?? 'Set by hand' },
  {
    id: 'permissions',
    title: 'Permissions',
    value: (u) =>
      u.readOnlyUntilTwoFactor
        ? `Read only until two-factor sign-in is on (${bitsText(u.permissions)} then)`
        : bitsText(u.permissions),
    width: '3fr',
  },
];

function AddUser({ group }: { group: Group }) {
  const ids = useId();
  const run = useGroupCommand(group);
  const [user, setUser] = useState('');
  const [mask, setMask] = useState<number>(Perm.Membership);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const why = await run('group.addUser', { user, permissions: slugsOfMask(mask) });
    setBusy(false);
    setError(why);
    if (!why) {
      setUser('');
      setMask(Perm.Membership);
    }
  };
  return (
    <form className="group-form" aria-label="Add user" onSubmit={submit} noValidate>
      <h3>Add user</h3>
      <label htmlFor={`${ids}-user`}>Email, user id or username#discriminator</label>
      <input
        id={`${ids}-user`}
        type="text"
        value={user}
        autoComplete="off"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${ids}-error` : undefined}
        onChange={(e) => setUser(e.target.value)}
      />
      <PermissionEditor legend="Permissions" value={mask} mine={group.permissions} onChange={setMask} />
      {error && (
        <p id={`${ids}-error`} role="alert" className="settings-error">
          {error}
        </p>
      )}
      <button type="submit" className="ui-button ui-button-primary" disabled={busy}>
        Add user
      </button>
    </form>
  );
}

function Member({ group, member }: { group: Group; member: GroupUser }) {
  const run = useGroupCommand(group);
  const servers = useGroupList('groupServices', group.groupId);
  const [mask, setMask] = useState(member.permissions);
  const [error, setError] = useState<string | null>(null);
  const save = async (e: FormEvent) => {
    e.preventDefault();
    setError(
      await run('group.editPermissions', { user: member.usernameFull, permissions: slugsOfMask(mask) }),
    );
  };
  return (
    <section className="group-member" aria-label={`Permissions of ${member.usernameFull}`}>
      <form className="group-form" aria-label={`Edit permissions of ${member.usernameFull}`} onSubmit={save}>
        <PermissionEditor
          legend={`Permissions of ${member.usernameFull}`}
          value={mask}
          mine={group.permissions}
          onChange={setMask}
        />
        {error && (
          <p role="alert" className="settings-error">
            {error}
          </p>
        )}
        <button type="submit" className="ui-button">
          Save permissions
        </button>
      </form>
      <table className="group-effective">
        <caption>What {member.usernameFull} can do on each server</caption>
        <thead>
          <tr>
            <th scope="col">Server</th>
            <th scope="col">Effective permissions</th>
          </tr>
        </thead>
        <tbody>
          {servers.rows.map((s) => (
            <tr key={s.groupServiceId}>
              <th scope="row">{s.serviceDisplayName}</th>
              <td>{bitsText(effectiveBits(member.permissions, s.permissionsMask))}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

export function GroupUsersTab({ group }: { group: Group }) {
  const list = useGroupList('groupUsers', group.groupId);
  const [activeId, setActiveId] = useState<string | null>(null);
  const active = list.rows.find((u) => u.groupUserId === activeId) ?? null;
  return (
    <div className="tab-panel">
      <VirtualList<GroupUser>
        {...list.view}
        name="groupUsers"
        label="Users"
        rowKey={(u) => u.groupUserId}
        columns={columns}
        defaultSort={{ column: 'user', direction: 'asc' }}
        emptyText="Only the owner is in the group."
        menu={() => MENUS.groupUserRow}
        menuValues={(rows) => ({ user: rows[0]?.usernameFull })}
        onSelectionChange={(_marked, row) => setActiveId(row?.groupUserId ?? null)}
      />
      {active && <Member key={`${active.groupUserId}:${active.permissions}`} group={group} member={active} />}
      {hasAll(group.permissions, Perm.ManageUsers) && <AddUser group={group} />}
    </div>
  );
}
