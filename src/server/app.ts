// The reference Sentinel v4 server: HTTP API, OAuth, Pusher-protocol realtime, the game-server
// link and the built console, on one port.

import { randomBytes } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import type { Hono } from 'hono';
import {
  ACCESS_TOKEN_SECONDS,
  AUTH_CODE_SECONDS,
  AUTH_FLOW_SECONDS,
  REFRESH_TOKEN_SECONDS,
} from '../domain/constants.ts';
import { DEFAULT_PLAN_CONFIG, type PlanConfig } from '../domain/plans.ts';
import { type SiteLink, type SiteLinks, siteLinkProblem } from '../domain/siteLinks.ts';
import { trailedDb } from './activity/trail.ts';
import { type AlertOptions, type Alerts, createAlerts } from './alerts/engine.ts';
import { billingTick } from './billing/limits.ts';
import { type PaymentProcessor, referenceProcessor } from './billing/processor.ts';
import { type Bus, createPgBus } from './cluster/bus.ts';
import { joinCluster, sharedSecret } from './cluster/nodes.ts';
import type { Links, ServerConfig, ServerContext, TokenLifetimes } from './context.ts';
import { type Db, openDb } from './db/db.ts';
import { migrate } from './db/migrate.ts';
import { ensureComingWeeks, retentionTick } from './db/retention.ts';
import { createLinkServer, type LinkTimings } from './game/link/linkServer.ts';
import { combinedLinks } from './game/links.ts';
import { createRconConnector, type RconConnector, type RconTimings } from './game/rcon/connector.ts';
import { type RconWorker, startRconWorker, type WorkerOptions } from './game/rcon/worker.ts';
import { readText } from './http/body.ts';
import { createCallers } from './http/callers.ts';
import { createApiRouter, type Env } from './http/router.ts';
import { CONSOLE_APP_ID, ensureConsoleApplication } from './model/application.ts';
import { sweepExpiredAuth } from './model/authSweep.ts';
import { sharedReadCache } from './model/readCache.ts';
import { parseAllowList } from './net/outbound.ts';
import { followAccess } from './realtime/access.ts';
import { clusteredPublisher } from './realtime/clustered.ts';
import { createPusherHttpPublisher, type Publisher } from './realtime/publisher.ts';
import { createPusherServer } from './realtime/pusherServer.ts';
import { registerAccountRoutes } from './routes/account.ts';
import { registerActivityRoutes } from './routes/activity.ts';
import { registerAlertDestinationRoutes } from './routes/alertDestinations.ts';
import { registerAlertRuleRoutes } from './routes/alertRules.ts';
import { registerApiReferenceRoutes } from './routes/apiReference.ts';
import { registerAttachmentWebhookRoutes } from './routes/attachmentWebhooks.ts';
import { registerBanListRoutes } from './routes/banList.ts';
import { registerBanRoutes } from './routes/bans.ts';
import { registerBillingRoutes } from './routes/billing.ts';
import { registerBucketRoutes } from './routes/buckets.ts';
import { registerCharacterActionRoutes } from './routes/characterActions.ts';
import { registerChatRoutes } from './routes/chat.ts';
import { registerChatBotRoutes } from './routes/chatBot.ts';
import { registerConsoleRoutes } from './routes/console.ts';
import { registerDinoActionRoutes } from './routes/dinoActions.ts';
import { registerDiscordRoutes } from './routes/discord.ts';
import { registerGameCommandRoutes } from './routes/gameCommands.ts';
import { registerGroupRoleRoutes } from './routes/groupRoles.ts';
import { registerGroupRoutes } from './routes/groups.ts';
import { registerGroupWatchlistRoutes } from './routes/groupWatchlist.ts';
import { registerLoginRoutes } from './routes/login.ts';
import { registerLogMessageRoutes } from './routes/logMessages.ts';
import { registerNotificationRoutes } from './routes/notifications.ts';
import { registerPlayerFlagRoutes } from './routes/playerFlags.ts';
import { registerPlayerNoteRoutes } from './routes/playerNotes.ts';
import { registerPlayerSessionRoutes } from './routes/playerSessions.ts';
import { registerPlayerRoutes } from './routes/players.ts';
import { registerPusherRoutes } from './routes/pusher.ts';
import { registerScriptReviewRoutes } from './routes/scriptReview.ts';
import { registerScriptRoutes } from './routes/scripts.ts';
import { registerScriptWebhookRoutes } from './routes/scriptWebhooks.ts';
import { registerServiceScriptRoutes } from './routes/serviceScripts.ts';
import { registerServiceRoutes } from './routes/services.ts';
import { registerServiceUserRoutes } from './routes/serviceUsers.ts';
import { registerTokenRoutes } from './routes/token.ts';
import { registerUserRoutes } from './routes/users.ts';
import { registerWebhookRoutes } from './routes/webhook.ts';
import { registerWorldRoutes } from './routes/world.ts';
import { createScriptEngine, type EngineOptions, type ScriptEngine } from './scripts/engine.ts';

