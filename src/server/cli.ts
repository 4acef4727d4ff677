// `npm start` / `tsx src/server/cli.ts`: the API server with demo data and simulated game servers.
// Environment: PORT, HOST, DATABASE_URL, PALISADE_DATA_DIR, PALISADE_PUBLIC_URL, PALISADE_DEMO_EMAIL,
// PALISADE_DEMO_PASSWORD, PALISADE_SIM_SERVERS, PALISADE_SIM_TICK_MS, PALISADE_RATE_LIMIT,
// PALISADE_SCRIPT_REVIEWERS (comma-separated emails of the admins who review scripts),
// PALISADE_RCON_KEY, PALISADE_SIM_RCON_PORT, PALISADE_SIM_RCON_PASSWORD, PALISADE_SIM_CONTROL_PORT
// (the browser tests' control of the simulator, src/sim/control.ts), the public site's links
// (PALISADE_DEV_BLOG_URL, PALISADE_SUPPORT_URL, PALISADE_COMMUNITY_CHAT_URL, PALISADE_PLANNER_URL),
// PUSHER_APP_ID/PUSHER_KEY/PUSHER_SECRET/PUSHER_HOST[/PUSHER_PORT/PUSHER_USE_TLS/PUSHER_CLUSTER],
// PALISADE_PLAN_TIER_SERVERS, PALISADE_PLAN_MONTHLY, PALISADE_PLAN_YEARLY, PALISADE_PLAN_MAX_SERVERS,
// PALISADE_EMAIL_MX, PALISADE_RETENTION_DAYS, PALISADE_RCON_WORKER (RCON servers are held in a worker thread unless it is
// false), PALISADE_SMTP_URL and PALISADE_MAIL_FROM (the relay alert mail goes through). Without DATABASE_URL the install's own PostgreSQL server runs under PALISADE_DATA_DIR.

import { type PlanConfig, parseTierPrices } from '../domain/plans.ts';
import { SCRIPT_LIMITS } from '../domain/scripts/limits.ts';
import { SITE_LINK_ENV, SITE_LINKS } from '../domain/siteLinks.ts';
import { playCommunityBot } from '../sim/communityConsole.ts';
import { startSimControl } from '../sim/control.ts';
import { startSimulator } from '../sim/index.ts';
import { createServer, type ExternalPusher } from './app.ts';
import { type EmbeddedPostgres, startEmbeddedPostgres } from './db/embedded.ts';
import { importPgliteData } from './db/pgliteImport.ts';
import { LINK_PATH } from './game/link/linkServer.ts';
import { seedDemo } from './seed.ts';

const env = (name: string, fallback: string) => {
  const v = process.env[name];
  return v === undefined || v.trim() === '' ? fallback : v.trim();
};
const intEnv = (name: string, fallback: number) => {
  const n = Number.parseInt(env(name, String(fallback)), 10);
  return Number.isFinite(n) ? n : fallback;
};

function externalPusher(): ExternalPusher | undefined {
  const [appId, key, secret, host] = ['PUSHER_APP_ID', 'PUSHER_KEY', 'PUSHER_SECRET', 'PUSHER_HOST'].map(
    (n) => env(n, ''),
  );
  if (!appId || !key || !secret || !host) return undefined;
  const port = intEnv('PUSHER_PORT', 0);
  return {
    appId,
    key,
    secret,
    host,
    port: port || undefined,
    useTLS: env('PUSHER_USE_TLS', 'false') === 'true',
    cluster: env('PUSHER_CLUSTER', 'mt1'),
  };
}

/** Plan prices from the environment; a malformed value stops the start rather than bill wrongly. */
function planConfig(): Partial<PlanConfig> {
  const plans: Partial<PlanConfig> = {};
  for (const [name, key] of [
    ['PALISADE_PLAN_MONTHLY', 'monthly'],
    ['PALISADE_PLAN_YEARLY', 'yearly'],
  ] as const) {
    const text = env(name, '');
    if (text === '') continue;
    const prices = parseTierPrices(text);
    if (!prices) throw new Error(`${name} must be three prices in dollars, e.g. "4,3,2"; it is "${text}".`);
    plans[key] = prices;
  }
  for (const [name, key] of [
    ['PALISADE_PLAN_TIER_SERVERS', 'tierSize'],
    ['PALISADE_PLAN_MAX_SERVERS', 'maxServers'],
  ] as const) {
    const text = env(name, '');
    if (text === '') continue;
    if (!/^[1-9]\d*$/.test(text)) throw new Error(`${name} must be a whole number above 0; it is "${text}".`);
    plans[key] = Number(text);
  }
  return plans;
}

/** PALISADE_RETENTION_DAYS: history kept for every owner whatever the plan; a malformed value stops the start. */
function retentionDays(): number | undefined {
  const text = env('PALISADE_RETENTION_DAYS', '');
  if (text === '') return undefined;
  if (!/^[1-9]\d{0,4}$/.test(text))
    throw new Error(
      `PALISADE_RETENTION_DAYS must be a whole number of days from 1 to 99999; it is "${text}".`,
    );
  return Number(text);
}

/**
 * PALISADE_OUTBOUND_ALLOW: ranges of this machine's networks users may point RCON hosts and
 * scripts' requests at; with the simulator answering RCON (demo and browser tests), its loopback
 * address too, so that it can be added as an RCON server out of the box.
 */
