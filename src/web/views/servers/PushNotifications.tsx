// Per-server push notifications (SPEC §4): blocked by the browser, enabled or disabled; and,
// while enabled, a notification for chat and Warning-or-worse events when the console tab is
// hidden. The choice is the `server.pushNotifications` command, so the toggle here runs it.

import { useState } from 'react';
import { channelFor, type LogMessage, RealtimeEvent } from '../../../domain/api.ts';
import { LOG_LEVELS } from '../../../domain/enums.ts';
import { PUSH_LABELS } from '../../../domain/push.ts';
import { useApp } from '../../app/deps.tsx';
import { useCommandRuntime } from '../../app/runtime.ts';
import { useChannels } from '../../store/liveRefetch.ts';
import { pushState } from '../../store/push.ts';

const WARNING = LOG_LEVELS.indexOf('Warning');

export function notifies(m: LogMessage): boolean {
  return m.eventName === 'chat' || LOG_LEVELS.indexOf(m.level) >= WARNING;
}

export function PushNotificationsSetting({ serviceId, label }: { serviceId: string; label: string }) {
  const runtime = useCommandRuntime();
  const [state, setState] = useState(() => pushState(serviceId));
  const [error, setError] = useState<string | null>(null);
  const toggle = async () => {
    const cmd = runtime.registry.get('server.pushNotifications');
    if (!cmd) return;
    setError(null);
    try {
      await runtime.run(
        cmd,
        { server: { kind: 'server', id: serviceId, label }, state: state === 'enabled' ? 'off' : 'on' },
        'toolbar',
      );
    } catch (e) {
      setError((e as Error).message);
    }
    setState(pushState(serviceId));
  };
  return (
    <fieldset className="settings-push">
      <legend>Push notifications</legend>
      <p data-testid="push-state">{PUSH_LABELS[state]}</p>
      {state !== 'blocked' && (
        <button type="button" className="ui-button" onClick={() => void toggle()}>
          {state === 'enabled' ? 'Disable' : 'Enable'} push notifications
        </button>
      )}
      {state === 'blocked' && <p>Allow notifications for this site in the browser to enable them.</p>}
      {error && <p role="alert">{error}</p>}
    </fieldset>
  );
}

/** Shows a notification for the server's chat and warnings while the page is hidden and push is on. */
export function usePushNotifications(serviceIds: readonly string[]): void {
  const { realtime } = useApp();
  const supported = typeof Notification !== 'undefined';
  useChannels(realtime, supported ? serviceIds.map((id) => channelFor('services', id)) : [], {
    [RealtimeEvent.logMessage]: (data) => {
      const m = data as LogMessage;
      if (!document.hidden || !m || pushState(m.serviceId) !== 'enabled' || !notifies(m)) return;
      // The Notification API shows text as text; nothing in it is markup.
      new Notification(m.serviceDisplayName, { body: m.message.slice(0, 300), tag: m.messageId });
    },
  });
}