/** An external Pusher (Channels or compatible) to publish to instead of the built-in endpoint. */
export interface ExternalPusher {
  appId: string;
  key: string;
  secret: string;
  host: string;
  port?: number;
  useTLS?: boolean;
  cluster?: string;
}

export interface CreateServerOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  /** postgres://…: the embedded server (db/embedded.ts) or the operator's DATABASE_URL. */
  databaseUrl: string;
  /** A schema of its own (tests use one per file). */
  dbSchema?: string;
  /** The built console; default `dist`. */
  staticDir?: string;
  /** The origin browsers use; default the listening address. */
  publicUrl?: string;
  tokenLifetimes?: Partial<TokenLifetimes>;
  /** Requests per minute per user:application and per anonymous IP; default 600. */
  rateLimit?: number;
  pusher?: ExternalPusher;
  linkTimings?: Partial<LinkTimings>;
  rconTimings?: Partial<RconTimings>;
  /**
   * Seals RCON passwords at rest (PALISADE_RCON_KEY). Unset, a key made once and kept in the
   * database is used, which protects nothing against a copy of the database.
   */
  rconKey?: string;
  controlPanelUrl?: string;
  /** The chat community bot's token; default one made once and kept in the database. */
  chatBotToken?: string;
  /** How often expired sign-in flows, sessions and the like are deleted; default one minute. */
  authSweepMs?: number;
  scripts?: EngineOptions;
  /** Emails of the admins who review scripts. */
  scriptReviewers?: string[];
  /** The public site's links off the site; the console uses the provider's pages for those not set. */
  siteLinks?: Partial<SiteLinks>;
  /** Plan prices and limits; each unset field keeps DEFAULT_PLAN_CONFIG's. */
  plans?: Partial<PlanConfig>;
  /** Look up a mail exchanger for a trial's email domain (needs DNS); default off. */
  emailMx?: boolean;
  /** A payment processor's adapter (docs/billing.md); default the reference processor. */
  paymentProcessor?: (db: Db, publicUrl: string) => PaymentProcessor;
  /** How often due plans are renewed and expired ones' links dropped; default one minute. */
  billingTickMs?: number;
  /**
   * Days of history (log lines, chat, sessions, activity) kept for every owner, whatever their
   * plan (PALISADE_RETENTION_DAYS, for a self-hosted install); unset, each owner's plan decides.
   */
  retentionDays?: number;
  /**
   * Addresses or ranges (CIDR) of this machine's networks that users may point RCON hosts and
   * script requests at (PALISADE_OUTBOUND_ALLOW); none by default (net/outbound.ts).
   */
  outboundAllow?: string[];
  /** How often the coming days' log partitions are made and expired history removed; default an hour. */
  retentionTickMs?: number;
  /**
   * Hold the RCON connections in a worker thread, another node of the cluster
   * (rcon/worker.ts), so that polling many servers never holds up a request on this thread.
   */
  rconWorker?: boolean;
  /** The mail relay (PALISADE_SMTP_URL, PALISADE_MAIL_FROM) and the alerts' timers (alerts/engine.ts). */
  alerts?: AlertOptions;
}

export interface RunningServer {
  url: string;
  /** The HTTP routes, for calling in process (tests) and listing them. */
  app: Hono<Env>;
  port: number;
  db: Db;
  links: Links;
  rcon: RconConnector;
  publisher: Publisher;
  config: ServerConfig;
  scripts: ScriptEngine;
  /** Alert rules and deliveries: a tick now, or waiting until what was handed over is done (tests). */
  alerts: Pick<Alerts, 'tick' | 'settle'>;
  /** Runs the billing job now (renewals, expiries, the server limit), as its timer would at `now`. */
  billingTick(now?: Date): Promise<void>;
  close(): Promise<void>;
}

