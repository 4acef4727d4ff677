// JSON shapes of Sentinel v4 (SENTINEL-API §3, §4), as the server sends them and the console reads them.

import type { LinkRefusal } from './billing.ts';
import type { ApiColor, DinoStatus, EventName, LogLevel, LogType } from './enums.ts';
import type { GameKind } from './gameIds.ts';

export interface Page<T> {
  totalResults: number;
  pageSize: number;
  pages: number;
  page: number;
  results: T[];
  /** Ours (docs/api.md): set when totalResults is the planner's estimate, past 10,000 matches. */
  totalIsEstimate?: true;
}

export interface BulkResult<T> {
  created: T[];
  updated: T[];
}

export interface TokenResponse {
  token_type: 'Bearer';
  access_token: string;
  refresh_token: string;
  access_token_expiration: number;
  refresh_token_expiration: number;
  access_token_expires_in: number;
  refresh_token_expires_in: number;
  /** RFC 6749 §5.1: whole seconds the access token lives (ours sends it; the provider does not). */
  expires_in?: number;
  scope: string;
  now: number;
}

export interface Subscription {
  subscriptionId: string;
  productId: string;
  productName: string;
  productGameId: string;
  productFlags: number;
  created: number;
  expiration: number;
  lastPurchaseId: string | null;
  unitsUsed: number;
  unitsAllowed: number;
}

export interface User {
  userId: string;
  username: string;
  usernameFull: string;
  isAnonymous: boolean;
  publicKey: string;
  banned: boolean;
  signature: string | null;
  licenses: unknown[];
  subscriptions: Subscription[];
  email?: string;
}

export interface SessionInfo {
  accessToken: string;
  refreshToken: string;
  accessTokenExpiration: number;
  refreshTokenExpiration: number;
  userId: string;
  application: { id: string; name: string; website: string };
  scopes: string[];
}

/** How far back a server's history (log lines, chat, sessions, activity) goes. */
export interface ServiceHistory {
  serviceId: string;
  /** Days kept: the owner's plan's (docs/billing.md "Retention"), or the operator's setting. */
  days: number;
  /** Epoch seconds: the oldest moment still kept. */
  since: number;
}

export interface Service {
  serviceId: string;
  userId: string;
  gameId: 'Ark' | 'ArkSA';
  /** Only for the owner and holders of EditServices; null for everyone else. */
  accessKey: string | null;
  accessKeyHash: string;
  isConnected: boolean;
  connectionChangeTime: number | null;
  name: string;
  nickname: string | null;
  displayName: string;
  miniName: string | null;
  miniDisplayName: string;
  color: ApiColor;
  platform: string;
  gameSpecific: Record<string, unknown>;
  gameClock: number;
  currentPlayers: number;
  maxPlayers: number;
  languages: string[];
  clusterId: string;
  allowClusterIdChange: boolean;
  permissions: number;
  rconConnected: boolean;
  ipAddress: string;
  usesGroupChat: boolean;
  difficulty: number;
  kickUntrackedPlayers: boolean;
  /** How the server reaches Palisade: the Sentinel mod's link, or RCON that Palisade polls. */
  connectionKind: ConnectionKind;
  /** Where its RCON listens: for the owner and editors only (null for everyone else, and for link servers). */
  rconHost: string | null;
  rconPort: number | null;
  /** Whether an RCON password is stored. The password itself is write-only: never returned. */
  rconPasswordSet: boolean;
  /** Why the last RCON attempt failed ("RCON error"); null when connected or never tried. */
  rconError: string | null;
  /**
   * Which ARK an RCON server runs, so which player ids its commands take: as set by an admin
   * (`rconGame`), else as its answers showed; null until known. A linked server runs Ascended.
   */
  gameKind: GameKind | null;
  /** What an admin set, null to detect it from the server's answers. */
  rconGame: GameKind | null;
  /** Why the game-server link last refused it (the owner's subscription, SPEC §4); null once it connects. */
  linkRefusal: LinkRefusal | null;
}

/** What server.add sends: the spec's required fields, and how the server connects. */
export interface NewService {
  gameId: Service['gameId'];
  name: string;
  platform: string;
  languages: string[];
  connectionKind: ConnectionKind;
  rconHost?: string;
  rconPort?: number;
  /** Write-only. */
  rconPassword?: string;
}

/** What a PATCH of a service may carry: its fields, and the RCON password (write-only). */
export type ServicePatch = Partial<Service> & Pick<NewService, 'rconPassword'>;

export const GAME_KINDS = ['evolved', 'ascended'] as const satisfies readonly GameKind[];

export const CONNECTION_KINDS = ['link', 'rcon'] as const;
export type ConnectionKind = (typeof CONNECTION_KINDS)[number];

/** Fields a PATCH may change (SENTINEL-API §3.1 "editable"). */
export const SERVICE_EDITABLE = [
  'nickname',
  'miniName',
  'color',
  'gameSpecific',
  'languages',
  'allowClusterIdChange',
  'kickUntrackedPlayers',
] as const;

