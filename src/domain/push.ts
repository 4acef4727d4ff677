// Push notifications per server (SPEC §4): what the browser allows combined with our choice per server.

export type PushState = 'blocked' | 'enabled' | 'disabled';

export const PUSH_LABELS: Record<PushState, string> = {
  blocked: 'Blocked by the browser',
  enabled: 'Enabled',
  disabled: 'Disabled',
};
