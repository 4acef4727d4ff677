// A player (SPEC §2 /players/{playerId}): facts, then tabs logs (default), sessions, identifiers,
// characters, nameHistory, notes. Opted-out players show as 'Anonymous' with no facts.

import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useParams } from 'react-router';
import { PLAYER_TABS } from '../../../domain/enums.ts';
import type { PlayerDetail } from '../../../domain/players.ts';
import { pathOf } from '../../../domain/resolver.ts';
import { useApp } from '../../app/deps.tsx';
import { PaneLink } from '../../app/PaneView.tsx';
import { LogView } from '../logs/LogView.tsx';
import { FlagChips } from './FlagChips.tsx';
import { NotesTab } from './NotesTab.tsx';
import { CharactersTab, IdentifiersTab, NameHistoryTab } from './PlayerRecords.tsx';
import { playerRef } from './playerRef.ts';
import { SessionsTab } from './SessionsTab.tsx';

const TITLES: Record<(typeof PLAYER_TABS)[number], string> = {
  logs: 'Logs',
  sessions: 'Sessions',
  identifiers: 'Identifiers',
  characters: 'Survivors',
  nameHistory: 'Name History',
  notes: 'Notes',
};

const yesNo = (v: boolean | null) => (v === null ? '—' : v ? 'Yes' : 'No');

function Facts({ p }: { p: PlayerDetail }) {
  if (p.isAnonymous) return <p className="facts-note">This player opted out of tracking.</p>;
  const facts: [string, string][] = [
    ['Timezone', p.timezone ?? '—'],
    ['VPN', yesNo(p.isUsingVpn)],
    ['IP lookup', p.ipLookupSuccess === null ? '—' : p.ipLookupSuccess ? 'Succeeded' : 'Failed'],
    ['IP fingerprint', p.ipFingerprint ?? '—'],
    ['Country', p.countryCode ?? '—'],
    ['Continent', p.continentCode ?? '—'],
  ];
  return (
    <dl className="facts">
      {facts.map(([k, v]) => (
        <div key={k} className="fact">
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

export function PlayerPage() {
  const { playerId = '', tab = 'logs' } = useParams();
  const { api, index } = useApp();
  const query = useQuery({ queryKey: ['player', playerId], queryFn: () => api.players.get(playerId) });
  useEffect(() => {
    if (query.data) index.upsert([playerRef(query.data)]);
  }, [query.data, index]);

  if (query.error)
    return (
      <div className="page">
        <h1>Player</h1>
        <p role="alert">{query.error.message}</p>
      </div>
    );
  const p = query.data;
  return (
    <div className="page page-player">
      <header className="server-header">
        <h1>{p?.playerName ?? 'Loading…'}</h1>
        {p && p.flags.length > 0 && (
          <p className="player-flags">
            <FlagChips flags={p.flags} reasons />
          </p>
        )}
        {p && !p.isAnonymous && p.otherNames.length > 0 && (
          <p className="player-aka">Also known as {p.otherNames.join(', ')}</p>
        )}
        {p && <Facts p={p} />}
      </header>
      <nav className="tabs" aria-label="Player tabs">
        {PLAYER_TABS.map((t) => (
          <PaneLink
            key={t}
            to={pathOf('player', playerId, t)}
            className={tab === t ? 'tab tab-active' : 'tab'}
          >
            {TITLES[t]}
          </PaneLink>
        ))}
      </nav>
      {tab === 'logs' && <LogView filter={{ playerId }} name="player-logs" />}
      {tab === 'sessions' && <SessionsTab playerId={playerId} />}
      {tab === 'identifiers' && <IdentifiersTab playerId={playerId} />}
      {tab === 'characters' && <CharactersTab playerId={playerId} />}
      {tab === 'nameHistory' && <NameHistoryTab playerId={playerId} />}
      {tab === 'notes' && <NotesTab playerId={playerId} />}
    </div>
  );
}
