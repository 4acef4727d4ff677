// What a group holds (SPEC §2 services, buckets, scripts tabs): live lists whose toolbar adds and
// whose rows' menu removes, through the group.* commands. Servers show what the group allows on
// each and what the caller can do there (their group bits AND the server's, §6); for the active
// server, those who manage the group's servers edit what it allows there.

import { type FormEvent, useState } from 'react';
import type { Group, GroupBucket, GroupScript, GroupService } from '../../../domain/api.ts';
import { bitsText, effectiveBits, slugsOfMask } from '../../../domain/groups.ts';
import { hasAll, Perm } from '../../../domain/permissions.ts';
import { pathOf, type Ref, selectionOf } from '../../../domain/resolver.ts';
import { MENUS } from '../../app/menus.ts';
import { usePaneNavigate } from '../../app/PaneView.tsx';
import { Toolbar } from '../../ui/Toolbar.tsx';
import { type Column, VirtualList } from '../../ui/VirtualList.tsx';
import { attachmentColumns, attachmentPath } from '../scripts/attachmentColumns.tsx';
import { useGroupList } from './groupLists.ts';
import { PermissionEditor } from './PermissionEditor.tsx';
import { useGroupCommand } from './useGroupCommand.ts';

/** Toolbars act on the group itself: what to add is always asked, never taken from an old selection. */
const onGroup = (g: Group) => selectionOf([{ kind: 'group', id: g.groupId, label: g.name }]);

const serverOf = (s: GroupService): Ref => ({ kind: 'server', id: s.serviceId, label: s.serviceDisplayName });
const bucketOf = (b: GroupBucket): Ref => ({ kind: 'bucket', id: b.bucketId, label: b.bucketName });
const scriptOf = (s: GroupScript): Ref => ({ kind: 'script', id: s.scriptId, label: s.scriptName });

const serviceColumns: Column<GroupService>[] = [
  {
    id: 'server',
    title: 'Server',
    value: (s) => s.serviceDisplayName,
    render: (s) => (
      <span className="server-name">
        <span className={`color-dot color-${s.serviceColor.toLowerCase()}`} aria-hidden="true" />
        {s.serviceDisplayName}
      </span>
    ),
  },
  { id: 'allowed', title: 'Allowed here', value: (s) => bitsText(s.permissionsMask), width: '2fr' },
  {
    id: 'yours',
    title: 'Your permissions',
    value: (s) => bitsText(effectiveBits(s.groupPermissions, s.permissionsMask)),
    width: '2fr',
  },
];

/**
 * What the group may do on one of its servers (its mask there, SPEC §6): members get their own
 * bits AND it, the group's owner gets it. Saved through group.editPermissions; the API checks it.
 */
function ServerMask({ group, link }: { group: Group; link: GroupService }) {
  const run = useGroupCommand(group);
  const [mask, setMask] = useState(link.permissionsMask);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const title = `What ${group.name} may do on ${link.serviceDisplayName}`;
  const save = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(await run('group.editPermissions', { server: serverOf(link), permissions: slugsOfMask(mask) }));
    setBusy(false);
  };
  return (
    <form className="group-form" aria-label={title} onSubmit={save}>
      <PermissionEditor legend={title} value={mask} mine={null} onChange={setMask} />
      <small className="settings-help">
        Members get the bits they hold in the group and these; the group’s owner gets these.
      </small>
      {error && (
        <p role="alert" className="settings-error">
          {error}
        </p>
      )}
      <button type="submit" className="ui-button" disabled={busy}>
        Save what the group may do here
      </button>
    </form>
  );
}

export function GroupServicesTab({ group }: { group: Group }) {
  const go = usePaneNavigate();
  const list = useGroupList('groupServices', group.groupId);
  const [activeId, setActiveId] = useState<string | null>(null);
  const active = list.rows.find((s) => s.groupServiceId === activeId) ?? null;
  return (
    <div className="tab-panel">
      <VirtualList<GroupService>
        {...list.view}
        name="groupServices"
        label="Servers"
        rowKey={(s) => s.groupServiceId}
        columns={serviceColumns}
        defaultSort={{ column: 'server', direction: 'asc' }}
        emptyText="No servers in the group yet."
        onOpen={(s) => go(pathOf('server', s.serviceId))}
        menu={() => MENUS.groupServiceRow}
        entity={serverOf}
        onSelectionChange={(_marked, row) => setActiveId(row?.groupServiceId ?? null)}
        toolbar={
          <Toolbar commandIds={MENUS.groupServicesToolbar} selection={onGroup(group)} label="Servers" />
        }
      />
      {active && hasAll(group.permissions, Perm.ManageServices) && (
        <ServerMask key={`${active.groupServiceId}:${active.permissionsMask}`} group={group} link={active} />
      )}
    </div>
  );
}

const bucketColumns: Column<GroupBucket>[] = [
  { id: 'bucket', title: 'Bucket', value: (b) => b.bucketName },
  { id: 'allowed', title: 'Allowed here', value: (b) => bitsText(b.permissionsMask), width: '3fr' },
];

export function GroupBucketsTab({ group }: { group: Group }) {
  const go = usePaneNavigate();
  const list = useGroupList('groupBuckets', group.groupId);
  return (
    <VirtualList<GroupBucket>
      {...list.view}
      name="groupBuckets"
      label="Buckets"
      rowKey={(b) => b.groupBucketId}
      columns={bucketColumns}
      defaultSort={{ column: 'bucket', direction: 'asc' }}
      emptyText="No buckets in the group yet."
      onOpen={(b) => go(pathOf('bucket', b.bucketId))}
      menu={() => MENUS.groupBucketRow}
      entity={bucketOf}
      toolbar={<Toolbar commandIds={MENUS.groupBucketsToolbar} selection={onGroup(group)} label="Buckets" />}
    />
  );
}

const scriptColumns = attachmentColumns<GroupScript>();

export function GroupScriptsTab({ group }: { group: Group }) {
  const go = usePaneNavigate();
  const list = useGroupList('groupScripts', group.groupId);
  return (
    <VirtualList<GroupScript>
      {...list.view}
      name="groupScripts"
      label="Scripts"
      rowKey={(s) => s.groupScriptId}
      columns={scriptColumns}
      defaultSort={{ column: 'script', direction: 'asc' }}
      emptyText="No scripts are attached to the group."
      onOpen={(s) => go(attachmentPath(s))}
      menu={() => MENUS.groupScriptRow}
      entity={scriptOf}
      toolbar={<Toolbar commandIds={MENUS.groupScriptsToolbar} selection={onGroup(group)} label="Scripts" />}
    />
  );
}