export interface Group {
  groupId: string;
  userId: string;
  name: string;
  color: ApiColor;
  permissions: number;
  enableGroupChat: boolean;
  discordInviteCode: string | null;
  discordLinkCode: string | null;
  discordGuildId: string | null;
  discordGuildName: string | null;
  discordChatChannelId: string | null;
  discordChatChannelName: string | null;
  isClusterGroup: boolean;
  /** Members without two-factor sign-in keep read access only (docs/api.md "Access"). */
  requireTwoFactor?: boolean;
}

export interface LogMessage {
  messageId: string;
  serviceId: string;
  serviceDisplayName: string;
  serviceMiniDisplayName: string;
  eventName: EventName;
  type: LogType;
  time: number;
  level: LogLevel;
  analyzerStatus: 'Skipped' | 'Pending' | 'Analyzed';
  metadata: Record<string, unknown>;
  message: string;
}

export interface Player {
  playerId: string;
  playerName: string;
  permissions: number;
}

export interface Character {
  characterId: string;
  characterName: string;
  specimenId: number;
  playerId: string;
  playerName: string;
  serviceId: string;
  serviceDisplayName: string;
  serviceColor: ApiColor;
  tribeId: string | null;
  tribeName: string | null;
  permissions: number;
}

export interface Tribe {
  tribeId: string;
  tribeName: string;
  tribeNumber: number;
  serviceId: string;
  serviceDisplayName: string;
  serviceColor: ApiColor;
  permissions: number;
}

export interface Dino {
  dinoId: string;
  dinoNumber: string;
  dinoNumber64: string;
  dinoName: string;
  dinoNameTag: string;
  dinoDisplayName: string;
  dinoSpecies: string;
  dinoSpeciesPath: string;
  dinoLevel: number;
  dinoAge: number;
  dinoIsDead: boolean;
  dinoIsFrozen: boolean;
  dinoIsUploaded: boolean;
  dinoRestoreEligible: boolean;
  dinoStatus: DinoStatus;
  dinoGender: 'None' | 'Female' | 'Male';
  dinoHasGender: boolean;
  dinoIsFemale: boolean;
  /** Ours: the six regions' colour ids as the game last reported them; empty until it has. */
  dinoColors: number[];
  permissions: number;
  serviceId: string;
  serviceDisplayName: string;
  serviceColor: ApiColor;
  tribeId: string | null;
  tribeName: string | null;
}

export interface Bucket {
  bucketId: string;
  userId: string;
  username: string;
  usernameFull: string;
  name: string;
  permissions: number;
}

export interface Script {
  scriptId: string;
  userId: string;
  name: string;
  preview: string;
  description: string;
  dateCreated: number;
  dateModified: number;
  communityStatus: string;
  permissions: number;
  /** Of the latest revision: Approved, Probation, Needs Review or Rejected (SPEC §4 script status). */
  approvalStatus: string;
  latestRevisionId: string | null;
  communityRating: number | null;
  communityAverage: number | null;
  communityVotes: number;
  parameters: ScriptParameter[];
  commonJavascript: string;
  events: ScriptEventInfo[];
}

/** A value an attachment gives the script (SPEC §3: name, type, default). */
export interface ScriptParameter {
  name: string;
  type: 'String' | 'Number' | 'Boolean';
  default: unknown;
}

/** One handler of a script's latest revision. */
export interface ScriptEventInfo {
  scriptEventId: string;
  language: 'Simple' | 'JavaScript';
  context: string;
  code: string;
  keyword: string | null;
  arguments: ScriptArgument[] | null;
}

/** Realtime events on top of SENTINEL-API §5, named in docs/api.md. */
export const RealtimeEvent = {
  serviceUpdated: 'serviceUpdated',
  servicesUpdated: 'servicesUpdated',
  userUpdated: 'userUpdated',
  logsUpdated: 'logsUpdated',
  logMessage: 'logMessage',
  /** `{messageId, serviceId}`: a line went away (a disconnect undone by a quick reconnect). */
  logMessageRemoved: 'logMessageRemoved',
  chatMessage: 'chatMessage',
  statusUpdated: 'statusUpdated',
} as const;

export const channelFor = (
  kind: 'services' | 'groups' | 'players' | 'characters' | 'tribes' | 'dinos' | 'buckets' | 'scripts',
  id: string,
) => `private-sentinel.${kind}.${id}`;
export const userChannel = (userId: string) => `private-users.${userId}`;

/**
 * Results of actions that reach the game (locate, editDino, giveItem, giveDino, restore): the
 * request answers `{requestId}` at once, the result arrives later on the service's channel and the
 * requester's user channel.
 */
