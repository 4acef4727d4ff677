// The session of SPEC §4 and §8: PKCE sign-in, the user record, token renewal shared by every
// caller and every tab, and sign-out. Plain TypeScript so that commands and the API helper use
// it without React; react.tsx puts it in a context.

import type { TokenResponse, User } from '../../domain/api.ts';
import { SCOPES } from '../../domain/constants.ts';
import { Msg } from '../../domain/messages.ts';
import { ApiError } from '../api/http.ts';
import type { SentinelApi } from '../api/sentinel.ts';
import type { ConsoleConfig } from './config.ts';
import { ensureDeviceId, readDeviceId } from './deviceId.ts';
import { challengeFor, createVerifier, randomState } from './pkce.ts';
import { browserStorage, readJson } from './storage.ts';
import {
  clearStoredAuth,
  onStoredAuthChange,
  readStoredAuth,
  type StoredAuth,
  storedAuthFrom,
  writeStoredAuth,
} from './storedAuth.ts';

export type AuthState =
  | { status: 'signedOut'; reason: string | null }
  | { status: 'signingIn' }
  | { status: 'signedIn'; user: User };

/** Runs `fn` while no other tab renews; Web Locks where the browser has them. */
export type RenewalLock = <T>(fn: () => Promise<T>) => Promise<T>;

export interface AuthDeps {
  config: Pick<ConsoleConfig, 'apiUrl' | 'clientId'>;
  api: Pick<SentinelApi, 'token' | 'user' | 'deleteSession'>;
  /** Leaves the console for the provider (window.location.assign). */
  navigate(url: string): void;
  /** Milliseconds since the epoch. */
  now?(): number;
  local?: Storage;
  session?: Storage;
  /** Where other tabs' `storage` events arrive (window). */
  events?: EventTarget;
  /** This site's origin, for the /oauth return address. */
  origin?: string;
  /** The page's address, sent as the policy-signing return address. */
  currentUrl?(): string;
  lock?: RenewalLock;
}

export interface Auth {
  readonly state: AuthState;
  subscribe(listener: () => void): () => void;
  /** Restores the stored session, follows other tabs and renews ahead of expiry until the returned stop is called. */
  start(): () => void;
  /** Leaves for the provider's sign-in page; the user comes back to `returnTo` (default: the saved return address, else /servers). */
  signIn(returnTo?: string): Promise<void>;
  /** The route guard's saved return address, used by the next signIn() without an argument. */
  setReturnTo(path: string): void;
  /** Redeems the /oauth result. Resolves to the in-app address to go to, or null when the browser is being sent to sign a policy. */
  completeSignIn(currentUrl: string): Promise<string | null>;
  /** A valid access token, renewed first when it expires within a minute; null when signed out. */
  accessToken(): Promise<string | null>;
  /** For the API helper after a 401: renews once; true when a retry may succeed. */
  onUnauthorized(): Promise<boolean>;
  /** Deletes the session and clears everything; resolves to a notice when the server could not be told. */
  signOut(): Promise<string | null>;
  /** Reloads the user record (after a userUpdated event, a purchase, …). */
  reloadUser(): Promise<void>;
  deviceId(): string;
}

const PENDING_KEY = 'palisade.signIn';
const RETURN_KEY = 'palisade.returnTo';
export const DEFAULT_RETURN = '/servers';
/** Renew when the access token expires within this many seconds. */
export const RENEW_AHEAD_S = 60;
/** A 401 this soon after a renewal raced it: retry with the new token rather than rotate again. */
const FRESH_TOKEN_S = 10;
/** After a network failure the renewal timer tries again this much later. */
export const RENEW_RETRY_MS = 30_000;
const MAX_TIMER_MS = 2 ** 31 - 1;
/** Keeps a provider that issues very short-lived tokens from driving the timer in a tight loop. */
const MIN_TIMER_MS = 1000;

interface PendingSignIn {
  state: string;
  verifier: string;
  returnTo: string;
}

/** Only paths on this site: a crafted return address must not send the user elsewhere. */
export function safeReturnTo(path: string | null | undefined): string {
  return path?.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\') ? path : DEFAULT_RETURN;
}

const webLock: RenewalLock = (fn) => {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks;
  return locks ? locks.request('palisade.auth.renew', fn) : fn();
};