export const DEFAULT_RATE_LIMIT = 600;
const AUTH_SWEEP_MS = 60_000;
const BILLING_TICK_MS = 60_000;
const RETENTION_TICK_MS = 3_600_000;

/**
 * Runs job every ms, one at a time: a tick while one still runs is skipped, so the returned stop
 * waits for the only one.
 */
function periodic(ms: number, label: string, job: () => Promise<unknown>): () => Promise<void> {
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    running ??= job()
      .catch((e) => console.error(`${label} failed:`, (e as Error).message))
      .finally(() => {
        running = null;
      });
  }, ms);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}

/** The configured links, refused at start-up when one could not be followed. */
function checkedSiteLinks(links: Partial<SiteLinks>): Partial<SiteLinks> {
  const set = Object.entries(links).filter(([, v]) => v !== undefined && v !== '') as [SiteLink, string][];
  const problems = set.map(([k, v]) => siteLinkProblem(k, v)).filter((p) => p !== null);
  if (problems.length > 0) throw new Error(problems.join(' '));
  return Object.fromEntries(set);
}

/** Realtime must never fail a request whose change is already committed. */
function forgiving(publisher: Publisher): Publisher {
  return {
    inOrder: publisher.inOrder,
    async publish(channels, event, data, exceptSocketId) {
      try {
        await publisher.publish(channels, event, data, exceptSocketId);
      } catch (e) {
        console.error(`realtime: publishing ${event} failed:`, (e as Error).message);
      }
    },
  };
}

/** How often a process whose RCON worker has not started checks whether a server now needs it. */
const RCON_WORKER_CHECK_MS = 10_000;

/**
 * The RCON worker, started the first time a server uses RCON: its thread and second server cost
 * about 110 MiB, which an install without RCON servers never needs (issue 32's memory figure).
 */
function lazyRconWorker(db: Db, options: WorkerOptions) {
  let worker: RconWorker | null = null;
  let starting: Promise<RconWorker | null> | null = null;
  const needed = async () =>
    (
      await db.query<{ yes: boolean }>(
        "SELECT EXISTS (SELECT 1 FROM services WHERE connection_kind = 'rcon' AND NOT deleted) AS yes",
      )
    ).rows[0]!.yes;
  const ensure = (): Promise<RconWorker | null> => {
    if (worker) return Promise.resolve(worker);
    starting ??= (async () => {
      try {
        if (await needed()) worker = await startRconWorker(options);
        return worker;
      } finally {
        starting = null;
      }
    })();
    return starting;
  };
  return {
    ensure,
    async close() {
      await starting?.catch(() => null);
      await worker?.close();
    },
  };
}

/** This server's options for its RCON worker's: what a thread can be handed, holding the leases itself. */
function workerOptions(opts: CreateServerOptions): WorkerOptions {
  const { paymentProcessor: _processor, port: _port, host: _host, rconWorker: _worker, ...rest } = opts;
  return { ...rest, staticDir: '/nonexistent' };
}