export const ActionEvent = {
  locateResult: 'locateResult',
  requestCompleted: 'requestCompleted',
  /** `{requestId, lines}`: what a script under test has written so far, before it ends. */
  scriptTestOutput: 'scriptTestOutput',
} as const;

export interface LocateResult {
  requestId: string;
  found: boolean;
  x: number | null;
  y: number | null;
  z: number | null;
  lat: number | null;
  lon: number | null;
}

export interface RequestCompleted {
  requestId: string;
  ok: boolean;
  error?: string;
}

/** Group membership and the member's bits in the group (§3.3). */
export interface GroupUser {
  groupUserId: string;
  groupId: string;
  groupName: string;
  groupColor: ApiColor;
  groupOwnerId: string;
  userId: string;
  username: string;
  usernameFull: string;
  permissions: number;
  /** The role the member holds (its bits are `permissions`), or null for bits set by hand. */
  roleId?: string | null;
  roleName?: string | null;
  /** The group requires two-factor sign-in the member has not turned on: read only until then. */
  readOnlyUntilTwoFactor?: boolean;
}

/** A server in a group, with the bits the group grants on it (§3.4). */
export interface GroupService {
  groupServiceId: string;
  groupId: string;
  groupName: string;
  groupColor: ApiColor;
  groupPermissions: number;
  serviceId: string;
  serviceDisplayName: string;
  serviceColor: ApiColor;
  permissionsMask: number;
}

/** A bucket in a group (§3.5). */
export interface GroupBucket {
  groupBucketId: string;
  groupId: string;
  groupName: string;
  groupColor: ApiColor;
  bucketId: string;
  bucketName: string;
  permissionsMask: number;
}

/** What an attachment of a script to a server or group says of it (§3.6), with its status (§4). */
export interface ScriptLink {
  scriptId: string;
  scriptName: string;
  /** Of the script's latest revision, and the script's in the Workshop: its status badge. */
  approvalStatus: string;
  communityStatus: string;
  parameterValues: Record<string, unknown>;
  /** Pinned revision; null follows the latest approved one. */
  revisionId: string | null;
  /**
   * Kept updated with someone else's script: the newest version its attacher accepted (it runs
   * nothing newer), and a newer one waiting for their accept; null otherwise.
   */
  acceptedRevisionId: string | null;
  pendingRevisionId: string | null;
  /** Whether the attachment has a webhook of its own (its URL and secret are shown when made). */
  hasWebhook: boolean;
  /** The contexts the version it runs handles, each once. */
  contexts: string[];
  revisionDate: number | null;
  origin: 'Direct' | 'Community';
}

/** A script attached to a group (§3.6). */
export interface GroupScript extends ScriptLink {
  groupScriptId: string;
  groupId: string;
  permissionsMask: number;
}

/** A script attached to a server (§3.6). */
export interface ServiceScript extends ScriptLink {
  serviceScriptId: string;
  serviceId: string;
  serviceDisplayName: string;
  serviceColor: ApiColor;
}

/** Who has access to a server, with their resolved bits (§3.15). */
export interface ServiceUser {
  serviceUserId: string;
  serviceId: string;
  serviceDisplayName: string;
  userId: string;
  username: string;
  usernameFull: string;
  permissions: number;
}

/** A value in a bucket: global (playerId null) or per player (§3.12). */
export interface BucketValue {
  bucketValueId: string;
  bucketId: string;
  bucketName: string;
  playerId: string | null;
  playerName: string | null;
  key: string;
  value: string;
}

/** A shared script as the community sees it (§3.13). */
export interface CommunityScript extends Script {
  username: string;
  usernameFull: string;
  liked: boolean | null;
}

/** A script test run (§3.13). */
export interface ScriptTest {
  requestId: string;
  scriptData: string;
  userId: string;
  queueTime: number;
  completionTime: number | null;
  output: string | null;
  pending: boolean;
}

/** One argument a manual script or a script event asks for. */
export interface ScriptArgument {
  name: string;
  type: string;
  default: unknown;
  required: boolean;
}

/** Manual-script contexts of `scriptMenuItems` (§2.3). */
export type ScriptRunContext = 'characterScriptRun' | 'dinoScriptRun' | 'serviceScriptRun' | 'tribeScriptRun';

export interface ScriptMenuItem {
  menuText: string;
  scriptEventId: string;
  arguments: ScriptArgument[];
}

export interface ScriptRevision {
  revisionId: string;
  dateCreated: number;
  approvalStatus: string;
}

/** One revision's content: what changed between two is read from these. */
export interface ScriptRevisionContent extends ScriptRevision {
  commonJavascript: string;
  parameters: ScriptParameter[];
  events: { context: string; keyword: string | null; language: string; code: string }[];
}

export interface DiscordChannel {
  channelId: string;
  name: string;
  type: number;
  parentChannelId: string | null;
}

/** What an action that reaches the game answers at once; the result follows on a channel. */
export interface RequestReceipt {
  requestId: string;
}
