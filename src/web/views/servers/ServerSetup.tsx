// Setup instructions (SPEC §2 /servers/{id}/setup): the access key and the two config lines. The
// key is shown to the owner and editors only, who may regenerate it (`server.regenerateKey`).

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { Msg } from '../../../domain/messages.ts';
import { pathOf } from '../../../domain/resolver.ts';
import { useApp } from '../../app/deps.tsx';
import { PaneLink } from '../../app/PaneView.tsx';
import { useCommandRuntime } from '../../app/runtime.ts';
import { useServices } from '../../store/services.ts';
import { SubscriptionBanner } from './SubscriptionBanner.tsx';

export function ServerSetup() {
  const { serviceId = '' } = useParams();
  const { api, config, index } = useApp();
  const runtime = useCommandRuntime();
  const services = useServices(api, index);
  const query = useQuery({ queryKey: ['service', serviceId], queryFn: () => api.services.get(serviceId) });
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
  return (
    <div className="page">
      <h1>Set up {s?.displayName ?? 'server'}</h1>
      <SubscriptionBanner services={services.data ?? []} />
      {query.error && <p role="alert">{query.error.message}</p>}
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
      <PaneLink to={pathOf('server', serviceId)}>Back to the server</PaneLink>
    </div>
  );
}
