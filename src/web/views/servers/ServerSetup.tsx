// Setup instructions (SPEC §2 /servers/{id}/setup): for a linked server the access key and the two
// config lines (the key is shown to the owner and editors only, who may regenerate it with
// `server.regenerateKey`); for an RCON server where Palisade connects, its status and why it fails.
// docs/servers-connecting.md says the same at length.

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import type { Service } from '../../../domain/api.ts';
import { Msg } from '../../../domain/messages.ts';
import { pathOf } from '../../../domain/resolver.ts';
import { useApp, userOf } from '../../app/deps.tsx';
import { PaneLink } from '../../app/PaneView.tsx';
import { useCommandRuntime } from '../../app/runtime.ts';
import { useLiveServices, useServices } from '../../store/services.ts';
import { serverStatus, statusLabel } from './format.ts';
import { SubscriptionBanner } from './SubscriptionBanner.tsx';

export function ServerSetup() {
  const { serviceId = '' } = useParams();
  const { api, config, index, auth, realtime } = useApp();
  const qc = useQueryClient();
  const runtime = useCommandRuntime();
  const services = useServices(api, index);
  const query = useQuery({ queryKey: ['service', serviceId], queryFn: () => api.services.get(serviceId) });
  // The status (and why RCON fails) changes while the page is open.
  useLiveServices(realtime, qc, index, userOf(auth)?.userId, [serviceId]);
  const [error, setError] = useState<string | null>(null);
  const s = query.data;
  const key = s?.accessKey ?? null;
  const lines = key ? `[BeaconSentinel]\nAccessKey=${key}` : '';
  const banList = `${config.apiUrl}/sentinel/services/${serviceId}/bans.txt`;
  const regenerate = async () => {
    const cmd = runtime.registry.get('server.regenerateKey');
    if (!cmd || !s) return;
    setError(null);
    try {
      await runtime.run(cmd, { server: { kind: 'server', id: serviceId, label: s.displayName } }, 'toolbar');
      await query.refetch();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const linkSetup = (
    <>
      {s && (
        // Whether the game is linked, or why the link refuses it (the owner's subscription).
        <dl className="facts" data-testid="link-status">
          <dt>Status</dt>
          <dd className={`status status-${serverStatus(s)}`}>
            <span role="status">{statusLabel(s)}</span>
          </dd>
        </dl>
      )}
      {s && !key && <p>{Msg.accessKeyHidden}</p>}
      {key && (
        <p>
          Access key: <code data-testid="access-key">{key}</code>{' '}
          <button type="button" className="ui-button" onClick={() => void regenerate()}>
            Regenerate access key
          </button>
        </p>
      )}
      {error && <p role="alert">{error}</p>}
      <ol className="setup-steps">
        <li>Install the Sentinel mod (CurseForge id 1193015) on the server.</li>
        {key && (
          <li>
            Add these two lines to <code>GameUserSettings.ini</code>:
            <pre className="copyable" data-testid="setup-lines">
              {lines}
            </pre>
          </li>
        )}
        <li>
          Optional: set the game's <code>BanListURL</code> to <code>{banList}</code> so bans reach the server
          even while it is not connected.
        </li>
      </ol>
    </>
  );
  return (
    <div className="page">
      <h1>Set up {s?.displayName ?? 'server'}</h1>
      <SubscriptionBanner services={services.data ?? []} />
      {query.error && <p role="alert">{query.error.message}</p>}
      {s?.connectionKind === 'rcon' ? <RconSetup service={s} /> : linkSetup}
      <PaneLink to={pathOf('server', serviceId)}>Back to the server</PaneLink>
    </div>
  );
}

/** Where Palisade connects over RCON, and how it is going (live: the query follows serviceUpdated). */
function RconSetup({ service: s }: { service: Service }) {
  return (
    <>
      <dl className="facts" data-testid="rcon-status">
        <dt>Connection</dt>
        <dd>RCON{s.rconHost ? ` to ${s.rconHost}:${s.rconPort}` : ''}</dd>
        <dt>Status</dt>
        <dd className={`status status-${serverStatus(s)}`}>
          <span role="status">{statusLabel(s)}</span>
        </dd>
        <dt>Password</dt>
        <dd>{s.rconPasswordSet ? 'stored (write-only: never shown)' : 'none'}</dd>
      </dl>
      <ol className="setup-steps">
        <li>
          In the game server’s <code>GameUserSettings.ini</code>, under <code>[ServerSettings]</code>: set{' '}
          <code>RCONEnabled=True</code>, <code>RCONPort</code> to the port above, and{' '}
          <code>ServerAdminPassword</code> to the password given here.
        </li>
        <li>Open that TCP port in the host’s firewall to this Palisade server’s address, and only to it.</li>
        <li>
          Over RCON Palisade sees players, chat and the game log, and sends commands, chat, kicks and bans.
          Locating and editing dinos, giving items and restoring from backup need the Sentinel mod’s link.
        </li>
      </ol>
    </>
  );
}