const reasonOf = (e: unknown) => (e instanceof Error ? e.message : String(e));
/** Unreachable, or refused for now by the rate limit: the session stands and is tried again later. */
const isTransient = (e: unknown) => e instanceof ApiError && (e.status === 0 || e.status === 429);

function isPending(v: unknown): v is PendingSignIn {
  const p = v as Partial<PendingSignIn> | null;
  return typeof p?.state === 'string' && typeof p.verifier === 'string' && typeof p.returnTo === 'string';
}

export function createAuth(deps: AuthDeps): Auth {
  const { config, api } = deps;
  const now = deps.now ?? Date.now;
  const local = deps.local ?? browserStorage('local');
  const session = deps.session ?? browserStorage('session');
  const events = deps.events ?? globalThis;
  const origin = deps.origin ?? globalThis.location.origin;
  const currentUrl = deps.currentUrl ?? (() => globalThis.location.href);
  const lock = deps.lock ?? webLock;
  const redirectUri = `${origin}/oauth`;

  const nowS = () => now() / 1000;
  const usable = (a: StoredAuth | null): a is StoredAuth => a !== null && a.refresh_token_expiration > nowS();

  let state: AuthState = usable(readStoredAuth(local))
    ? { status: 'signingIn' }
    : { status: 'signedOut', reason: null };
  const listeners = new Set<() => void>();
  /** Only the newest user load may set the state. */
  let userGeneration = 0;
  let userLoads = 0;
  let renewing: Promise<string | null> | null = null;
  let offline = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running = 0;
  let completing: { url: string; result: Promise<string | null> } | null = null;

  function setState(next: AuthState) {
    state = next;
    for (const fn of listeners) fn();
  }

  function endSession(reason: string | null) {
    clearStoredAuth(local);
    clearTimeout(timer);
    userGeneration++;
    setState({ status: 'signedOut', reason });
  }

  function schedule() {
    clearTimeout(timer);
    const a = readStoredAuth(local);
    if (running === 0 || !usable(a)) return;
    let due = (a.access_token_expiration - RENEW_AHEAD_S) * 1000 - now();
    if (due <= 0 && offline) due = RENEW_RETRY_MS;
    timer = setTimeout(
      () => void accessToken().finally(schedule),
      Math.min(Math.max(due, MIN_TIMER_MS), MAX_TIMER_MS),
    );
  }

  /** Resolves true when the user is loaded, false when the browser is sent to sign a policy. */
  async function loadUser(returnUrl: string): Promise<boolean> {
    const generation = ++userGeneration;
    if (state.status === 'signedOut') setState({ status: 'signingIn' });
    userLoads++;
    try {
      const user = await api.user(ensureDeviceId(local), returnUrl);
      if (generation === userGeneration) setState({ status: 'signedIn', user });
      return true;
    } catch (e) {
      const policyUrl =
        e instanceof ApiError && e.code === 'policyRequired' && (e.details as { url?: unknown })?.url;
      if (typeof policyUrl === 'string' && /^https?:\/\//i.test(policyUrl)) {
        deps.navigate(policyUrl);
        return false;
      }
      // A reload that cannot reach the API, or is told to slow down, keeps the user it has.
      const keep = isTransient(e) && state.status === 'signedIn';
      if (generation === userGeneration && !keep) setState({ status: 'signedOut', reason: reasonOf(e) });
      throw e;
    } finally {
      userLoads--;
    }
  }

  async function accessToken(): Promise<string | null> {
    const a = readStoredAuth(local);
    if (!a) return null;
    if (a.access_token_expiration - nowS() > RENEW_AHEAD_S) return a.access_token;
    return renew(false);
  }

  function renew(force: boolean): Promise<string | null> {
    renewing ??= lock(() => renewNow(force)).finally(() => {
      renewing = null;
    });
    return renewing;
  }

  async function renewNow(force: boolean): Promise<string | null> {
    // Read again inside the lock: another tab may have renewed or signed out meanwhile.
    const a = readStoredAuth(local);
    if (!a) return null;
    const issuedAt = a.access_token_expiration - a.access_token_expires_in;
    const current = force
      ? nowS() - issuedAt < FRESH_TOKEN_S
      : a.access_token_expiration - nowS() > RENEW_AHEAD_S;
    if (current) return a.access_token;
    if (a.refresh_token_expiration <= nowS()) {
      endSession(Msg.refreshExpired);
      return null;
    }
    try {
      const token = await api.token(ensureDeviceId(local), {
        grant_type: 'refresh_token',
        client_id: config.clientId,
        refresh_token: a.refresh_token,
        scope: a.scope,
      });
      offline = false;
      writeStoredAuth(local, storedAuthFrom(token, now()));
      return token.access_token;
    } catch (e) {
      // Unreachable or rate-limited is not refused: keep the session and try again later.
      if (isTransient(e)) {
        offline = true;
        return a.access_token_expiration > nowS() ? a.access_token : null;
      }
      // Without Web Locks another tab may have rotated this refresh token first.
      const latest = readStoredAuth(local);
      if (latest && latest.refresh_token !== a.refresh_token) return latest.access_token;
      endSession(Msg.refreshExpired);
      return null;
    }
  }

  function fail(reason: string): never {
    setState({ status: 'signedOut', reason });
    throw new Error(reason);
  }

  async function redeem(url: string): Promise<string | null> {
    const params = new URL(url).searchParams;
    const pending = readJson(session, PENDING_KEY);
    session.removeItem(PENDING_KEY);
    const providerError = params.get('error_description') ?? params.get('error');
    if (providerError) fail(providerError);
    const code = params.get('code');
    if (!isPending(pending) || params.get('state') !== pending.state || !code) fail(Msg.signInState);

    setState({ status: 'signingIn' });
    let token: TokenResponse;
    try {
      token = await api.token(ensureDeviceId(local), {
        client_id: config.clientId,
        code,
        grant_type: 'authorization_code',
        redirect_uri: redirectUri,
        code_verifier: pending.verifier,
      });
    } catch (e) {
      fail(reasonOf(e));
    }
    writeStoredAuth(local, storedAuthFrom(token, now()));
    offline = false;
    schedule();
    const returnTo = safeReturnTo(pending.returnTo);
    // The policy page sends the user back here; the return address is where they were going, not /oauth.
    return (await loadUser(new URL(returnTo, origin).href)) ? returnTo : null;
  }

  function followOtherTab(a: StoredAuth | null) {
    if (!usable(a)) {
      if (state.status === 'signedOut') return;
      clearTimeout(timer);
      userGeneration++;
      setState({ status: 'signedOut', reason: null });
      return;
    }
    schedule();
    if (state.status === 'signedOut') void loadUser(currentUrl()).catch(() => {});
  }

  return {
    get state() {
      return state;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    start() {
      running++;
      const unlisten = onStoredAuthChange(events, local, followOtherTab);
      const a = readStoredAuth(local);
      if (a && !usable(a)) clearStoredAuth(local);
      else if (a && state.status !== 'signedIn' && userLoads === 0 && !completing)
        void loadUser(currentUrl()).catch(() => {});
      schedule();
      return () => {
        running--;
        unlisten();
        if (running === 0) clearTimeout(timer);
      };
    },
    async signIn(returnTo) {
      const target = safeReturnTo(returnTo ?? session.getItem(RETURN_KEY));
      session.removeItem(RETURN_KEY);
      const verifier = createVerifier();
      const pending: PendingSignIn = { state: randomState(), verifier, returnTo: target };
      const query = {
        client_id: config.clientId,
        scope: SCOPES.join(' '),
        redirect_uri: redirectUri,
        state: pending.state,
        response_type: 'code',
        code_challenge: await challengeFor(verifier),
        code_challenge_method: 'S256',
        device_id: ensureDeviceId(local),
      };
      session.setItem(PENDING_KEY, JSON.stringify(pending));
      const search = Object.entries(query)
        .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
        .join('&');
      deps.navigate(`${config.apiUrl}/login?${search}`);
    },
    setReturnTo(path) {
      session.setItem(RETURN_KEY, safeReturnTo(path));
    },
    completeSignIn(url) {
      // The code is single-use: a second call for the same address (React StrictMode) shares the first.
      if (completing?.url !== url) completing = { url, result: redeem(url) };
      return completing.result;
    },
    accessToken,
    async onUnauthorized() {
      return (await renew(true)) !== null;
    },
    async signOut() {
      let notice: string | null = null;
      const token = await accessToken();
      if (token) {
        try {
          await api.deleteSession(token);
        } catch {
          notice = Msg.logoutFailed;
        }
      }
      endSession(null);
      return notice;
    },
    async reloadUser() {
      if (readStoredAuth(local)) await loadUser(currentUrl()).catch(() => {});
    },
    deviceId: () => readDeviceId(local),
  };
}
