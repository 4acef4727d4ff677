// Runtime configuration. The console reads /config.json at startup so one build can be hosted
// against any API (the reference server serves it; other hosts drop their own beside the bundle),
// and falls back to the PALISADE_* variables baked in by Vite.

import { API_VERSION } from '../../domain/constants.ts';
import {
  SITE_LINK_DEFAULTS,
  SITE_LINK_ENV,
  SITE_LINKS,
  type SiteLinks,
  siteLinkProblem,
} from '../../domain/siteLinks.ts';

export interface PusherConfig {
  key: string;
  cluster: string;
  wsHost?: string;
  wsPort?: number;
  forceTLS: boolean;
}

export interface ConsoleConfig extends SiteLinks {
  /** Ends in /v4. */
  apiUrl: string;
  clientId: string;
  pusher: PusherConfig;
  controlPanelUrl: string;
}

/** What /config.json may hold: ConsoleConfig with everything derivable left out. */
export interface ConfigFile extends Partial<SiteLinks> {
  apiUrl?: string;
  clientId?: string;
  pusher?: Partial<PusherConfig>;
  controlPanelUrl?: string;
}

export type ViteEnv = Record<string, string | boolean | undefined>;

const DEFAULT_CLUSTER = 'mt1';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export async function loadConfig(
  fetchFn: typeof fetch = (...a) => fetch(...a),
  env: ViteEnv = import.meta.env,
): Promise<ConsoleConfig> {
  return resolveConfig(await fetchConfigFile(fetchFn), envConfig(env));
}

/** The file, or null when it is absent. A dev server answers unknown paths with index.html, hence the parse. */
async function fetchConfigFile(fetchFn: typeof fetch): Promise<ConfigFile | null> {
  let res: Response;
  try {
    res = await fetchFn('/config.json', { headers: { Accept: 'application/json' }, cache: 'no-store' });
  } catch {
    return null;
  }
  if (!res.ok) return null;
  try {
    const parsed: unknown = JSON.parse(await res.text());
    return typeof parsed === 'object' && parsed !== null ? (parsed as ConfigFile) : null;
  } catch {
    return null;
  }
}

function envConfig(env: ViteEnv): ConfigFile {
  const text = (name: string) => {
    const v = env[name];
    return typeof v === 'string' && v.trim() ? v.trim() : undefined;
  };
  const port = text('PALISADE_PUSHER_PORT');
  return {
    apiUrl: text('PALISADE_API_URL'),
    clientId: text('PALISADE_CLIENT_ID'),
    pusher: {
      key: text('PALISADE_PUSHER_KEY'),
      cluster: text('PALISADE_PUSHER_CLUSTER'),
      wsHost: text('PALISADE_PUSHER_HOST'),
      wsPort: port === undefined ? undefined : Number(port),
    },
    controlPanelUrl: text('PALISADE_CONTROL_PANEL_URL'),
    ...Object.fromEntries(SITE_LINKS.map((k) => [k, text(SITE_LINK_ENV[k])])),
  };
}

/** Each field from the file when it has it, else from the environment; then checked and completed. */
export function resolveConfig(file: ConfigFile | null, env: ConfigFile): ConsoleConfig {
  const pick = <K extends keyof ConfigFile>(k: K) => (file?.[k] ?? env[k]) as ConfigFile[K];
  const pusher = { ...definedOnly(env.pusher), ...definedOnly(file?.pusher) };
  const apiUrl = pick('apiUrl');
  const clientId = pick('clientId');
  const missing = [
    !apiUrl && 'apiUrl (PALISADE_API_URL)',
    !clientId && 'clientId (PALISADE_CLIENT_ID)',
    !pusher.key && 'pusher.key (PALISADE_PUSHER_KEY)',
  ].filter(Boolean);
  if (missing.length > 0)
    throw new ConfigError(
      `The console is not configured: ${missing.join(', ')} missing. Serve a /config.json beside the ` +
        'console, or set the PALISADE_* variables when building it.',
    );

  const api = apiBase(apiUrl!);
  const wsPort = pusher.wsPort;
  const links = siteLinks(file, env);
  if (wsPort !== undefined && !(Number.isInteger(wsPort) && wsPort > 0 && wsPort < 65536))
    throw new ConfigError(`The realtime port "${wsPort}" is not a port number.`);
  return {
    apiUrl: api.href.replace(/\/$/, ''),
    clientId: clientId!,
    pusher: {
      key: pusher.key!,
      cluster: pusher.cluster || DEFAULT_CLUSTER,
      ...(pusher.wsHost ? { wsHost: pusher.wsHost } : {}),
      ...(wsPort !== undefined ? { wsPort } : {}),
      // A self-hosted realtime server follows the API's scheme; Pusher's own service is always TLS.
      forceTLS: pusher.forceTLS ?? (pusher.wsHost ? api.protocol === 'https:' : true),
    },
    controlPanelUrl: pick('controlPanelUrl') ?? new URL('/account', api).href,
    ...links,
  };
}

/** Each link from the file, else the build, else the provider's page; one that cannot be followed is refused. */
function siteLinks(file: ConfigFile | null, env: ConfigFile): SiteLinks {
  const links = { ...SITE_LINK_DEFAULTS };
  for (const k of SITE_LINKS) {
    const v = [file?.[k], env[k]].find((x) => typeof x === 'string' && x.trim() !== '');
    if (v === undefined) continue;
    const problem = siteLinkProblem(k, v);
    if (problem) throw new ConfigError(`The console is not configured: ${problem}`);
    links[k] = v;
  }
  return links;
}

function definedOnly<T extends object>(o: T | undefined): Partial<T> {
  return Object.fromEntries(
    Object.entries(o ?? {}).filter(([, v]) => v !== undefined && v !== ''),
  ) as Partial<T>;
}

/** The API address with the version segment the calls are relative to (SPEC §7: version 4). */
function apiBase(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`The API address "${raw}" is not a URL.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new ConfigError(`The API address "${raw}" must use https or http.`);
  const path = url.pathname.replace(/\/+$/, '');
  url.pathname = path.endsWith(`/${API_VERSION}`) ? path : `${path}/${API_VERSION}`;
  url.search = '';
  url.hash = '';
  return url;
}