export async function createServer(opts: CreateServerOptions): Promise<RunningServer> {
  const siteLinks = checkedSiteLinks(opts.siteLinks ?? {});
  const db = await openDb({ databaseUrl: opts.databaseUrl, schema: opts.dbSchema });
  let bus: Bus | null = null;
  try {
    await migrate(db);
    await ensureComingWeeks(db);
    // Other processes on the same PostgreSQL hear this one over LISTEN/NOTIFY (docs/api.md "Scale-out").
    // The link server sweeps the links of processes that stopped (a restart's predecessor too).
    bus = await createPgBus({ databaseUrl: opts.databaseUrl, schema: opts.dbSchema, db });
  } catch (e) {
    await bus?.close();
    await db.close();
    throw e;
  }
  const node = await joinCluster(db, bus.nodeId);

  const host = opts.host ?? '127.0.0.1';
  // Listening comes first, as the port names the server, but the routes come later: until then a
  // request is told to come back (a request nobody answers waits for ever, as a browser test's
  // readiness check did).
  const starting = (_req: IncomingMessage, res: ServerResponse) => {
    res
      .writeHead(503, { 'Retry-After': '1', 'Content-Type': 'text/plain' })
      .end('Starting; try again in a second.');
  };
  const httpServer = createHttpServer(starting);
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(opts.port ?? 0, host, () => resolve());
  });
  const port = (httpServer.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const publicUrl = (opts.publicUrl ?? url).replace(/\/$/, '');
  const publicOrigin = new URL(publicUrl);

  // The built-in endpoint's secret signs channel auth that any process may be asked to check.
  const creds = opts.pusher ?? {
    appId: 'palisade',
    key: 'palisade',
    secret: await sharedSecret(db, 'pusher', () => randomBytes(24).toString('base64url')),
  };
  const builtIn = opts.pusher ? null : createPusherServer(creds);
  const publisher = forgiving(
    builtIn ? clusteredPublisher(builtIn.publisher, bus) : createPusherHttpPublisher(opts.pusher!),
  );
  const secure = publicOrigin.protocol === 'https:';
  const config: ServerConfig = {
    publicUrl,
    clientId: CONSOLE_APP_ID,
    tokenLifetimes: {
      access: ACCESS_TOKEN_SECONDS,
      refresh: REFRESH_TOKEN_SECONDS,
      code: AUTH_CODE_SECONDS,
      flow: AUTH_FLOW_SECONDS,
      ...opts.tokenLifetimes,
    },
    rateLimit: opts.rateLimit ?? DEFAULT_RATE_LIMIT,
    pusher: {
      appId: creds.appId,
      key: creds.key,
      secret: creds.secret,
      builtIn: builtIn !== null,
      client: opts.pusher
        ? {
            key: opts.pusher.key,
            cluster: opts.pusher.cluster ?? 'mt1',
            wsHost: opts.pusher.host,
            wsPort: opts.pusher.port ?? (opts.pusher.useTLS ? 443 : 80),
            forceTLS: opts.pusher.useTLS ?? false,
          }
        : {
            key: 'palisade',
            cluster: 'mt1',
            wsHost: publicOrigin.hostname,
            wsPort: Number(publicOrigin.port) || (secure ? 443 : 80),
            forceTLS: secure,
          },
    },
    controlPanelUrl: opts.controlPanelUrl ?? `${publicUrl}/servers`,
    chatBotToken:
      opts.chatBotToken ?? (await sharedSecret(db, 'chatBot', () => randomBytes(24).toString('base64url'))),
    scriptReviewers: (opts.scriptReviewers ?? []).map((e) => e.toLowerCase()),
    rconKey: opts.rconKey ?? (await sharedSecret(db, 'rconKey', () => randomBytes(32).toString('base64url'))),
    siteLinks,
    plans: { ...DEFAULT_PLAN_CONFIG, ...opts.plans },
    emailMx: opts.emailMx ?? false,
    retention: { days: opts.retentionDays },
    outboundAllow: parseAllowList(opts.outboundAllow ?? []),
  };
  await ensureConsoleApplication(db, publicUrl, config.rateLimit);

  const ctx: ServerContext = {
    // Routes' transactions also write the activity trail's entry of the request they serve.
    db: trailedDb(db),
    config,
    publisher,
    links: null as unknown as Links,
    callers: createCallers(db, bus),
    scripts: null as unknown as ScriptEngine,
    alerts: null as unknown as Alerts,
    reads: sharedReadCache(bus),
    billing: (opts.paymentProcessor ?? referenceProcessor)(db, publicUrl),
    accessNarrowed: followAccess(db, bus, builtIn),
  };
  const linkServer = createLinkServer(ctx, bus, opts.linkTimings);
  const inWorker = opts.rconWorker === true;
  const connector = createRconConnector(ctx, bus, opts.rconTimings, !inWorker);
  const rconWorker = inWorker ? lazyRconWorker(db, workerOptions(opts)) : null;
  await rconWorker?.ensure();
  const rcon: RconConnector = rconWorker
    ? {
        ...connector,
        renew: async () => (await rconWorker.ensure())?.renew(),
        close: async () => {
          await connector.close();
          await rconWorker.close();
        },
      }
    : connector;
  ctx.links = combinedLinks(ctx, linkServer, rcon);
  ctx.scripts = createScriptEngine(ctx, opts.scripts);
  ctx.alerts = createAlerts(ctx, opts.alerts);

  const router = createApiRouter(ctx);
  registerLoginRoutes(router, ctx);
  registerTokenRoutes(router, ctx);
  registerUserRoutes(router, ctx);
  registerAccountRoutes(router, ctx);
  registerGroupRoleRoutes(router, ctx);
  registerPusherRoutes(router, ctx);
  registerServiceRoutes(router, ctx);
  registerLogMessageRoutes(router, ctx);
  registerPlayerRoutes(router, ctx);
  registerPlayerNoteRoutes(router, ctx);
  registerPlayerFlagRoutes(router, ctx);
  registerGroupWatchlistRoutes(router, ctx);
  registerPlayerSessionRoutes(router, ctx);
  registerBanRoutes(router, ctx);
  registerBanListRoutes(router, ctx);
  registerGameCommandRoutes(router, ctx);
  registerChatRoutes(router, ctx);
  registerWorldRoutes(router, ctx);
  registerServiceUserRoutes(router, ctx);
  registerGroupRoutes(router, ctx);
  registerBucketRoutes(router, ctx);
  registerScriptReviewRoutes(router, ctx);
  registerScriptWebhookRoutes(router, ctx);
  registerAttachmentWebhookRoutes(router, ctx);
  registerScriptRoutes(router, ctx);
  registerServiceScriptRoutes(router, ctx);
  registerDinoActionRoutes(router, ctx);
  registerCharacterActionRoutes(router, ctx);
  registerWebhookRoutes(router, ctx);
  registerDiscordRoutes(router, ctx);
  registerChatBotRoutes(router, ctx);
  registerActivityRoutes(router, ctx);
  registerAlertRuleRoutes(router, ctx);
  registerAlertDestinationRoutes(router, ctx);
  registerNotificationRoutes(router, ctx);
  registerApiReferenceRoutes(router);
  registerBillingRoutes(router, ctx);
  if (builtIn) {
    // The Pusher HTTP API, so external tools (or a second process) can publish to our endpoint.
    router.app.post('/apps/:appId/:kind{events|batch_events}', async (c) => {
      const r = builtIn.handleHttpEvents(c.req.url, await readText(c));
      return c.json(r.body, r.status as 200);
    });
  }
  registerConsoleRoutes(router.app, config, opts.staticDir ?? 'dist');

  httpServer.off('request', starting);
  httpServer.on('request', getRequestListener(router.app.fetch));
  httpServer.on('upgrade', (req, socket, head) => {
    if (builtIn?.handleUpgrade(req, socket, head)) return;
    if (linkServer.handleUpgrade(req, socket, head)) return;
    socket.destroy();
  });

  const stopSweeping = periodic(opts.authSweepMs ?? AUTH_SWEEP_MS, 'auth sweep', () => sweepExpiredAuth(db));
  const stopBilling = periodic(opts.billingTickMs ?? BILLING_TICK_MS, 'billing', () => billingTick(ctx));
  const stopRetention = periodic(opts.retentionTickMs ?? RETENTION_TICK_MS, 'retention', () =>
    retentionTick(db, config.retention),
  );
  // A server switched to RCON through another process of the cluster starts the worker here too.
  const stopWorkerCheck = rconWorker
    ? periodic(RCON_WORKER_CHECK_MS, 'rcon worker', () => rconWorker.ensure())
    : async () => {};

  let closing: Promise<void> | null = null;
  return {
    url,
    app: router.app,
    port,
    db,
    links: ctx.links,
    rcon,
    publisher,
    config,
    scripts: ctx.scripts,
    alerts: ctx.alerts,
    billingTick: (now) => billingTick(ctx, now),
    close() {
      closing ??= (async () => {
        await stopSweeping();
        await stopBilling();
        await stopRetention();
        await stopWorkerCheck();
        // Runs waiting on the game end when the links close.
        await Promise.all([ctx.scripts.close(), rcon.close(), linkServer.close()]);
        await ctx.alerts.close();
        await builtIn?.close();
        await new Promise<void>((resolve) => {
          httpServer.close(() => resolve());
          httpServer.closeAllConnections();
        });
        await router.flushRateLimits();
        await node.leave();
        await bus.close();
        await db.close();
      })();
      return closing;
    },
  };
}
