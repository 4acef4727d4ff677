// Bans of a server or a group (SPEC §2 "Other tabs"): player, comments, expiry, issuer; live.
// Rows offer edit, remove (one or many marked) and go to player; the toolbar bans and imports
// (File importer: file, link, paste, drag and drop), all through the ban.* commands.

import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { channelFor } from '../../../domain/api.ts';
import { BANS_UPDATED } from '../../../domain/bans.ts';
import type { Ban } from '../../../domain/players.ts';
import { pathOf, type Ref } from '../../../domain/resolver.ts';
import { useApp } from '../../app/deps.tsx';
import { MENUS } from '../../app/menus.ts';
import { usePaneNavigate } from '../../app/PaneView.tsx';
import { useCommandRuntime } from '../../app/runtime.ts';
import { FileImporter } from '../../ui/FileImporter.tsx';
import { Toolbar } from '../../ui/Toolbar.tsx';
import { type Column, VirtualList } from '../../ui/VirtualList.tsx';
import { formatTime, usePage } from '../players/usePage.ts';

export interface BansTabProps {
  serviceId?: string;
  groupId?: string;
}

const columns: Column<Ban>[] = [
  { id: 'playerName', title: 'Player', value: (b) => b.playerName },
  { id: 'comments', title: 'Comments', value: (b) => b.comments, width: '40%' },
  {
    id: 'expiration',
    title: 'Expires',
    value: (b) => b.expiration ?? Number.POSITIVE_INFINITY,
    render: (b) => (b.expiration === null ? 'Never' : formatTime(b.expiration)),
  },
  { id: 'issuer', title: 'Issued By', value: (b) => b.issuerUsernameFull ?? '' },
];

const playerOf = (b: Ban): Ref => ({ kind: 'player', id: b.playerId, label: b.playerName });
const banKey = (b: Ban) => ('groupBanId' in b ? b.groupBanId : b.serviceBanId);

export function BansTab({ serviceId, groupId }: BansTabProps) {
  const { realtime } = useApp();
  const runtime = useCommandRuntime();
  const qc = useQueryClient();
  const go = usePaneNavigate();
  const [importing, setImporting] = useState(false);
  const path = serviceId ? '/sentinel/serviceBans' : '/sentinel/groupBans';
  const query = usePage<Ban>(path, serviceId ? { serviceId } : { groupId });
  const refresh = () => void qc.invalidateQueries({ queryKey: [path] });

  const channel = serviceId ? channelFor('services', serviceId) : channelFor('groups', groupId ?? '');
  useEffect(() => {
    if (!realtime) return;
    const refetch = () => void qc.invalidateQueries({ queryKey: [path] });
    return realtime.subscribe(channel, { [BANS_UPDATED]: refetch, resync: refetch });
  }, [realtime, qc, channel, path]);

  const importBans = async (source: { text: string } | { url: string }) => {
    const cmd = runtime.registry.get('ban.import');
    if (!cmd) throw new Error('Importing bans is not available.');
    const r = await runtime.run(cmd, { source: 'url' in source ? source.url : source.text }, 'toolbar');
    refresh();
    return r?.message ?? 'Imported.';
  };

  return (
    <div className="bans-tab">
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
        name={serviceId ? 'server-bans' : 'group-bans'}
        label="Bans"
        rows={query.data ?? []}
        rowKey={banKey}
        columns={columns}
        defaultSort={{ column: 'playerName', direction: 'asc' }}
        loading={query.isLoading}
        error={query.error?.message ?? null}
        emptyText="Nobody is banned here."
        onOpen={(b) => go(pathOf('player', b.playerId))}
        onRefresh={refresh}
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
