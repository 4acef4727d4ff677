// What every route and the link endpoint share: the database, configuration, the realtime
// publisher and the live game-server links.

import type { PlanConfig } from '../domain/plans.ts';
import type { SiteLinks } from '../domain/siteLinks.ts';
import type { Alerts } from './alerts/engine.ts';
import type { PaymentProcessor } from './billing/processor.ts';
import type { Db } from './db/db.ts';
import type { RetentionConfig } from './db/retention.ts';
import type { Callers } from './http/callers.ts';
import type { ReadCache } from './model/readCache.ts';
import type { AllowList } from './net/outbound.ts';
import type { Publisher } from './realtime/publisher.ts';
import type { ScriptEngine } from './scripts/engine.ts';

/**
 * Why a service's link is closed from outside it: the service was deleted, its key rotated, or
 * its owner's subscription no longer allows it (billing/limits.ts).
 */
export type KickReason = 'deleted' | 'keyChanged' | 'subscription';

export interface TokenLifetimes {
  /** Seconds. Defaults: access 1 h, refresh 30 d, authorization code 5 min, flow 30 min (§4). */
  access: number;
  refresh: number;
  code: number;
  flow: number;
}

export interface PusherClientConfig {
  key: string;
  cluster: string;
  wsHost: string;
  wsPort: number;
  forceTLS: boolean;
}

export interface ServerConfig {
  /** Origin the browser reaches this server at, without a trailing slash. */
  publicUrl: string;
  /** The console's OAuth client id (the registered application). */
  clientId: string;
  tokenLifetimes: TokenLifetimes;
  /** Requests per minute per user:application (or per IP when anonymous). */
  rateLimit: number;
  /** builtIn: our own endpoint, which can take back a subscription (realtime/access.ts). */
  pusher: { appId: string; key: string; secret: string; client: PusherClientConfig; builtIn: boolean };
  controlPanelUrl: string;
  /** What the chat community's bot sends as `Authorization: Bot <token>` (docs/api.md "Chat community bot"). */
  chatBotToken: string;
  /** Emails of the admins who review scripts (SENTINEL-API §3.13). */
  scriptReviewers: string[];
  /** Seals RCON passwords at rest (PALISADE_RCON_KEY). */
  rconKey: string;
  /** The public site's links that were configured (served in /config.json). */
  siteLinks: Partial<SiteLinks>;
  /** Plan prices and limits (PALISADE_PLAN_*; domain/plans.ts). */
  plans: PlanConfig;
  /** Whether a trial's email domain must have a mail exchanger in DNS (PALISADE_EMAIL_MX). */
  emailMx: boolean;
  /** How long history is kept (PALISADE_RETENTION_DAYS, else by plan; db/retention.ts). */
  retention: RetentionConfig;
  /** Ranges of the server's own networks users may still point it at (PALISADE_OUTBOUND_ALLOW; net/outbound.ts). */
  outboundAllow: AllowList;
}

export interface Links {
  /** Sends a game command to a connected service; rejects with 412 serviceNotConnected otherwise. */
  sendCommand(serviceId: string, command: Record<string, unknown>): Promise<unknown>;
  isConnected(serviceId: string): boolean;
  /** Closes a service's link, telling the game why. */
  kick(serviceId: string, why: KickReason): void;
  /**
   * Refuses (throws the ApiException) a command the service's kind of connection cannot carry,
   * before anything is sent: RCON reaches the admin console only.
   */
  assertCanRun(serviceId: string, command: Record<string, unknown>): Promise<void>;
}

export interface ServerContext {
  db: Db;
  config: ServerConfig;
  publisher: Publisher;
  links: Links;
  callers: Callers;
  scripts: ScriptEngine;
  /** Answers the hot paths read per game event, kept until the next write (model/readCache.ts). */
  reads: ReadCache;
  /** Who takes the money (billing/processor.ts): the reference processor unless configured. */
  billing: PaymentProcessor;
  /** Alert rules held against stored lines, and the sending of what they raise (alerts/engine.ts). */
  alerts: Alerts;
  /** Says that someone's access may have narrowed: live subscriptions are checked again (realtime/access.ts). */
  accessNarrowed(): void;
}
