// Bearer authentication (SENTINEL-API §2.1): `Authorization: Bearer <token>` or `X-Beacon-Token`.

import { ACCESS_MESSAGES } from '../../domain/access.ts';
import { ApiException } from './errors.ts';

export interface Caller {
  userId: string;
  applicationId: string;
  scopes: string[];
  accessToken: string;
  /** Set when the bearer is an API token rather than a sign-in (docs/api.md "API tokens"). */
  tokenId?: string;
  /** The sign-in the session belongs to (unset for an API token). */
  familyId?: string;
  /** An API token limited to a server or group: it acts there only (docs/api.md "API tokens"). */
  limited?: boolean;
}

/**
 * A token limited to a server or group makes nothing of its own (a group, a bucket, a script): a
 * group it owned would let it hand its server to an account of its holder's, outliving the token.
 */
export function mayOwn(caller: Caller): void {
  if (caller.limited) throw new ApiException(403, ACCESS_MESSAGES.limitedTokenOwns, 'forbidden');
}

const REALM = 'Bearer realm="Beacon API"';

export function tokenFrom(headers: Headers): string | null {
  const auth = headers.get('authorization');
  const m = auth ? /^Bearer\s+(\S+)$/i.exec(auth) : null;
  return m?.[1] ?? headers.get('x-beacon-token') ?? null;
}

export const unauthorized = (invalidToken: boolean) =>
  new ApiException(401, 'Unauthorized', undefined, null, {
    'WWW-Authenticate': invalidToken ? `${REALM}, error="invalid_token"` : REALM,
  });

/** Scope `common` is always required; 403 insufficient_scope names what is missing. */
export function requireScopes(caller: Caller, scopes: readonly string[]): void {
  const missing = ['common', ...scopes].filter((s) => !caller.scopes.includes(s));
  if (missing.length === 0) return;
  throw new ApiException(403, 'Forbidden', 'forbidden', null, {
    'WWW-Authenticate': `${REALM}, error="insufficient_scope", scope="${missing.join(' ')}"`,
  });
}
