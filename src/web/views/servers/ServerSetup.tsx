// Setup instructions (SPEC §2 /servers/{id}/setup): the access key and the two config lines.

import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { pathOf } from '../../../domain/resolver.ts';
import { useApp } from '../../app/deps.tsx';
import { PaneLink } from '../../app/PaneView.tsx';
import { useServices } from '../../store/services.ts';
import { SubscriptionBanner } from './SubscriptionBanner.tsx';

export function ServerSetup() {
  const { serviceId = '' } = useParams();
  const { api, config, index } = useApp();
  const services = useServices(api, index);
  const query = useQuery({ queryKey: ['service', serviceId], queryFn: () => api.services.get(serviceId) });
  const s = query.data;
  const lines = s ? `[BeaconSentinel]\nAccessKey=${s.accessKey}` : '';
  const banList = `${config.apiUrl}/sentinel/services/${serviceId}/bans.txt`;
  return (
    <div className="page">
      <h1>Set up {s?.displayName ?? 'server'}</h1>
      <SubscriptionBanner services={services.data ?? []} />
      {query.error && <p role="alert">{query.error.message}</p>}
      {s && (
        <p>
          Access key: <code data-testid="access-key">{s.accessKey}</code>
        </p>
      )}
      <ol className="setup-steps">
        <li>Install the Sentinel mod (CurseForge id 1193015) on the server.</li>
        <li>
          Add these two lines to <code>GameUserSettings.ini</code>:
          <pre className="copyable" data-testid="setup-lines">
            {lines}
          </pre>
        </li>
        <li>
          Optional: set the game's <code>BanListURL</code> to <code>{banList}</code> so bans reach the server
          even while it is not connected.
        </li>
      </ol>
      <PaneLink to={pathOf('server', serviceId)}>Back to the server</PaneLink>
    </div>
  );
}