function outboundAllow(): string[] {
  const simulatedRcon = intEnv('PALISADE_SIM_SERVERS', 3) > 0 && intEnv('PALISADE_SIM_RCON_PORT', 0) > 0;
  return [...env('PALISADE_OUTBOUND_ALLOW', '').split(','), ...(simulatedRcon ? ['127.0.0.1'] : [])].filter(
    (e) => e.trim() !== '',
  );
}

/** The API server on this database, configured from the environment. */
/** The relay alert mail goes through, when the operator names one. */
function mailConfig() {
  const url = env('PALISADE_SMTP_URL', '');
  return url ? { url, from: env('PALISADE_MAIL_FROM', 'Palisade <alerts@palisade.local>') } : undefined;
}

function startServer(databaseUrl: string, host: string) {
  return createServer({
    port: intEnv('PORT', 8080),
    host,
    databaseUrl,
    publicUrl: env('PALISADE_PUBLIC_URL', '') || undefined,
    rateLimit: intEnv('PALISADE_RATE_LIMIT', 600),
    pusher: externalPusher(),
    chatBotToken: env('PALISADE_CHAT_BOT_TOKEN', '') || undefined,
    scriptReviewers: [
      env('PALISADE_DEMO_EMAIL', 'admin@palisade.local'),
      ...env('PALISADE_SCRIPT_REVIEWERS', '').split(','),
    ].filter((e) => e.trim() !== ''),
    rconKey: env('PALISADE_RCON_KEY', '') || undefined,
    siteLinks: Object.fromEntries(SITE_LINKS.map((k) => [k, env(SITE_LINK_ENV[k], '') || undefined])),
    plans: planConfig(),
    emailMx: env('PALISADE_EMAIL_MX', 'false') === 'true',
    rconWorker: env('PALISADE_RCON_WORKER', 'true') !== 'false',
    retentionDays: retentionDays(),
    outboundAllow: outboundAllow(),
    scripts: {
      secondsPerMinute: intEnv('PALISADE_SCRIPT_SECONDS_PER_MINUTE', SCRIPT_LIMITS.secondsPerMinute),
    },
    alerts: { mail: mailConfig() },
  });
}

/** The install's own PostgreSQL unless DATABASE_URL names one, with a PGlite install's data moved in. */
async function database(dataDir: string): Promise<{ url: string; embedded: EmbeddedPostgres | null }> {
  const external = env('DATABASE_URL', '');
  if (external) return { url: external, embedded: null };
  const embedded = await startEmbeddedPostgres({ dataDir, log: (line) => console.log(line) });
  try {
    await importPgliteData({ dataDir, databaseUrl: embedded.url, log: (line) => console.log(line) });
  } catch (e) {
    await embedded.stop();
    throw e;
  }
  return { url: embedded.url, embedded };
}

async function main(): Promise<void> {
  const host = env('HOST', '127.0.0.1');
  const dataDir = env('PALISADE_DATA_DIR', '.data');
  const db = await database(dataDir);
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer(db.url, host);
  } catch (e) {
    await db.embedded?.stop();
    throw e;
  }
  const email = env('PALISADE_DEMO_EMAIL', 'admin@palisade.local');
  const password = env('PALISADE_DEMO_PASSWORD', 'palisade-demo');
  const simServers = Math.max(0, intEnv('PALISADE_SIM_SERVERS', 3));
  const demo = await seedDemo(server.db, { email, password, servers: Math.max(simServers, 3) });

  const linkUrl = `${server.url.replace(/^http/, 'ws')}${LINK_PATH}`;
  // Each simulated server also answers RCON on its own port from this one on (0: none), so it
  // can be added as an RCON server too.
  const rconBase = intEnv('PALISADE_SIM_RCON_PORT', 0);
  const rconPassword = env('PALISADE_SIM_RCON_PASSWORD', 'palisade-rcon');
  const sim =
    simServers > 0
      ? startSimulator({
          linkUrl,
          servers: demo.servers.slice(0, simServers).map((s, i) => ({
            accessKey: s.accessKey,
            name: s.name,
            ...(rconBase > 0 ? { rcon: { port: rconBase + i, password: rconPassword, host } } : {}),
          })),
          tickMs: intEnv('PALISADE_SIM_TICK_MS', 3000),
        })
      : null;

  console.log(`Palisade is running at ${server.config.publicUrl}`);
  console.log(`Sign in with ${email} / ${password} (moderator: ${demo.moderator.email}, same password)`);
  console.log(
    db.embedded ? `Database: PostgreSQL, embedded (${dataDir})` : 'Database: PostgreSQL (DATABASE_URL)',
  );
  if (sim) console.log(`Simulating ${simServers} game server${simServers === 1 ? '' : 's'}`);
  const bot =
    simServers > 0 ? playCommunityBot({ apiUrl: server.url, token: server.config.chatBotToken }) : null;
  if (sim && rconBase > 0)
    console.log(
      `Simulated RCON: ${host} ports ${rconBase}–${rconBase + simServers - 1}, password ${rconPassword}`,
    );

  // Only the browser tests set this: they restart a simulated server's RCON side mid-test.
  const controlPort = intEnv('PALISADE_SIM_CONTROL_PORT', 0);
  const closeControl = sim && controlPort > 0 ? await startSimControl(sim, controlPort) : null;

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping…`);
    try {
      bot?.stop();
      await closeControl?.();
      await sim?.stop();
      await server.close();
      await db.embedded?.stop();
      process.exit(0);
    } catch (e) {
      console.error('Shutdown failed:', e);
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  // Started by scripts/start.mjs, which is gone when its channel closes.
  if (process.channel) {
    process.channel.unref();
    process.on('disconnect', () => void stop('npm start ended'));
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
