// Bans of a server or a group (SPEC §2 "Other tabs"): player, comments, expiry, issuer; live.
// Rows offer edit, remove (one or many marked) and go to player; the toolbar bans and imports
// (File importer: file, link, paste, drag and drop), all through the ban.* commands.

import { useState } from 'react';
import { channelFor } from '../../../domain/api.ts';
import { BANS_UPDATED } from '../../../domain/bans.ts';
import { formatTime } from '../../../domain/format.ts';
import type { Ban } from '../../../domain/players.ts';
import { pathOf, type Ref } from '../../../domain/resolver.ts';
import { useApp } from '../../app/deps.tsx';
import { MENUS } from '../../app/menus.ts';
import { usePaneNavigate } from '../../app/PaneView.tsx';
import { useCommandRuntime } from '../../app/runtime.ts';
import { useLiveRefetch } from '../../store/liveRefetch.ts';
import { usePagedList } from '../../store/pagedList.ts';
import { FileImporter } from '../../ui/FileImporter.tsx';
import { Toolbar } from '../../ui/Toolbar.tsx';
import { type Column, VirtualList } from '../../ui/VirtualList.tsx';
import { FlaggedName } from '../players/FlagChips.tsx';

export interface BansTabProps {
  serviceId?: string;
  groupId?: string;
}

const DAY_MS = 86_400_000;

const columns: Column<Ban>[] = [
  {
    id: 'playerName',
    title: 'Player',
    value: (b) => b.playerName,
    render: (b) => <FlaggedName name={b.playerName} flags={b.playerFlags} />,
  },
  { id: 'comments', title: 'Comments', value: (b) => b.comments, width: '40%' },
  {
    id: 'expiration',
    title: 'Expires',
    value: (b) => b.expiration ?? Number.POSITIVE_INFINITY,
    // Permanent and ending within a day are marked: the two a moderator looks for.
    render: (b) =>
      b.expiration === null ? (
        <span className="state state-permanent">Never</span>
      ) : b.expiration * 1000 - Date.now() < DAY_MS ? (
        <span className="state state-expiring">{formatTime(b.expiration)}</span>
      ) : (
        formatTime(b.expiration)
      ),
  },
  { id: 'issuer', title: 'Issued By', value: (b) => b.issuerUsernameFull ?? '' },
];

const playerOf = (b: Ban): Ref => ({ kind: 'player', id: b.playerId, label: b.playerName });
const banKey = (b: Ban) => ('groupBanId' in b ? b.groupBanId : b.serviceBanId);

export function BansTab({ serviceId, groupId }: BansTabProps) {
  const { realtime } = useApp();
  const runtime = useCommandRuntime();
  const go = usePaneNavigate();
  const [importing, setImporting] = useState(false);
  const list = usePagedList({
    of: serviceId ? 'serviceBans' : 'groupBans',
    params: serviceId ? { serviceId } : { groupId },
  });
  useLiveRefetch(realtime, {
    channels: [serviceId ? channelFor('services', serviceId) : channelFor('groups', groupId ?? '')],
    events: { [BANS_UPDATED]: true },
    refetch: list.refetch,
  });

  const importBans = async (source: { text: string } | { url: string }) => {
    const cmd = runtime.registry.get('ban.import');
    if (!cmd) throw new Error('Importing bans is not available.');
    const r = await runtime.run(cmd, { source: 'url' in source ? source.url : source.text }, 'toolbar');
    return r?.message ?? 'Imported.';
  };

  return (
    <div className="tab-panel">
      {importing && (
        <section aria-label="Import bans" className="bans-import">
          <h3>Import bans</h3>
          <FileImporter
            onImport={importBans}
            accept=".txt,.csv,text/plain"
            placeholder="One ban per line: EOSID[,name][,expiry epoch seconds]"
          />
        </section>
      )}
      <VirtualList<Ban>
        {...list.view}
        name={serviceId ? 'server-bans' : 'group-bans'}
        label="Bans"
        rowKey={banKey}
        columns={columns}
        defaultSort={{ column: 'playerName', direction: 'asc' }}
        emptyText="Nobody is banned here."
        onOpen={(b) => go(pathOf('player', b.playerId))}
        menu={() => MENUS.banRow}
        entity={playerOf}
        toolbar={
          <>
            <Toolbar commandIds={MENUS.banToolbar} label="Bans" />
            <button
              type="button"
              className="ui-button"
              aria-expanded={importing}
              onClick={() => setImporting(!importing)}
            >
              Import bans…
            </button>
          </>
        }
      />
    </div>
  );
}
