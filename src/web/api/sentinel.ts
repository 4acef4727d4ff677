// Typed calls of Sentinel v4 (SENTINEL-API.md): one function per route of §2.3 and one object per
// class path of §2.4. Paths are relative to `{api}/v4`. Each call names the error codes its caller
// may handle by name (the http helper turns any other into 'generic').

import type {
  AccountSecurity,
  ApiToken,
  GroupRole,
  ServiceAccess,
  SignIn,
  TokenAccess,
} from '../../domain/access.ts';
import { ACTIVITY_PATH, type ActivityEntry } from '../../domain/activity.ts';
import type {
  AlertDelivery,
  AlertDestination,
  AlertRule,
  AlertRulePatch,
  AppNotification,
  DestinationKind,
  NewAlertRule,
} from '../../domain/alerts.ts';
import type {
  Bucket,
  BucketValue,
  BulkResult,
  Character,
  CommunityScript,
  Dino,
  DiscordChannel,
  Group,
  GroupBucket,
  GroupScript,
  GroupService,
  GroupUser,
  LogMessage,
  NewService,
  Page,
  RequestReceipt,
  Script,
  ScriptMenuItem,
  ScriptRevision,
  ScriptRevisionContent,
  ScriptRunContext,
  ScriptTest,
  Service,
  ServiceHistory,
  ServicePatch,
  ServiceScript,
  ServiceUser,
  SessionInfo,
  TokenResponse,
  Tribe,
  User,
} from '../../domain/api.ts';
import { API_REFERENCE_PATH, type ApiReference } from '../../domain/apiReference.ts';
import { type BillingSession, PORTAL_ERRORS, TRIAL_ERRORS, type TrialRequest } from '../../domain/billing.ts';
import { REQUIRED_POLICIES } from '../../domain/constants.ts';
import type { PlayerFlag, WatchedPlayer } from '../../domain/flags.ts';
import type { GameCommandResponse, GameCommandType } from '../../domain/gameCommands.ts';
import type { LogVolume } from '../../domain/logVolume.ts';
import type { PlanConfig } from '../../domain/plans.ts';
import type {
  GroupBan,
  PlayerDetail,
  PlayerIdentifier,
  PlayerNameChange,
  PlayerNote,
  PlayerSession,
  ServiceBan,
} from '../../domain/players.ts';
import type { Population } from '../../domain/population.ts';
import type { Http, Query } from './http.ts';

export interface ListParams extends Query {
  page?: number;
  pageSize?: number;
  sortedColumn?: string;
  sortDirection?: 'ascending' | 'descending';
}

/** Write errors of the generic CRUD (§2.2). */
const WRITE_ERRORS = [
  'forbidden',
  'validation',
  'missingProperties',
  'nullValue',
  'notFound',
  'duplicate',
  'tooManyResources',
  'noObjects',
];

/** Codes of a ban write, ours on top of §2.2 (docs/api.md "Bans"). */
const BAN_ERRORS = [
  ...WRITE_ERRORS,
  'badPlayerId',
  'pieCharacter',
  'playerNotFound',
  'eosIdUnknown',
] as const;

/** Codes of a bucket or bucket value write, ours on top of §2.2 (docs/api.md "Buckets and values"). */
const BUCKET_ERRORS = [...WRITE_ERRORS, 'emptyName', 'invalidName'] as const;
const BUCKET_VALUE_ERRORS = [...WRITE_ERRORS, 'emptyKey', 'emptyValue', 'badPlayer'] as const;

/** Codes of `POST /sentinel/gameCommands` (§2.3), with ours for a server that is not connected. */
const GAME_COMMAND_ERRORS = [
  'notObjectOrArray',
  'noObjects',
  'nonObjectMember',
  'missingTargetId',
  'missingType',
  'badType',
  'missingProperties',
  'forbidden',
  'serviceNotConnected',
] as const;

/** Codes of a script save (SENTINEL-API §3.13, docs/api.md "Scripts and webhooks"), on top of §2.2. */
const SCRIPT_ERRORS = [
  ...WRITE_ERRORS,
  'emptyName',
  'nameNotUnique',
  'badContext',
  'badLanguage',
  'badCode',
  'emptyKeyword',
  'badArguments',
  'badCronExpression',
  'badParameters',
  'tooLong',
] as const;

/** Codes of a script test (SPEC §8 "Script tester"; tooManyTests ours, docs/api.md). */
const SCRIPT_TEST_ERRORS = [
  'testAlreadyRunning',
  'tooManyTests',
  'missingKeys',
  'unsupportedLanguage',
  'invalidContext',
  'badParameters',
] as const;

/** A webhook of a script (docs/api.md "Scripts and webhooks"); the secret only for its editors. */
export interface ScriptWebhook {
  webhookId: string;
  purpose: string;
  url: string;
  secret?: string;
}

/** A server or a group, the two targets of commands, chat and ban imports. */
export type Target = { serviceId: string } | { groupId: string };

export interface GameCommand extends Record<string, unknown> {
  type: GameCommandType;
}

/** Codes of the actions that reach the game through a character or a dino (§2.3). */
const GAME_ACTION_ERRORS = [
  'notFound',
  'serviceNotConnected',
  'restoreNotAvailable',
  'invalidDinoId',
  'invalidCharacterId',
  'characterNotSpecified',
  'noApprovedKeys',
  'missingKeys',
  'invalidQuantity',
  'invalidQuality',
  'invalidPath',
  'invalidStat',
  'badDinoPath',
  'invalidName',
  'invalidLevel',
  'invalidAge',
  'invalidImprint',
  'invalidGender',
  'invalidSterilized',
  'invalidColors',
  'invalidTraits',
  'invalidStats',
  'forbidden',
];

/** What a second-factor code can be refused for. */
const CODE_ERRORS = ['codeInvalid', 'codeMissing', 'tooManyCodes', 'totpNotStarted', 'totpOn', 'totpOff'];
/** What asking for the password again can be refused for. */
const PASSWORD_ERRORS = ['passwordMissing', 'passwordWrong', 'tooManyPasswords'];

export function createSentinelApi(http: Http) {
  const at = (path: string, id: string) => `${path}/${encodeURIComponent(id)}`;

  /** GET collection and item: every class path of §2.4 has them. */
  const readable = <T>(path: string) => ({
    list: (params: ListParams = {}, signal?: AbortSignal) =>
      http<Page<T>>('GET', path, { query: params, expect: ['forbidden'], signal }),
    get: (id: string) => http<T>('GET', at(path, id), { expect: ['objectNotFound', 'forbidden'] }),
  });

  /** The whole generic CRUD of §2.2, `errors` being the class's own write codes. */
  const writable = <T>(path: string, errors: readonly string[] = WRITE_ERRORS) => ({
    ...readable<T>(path),
    /** One object: created when it has no id, else merged into the existing one. */
    create: (object: Partial<T>) => http<BulkResult<T>>('POST', path, { body: object, expect: errors }),
    bulk: (objects: Partial<T>[]) => http<BulkResult<T>>('POST', path, { body: objects, expect: errors }),
    patch: (id: string, patch: Partial<T>) =>
      http<T>('PATCH', at(path, id), { body: patch, expect: [...errors, 'objectNotFound'] }),
    replace: (id: string, object: Partial<T>) =>
      http<T>('PUT', at(path, id), { body: object, expect: errors }),
    remove: (id: string) => http<true>('DELETE', at(path, id), { expect: ['forbidden'] }),
    removeMany: (ids: Partial<T>[]) => http<true>('DELETE', path, { body: ids, expect: ['forbidden'] }),
  });

  /** `bans.txt` of a server or a group: the game's ban list and its import (§2.3). */
  const banList = (target: Target) =>
    'serviceId' in target
      ? `/sentinel/services/${encodeURIComponent(target.serviceId)}/bans.txt`
      : `/sentinel/groups/${encodeURIComponent(target.groupId)}/bans.txt`;

  return {
    http,

    services: {
      ...writable<Service>('/sentinel/services'),
      /** Settings, and for the owner and editors where RCON connects and its write-only password. */
      patch: (id: string, patch: ServicePatch) =>
        http<Service>('PATCH', at('/sentinel/services', id), {
          body: patch,
          expect: [...WRITE_ERRORS, 'objectNotFound'],
        }),
      /** A new server (server.add); the RCON password goes in and is never read back. */
      add: (service: NewService) =>
        http<BulkResult<Service>>('POST', '/sentinel/services', { body: service, expect: WRITE_ERRORS }),
      /** A new access key (docs/api.md "Access keys"); the old one's link is closed. */
      regenerateKey: (serviceId: string) =>
        http<Service>('POST', `${at('/sentinel/services', serviceId)}/accessKey`, {
          expect: ['forbidden', 'objectNotFound'],
        }),
      /** How far back the server's history goes (its owner's plan). */
      history: (serviceId: string) =>
        http<ServiceHistory>('GET', `${at('/sentinel/services', serviceId)}/history`, {
          expect: ['objectNotFound'],
        }),
      /** Players on the server per step since a moment (docs/api.md "Population"). */
      population: (serviceId: string, since: number, step: number) =>
        http<Population>('GET', `${at('/sentinel/services', serviceId)}/population`, {
          query: { since: String(since), step: String(step) },
          expect: ['objectNotFound', 'validation'],
        }),
    },
    groups: writable<Group>('/sentinel/groups'),
    groupUsers: writable<GroupUser>('/sentinel/groupUsers'),
    groupServices: writable<GroupService>('/sentinel/groupServices'),
    groupBuckets: writable<GroupBucket>('/sentinel/groupBuckets'),
    groupScripts: writable<GroupScript>('/sentinel/groupScripts'),
    groupBans: writable<GroupBan>('/sentinel/groupBans', BAN_ERRORS),
    serviceBans: writable<ServiceBan>('/sentinel/serviceBans', BAN_ERRORS),
    serviceScripts: writable<ServiceScript>('/sentinel/serviceScripts'),
    serviceUsers: readable<ServiceUser>('/sentinel/serviceUsers'),
    characters: writable<Character>('/sentinel/characters'),
    tribes: writable<Tribe>('/sentinel/tribes'),
    dinos: writable<Dino>('/sentinel/dinos'),
    players: readable<PlayerDetail>('/sentinel/players'),
    playerIdentifiers: readable<PlayerIdentifier>('/sentinel/playerIdentifiers'),
    playerNameChanges: readable<PlayerNameChange>('/sentinel/playerNameChanges'),
    playerNotes: writable<PlayerNote>('/sentinel/playerNotes'),
    playerFlags: writable<PlayerFlag>('/sentinel/playerFlags'),
    /** A group's watchlist (docs/api.md "Group watchlists"): adding a player again changes why. */
    groupWatchlist: {
      ...readable<WatchedPlayer>('/sentinel/groupWatchlist'),
      add: (entry: { groupId: string; playerId: string; reason: string }) =>
        http<WatchedPlayer>('POST', '/sentinel/groupWatchlist', {
          body: entry,
          expect: ['validation', 'forbidden', 'notFound'],
        }),
      remove: (watchId: string) =>
        http<true>('DELETE', at('/sentinel/groupWatchlist', watchId), {
          expect: ['forbidden', 'objectNotFound'],
        }),
    },
    /** Role templates of a group and the built-in ones (docs/api.md "Roles"). */
    groupRoles: writable<GroupRole>('/sentinel/groupRoles', [...WRITE_ERRORS, 'builtInRole']),
    /** Where a user's bits on a server come from. */
    serviceAccess: (serviceId: string, userId?: string) =>
      http<ServiceAccess>('GET', `${at('/sentinel/services', serviceId)}/access`, {
        query: userId ? { userId } : {},
        expect: ['objectNotFound', 'forbidden'],
      }),
    /** The signed-in person's own security (docs/api.md "Access"): never an API token's. */
    account: {
      security: () => http<AccountSecurity>('GET', '/sentinel/account/security'),
      startTotp: () =>
        http<{ secret: string; uri: string }>('POST', '/sentinel/account/totp', { expect: ['totpOn'] }),
      confirmTotp: (code: string, password: string) =>
        http<{ backupCodes: string[]; signedOut: number }>('POST', '/sentinel/account/totp/confirm', {
          body: { code, password },
          expect: [...CODE_ERRORS, ...PASSWORD_ERRORS],
        }),
      disableTotp: (code: string) =>
        http<true>('DELETE', '/sentinel/account/totp', { body: { code }, expect: CODE_ERRORS }),
      passkeyOptions: (password: string) =>
        http<unknown>('POST', '/sentinel/account/passkeys/options', {
          body: { password },
          expect: ['tooManyPasskeys', ...PASSWORD_ERRORS],
        }),
      addPasskey: (name: string, response: unknown) =>
        http<{ passkeyId: string; name: string; backupCodes: string[] | null; signedOut: number }>(
          'POST',
          '/sentinel/account/passkeys',
          {
            body: { name, response },
            expect: ['validation', 'passkeyRefused'],
          },
        ),
      removePasskey: (passkeyId: string) =>
        http<true>('DELETE', at('/sentinel/account/passkeys', passkeyId), { expect: ['objectNotFound'] }),
      newBackupCodes: (code: string) =>
        http<{ backupCodes: string[] }>('POST', '/sentinel/account/backupCodes', {
          body: { code },
          expect: CODE_ERRORS,
        }),
    },
    /** The signed-in devices of the account. */
    signIns: {
      list: () => http<Page<SignIn>>('GET', '/sentinel/account/signIns'),
      end: (signInId: string) =>
        http<true>('DELETE', at('/sentinel/account/signIns', signInId), { expect: ['objectNotFound'] }),
    },
    apiTokens: {
      list: () => http<Page<ApiToken>>('GET', '/sentinel/apiTokens'),
      create: (t: {
        name: string;
        access: TokenAccess;
        serviceId?: string;
        groupId?: string;
        expiresInDays?: number;
      }) =>
        http<ApiToken>('POST', '/sentinel/apiTokens', {
          body: t,
          expect: ['validation', 'forbidden', 'tooManyTokens'],
        }),
      revoke: (tokenId: string) =>
        http<true>('DELETE', at('/sentinel/apiTokens', tokenId), { expect: ['objectNotFound'] }),
    },
    /** The caller's own alert rules (docs/api.md "Alerts"). */
    alertRules: {
      ...readable<AlertRule>('/sentinel/alertRules'),
      create: (rule: NewAlertRule) =>
        http<AlertRule>('POST', '/sentinel/alertRules', { body: rule, expect: ['validation'] }),
      patch: (id: string, patch: AlertRulePatch) =>
        http<AlertRule>('PATCH', at('/sentinel/alertRules', id), {
          body: patch,
          expect: ['validation', 'objectNotFound'],
        }),
      remove: (id: string) =>
        http<true>('DELETE', at('/sentinel/alertRules', id), { expect: ['objectNotFound'] }),
      test: (id: string) =>
        http<true>('POST', `${at('/sentinel/alertRules', id)}/test`, {
          expect: ['objectNotFound', 'tooManyRequests'],
        }),
    },
    alertDeliveries: readable<AlertDelivery>('/sentinel/alertDeliveries'),
    alertDestinations: {
      ...readable<AlertDestination>('/sentinel/alertDestinations'),
      create: (d: { name: string; kind: DestinationKind; address: string }) =>
        http<AlertDestination>('POST', '/sentinel/alertDestinations', { body: d, expect: ['validation'] }),
      patch: (id: string, patch: { name?: string; address?: string }) =>
        http<AlertDestination>('PATCH', at('/sentinel/alertDestinations', id), {
          body: patch,
          expect: ['validation', 'objectNotFound'],
        }),
      remove: (id: string) =>
        http<true>('DELETE', at('/sentinel/alertDestinations', id), { expect: ['objectNotFound'] }),
      test: (id: string) =>
        http<true>('POST', `${at('/sentinel/alertDestinations', id)}/test`, {
          expect: ['objectNotFound', 'validation', 'tooManyRequests'],
        }),
    },
    notifications: {
      ...readable<AppNotification>('/sentinel/notifications'),
      unread: () => http<{ count: number }>('GET', '/sentinel/notifications/unread'),
      markRead: (which: { notificationIds: string[] } | { all: true }) =>
        http<true>('POST', '/sentinel/notifications/read', { body: which, expect: ['validation'] }),
    },
    playerSessions: readable<PlayerSession>('/sentinel/playerSessions'),
    logMessages: {
      ...readable<LogMessage>('/sentinel/logMessages'),
      /** Lines per level per step under the list's filters (docs/api.md "Log volume"). */
      volume: (query: Query, signal?: AbortSignal) =>
        http<LogVolume>('GET', '/sentinel/logMessages/volume', { query, expect: ['validation'], signal }),
    },
    /** The activity trail of a server or group, or the caller's own (docs/api.md "Activity trail"). */
    activity: {
      list: (params: ListParams = {}) =>
        http<Page<ActivityEntry>>('GET', ACTIVITY_PATH, {
          query: params,
          expect: ['forbidden', 'validation'],
        }),
    },
    buckets: writable<Bucket>('/sentinel/buckets', BUCKET_ERRORS),
    bucketValues: writable<BucketValue>('/sentinel/bucketValues', BUCKET_VALUE_ERRORS),
    scripts: writable<Script>('/sentinel/scripts', SCRIPT_ERRORS),
    communityScripts: readable<CommunityScript>('/sentinel/communityScripts'),
    scriptTests: {
      ...readable<ScriptTest>('/sentinel/scriptTests'),
      /** Queues a test; its outcome is the test's `output` once `requestCompleted` names it. */
      create: (test: Record<string, unknown>) =>
        http<{ requestId: string }>('POST', '/sentinel/scriptTests', {
          body: test,
          expect: SCRIPT_TEST_ERRORS,
        }),
    },
    scriptWebhooks: {
      list: (scriptId: string) =>
        http<{ webhooks: ScriptWebhook[] }>('GET', `${at('/sentinel/scripts', scriptId)}/webhooks`, {
          expect: ['scriptNotFound'],
        }),
      create: (scriptId: string, purpose: string) =>
        http<ScriptWebhook>('POST', `${at('/sentinel/scripts', scriptId)}/webhooks`, {
          body: { purpose },
          expect: ['scriptNotFound', 'forbidden', 'badPurpose'],
        }),
      rotateSecret: (scriptId: string, webhookId: string) =>
        http<ScriptWebhook>(
          'POST',
          `${at('/sentinel/scripts', scriptId)}/webhooks/${encodeURIComponent(webhookId)}/secret`,
          { expect: ['scriptNotFound', 'forbidden', 'notFound'] },
        ),
    },

    gameCommands: (commands: (GameCommand & Target)[]) =>
      http<GameCommandResponse>('POST', '/sentinel/gameCommands', {
        body: commands,
        expect: GAME_COMMAND_ERRORS,
      }),
    chat: (message: { message: string; senderName?: string } & Target) =>
      http<true>('POST', '/sentinel/chat', {
        body: message,
        expect: ['missingMessage', 'missingTargetId', 'forbidden', 'serviceNotConnected'],
      }),
    banList: (serviceId: string) =>
      http<string>('GET', banList({ serviceId }), { auth: false, expect: ['badId'] }),
    importBans: (target: Target, text: string) =>
      http<true>('POST', banList(target), {
        body: text,
        rawBody: true,
        expect: ['noValidLines', 'forbidden', 'badId'],
      }),
    scriptLike: (scriptId: string, liked: boolean | null) =>
      http<{ liked: boolean | null }>('PUT', `/sentinel/scripts/${encodeURIComponent(scriptId)}/like`, {
        body: { liked },
        expect: ['badScriptId', 'scriptNotFound'],
      }),
    scriptPublish: (scriptId: string, publish: boolean) =>
      http<{ scriptId: string; communityStatus: string }>(
        publish ? 'POST' : 'DELETE',
        `/sentinel/scripts/${encodeURIComponent(scriptId)}/publish`,
        { expect: ['badScriptId', 'scriptRejected', 'scriptNotFound'] },
      ),
    scriptRevisions: (scriptId: string) =>
      http<{ revisions: ScriptRevision[] }>(
        'GET',
        `/sentinel/scripts/${encodeURIComponent(scriptId)}/revisions`,
        {
          expect: ['notFound'],
        },
      ),
    /** Makes or rotates an attachment's own webhook: its URL and secret, shown once. */
    attachmentWebhook: (holder: 'serviceScripts' | 'groupScripts', attachmentId: string) =>
      http<{ url: string; secret: string }>(
        'POST',
        `/sentinel/${holder}/${encodeURIComponent(attachmentId)}/webhook`,
        { expect: ['notFound', 'forbidden'] },
      ),
    scriptRevision: (scriptId: string, revisionId: string) =>
      http<ScriptRevisionContent>(
        'GET',
        `/sentinel/scripts/${encodeURIComponent(scriptId)}/revisions/${encodeURIComponent(revisionId)}`,
        { expect: ['notFound'] },
      ),
    scriptMenuItems: (serviceId: string, context: ScriptRunContext) =>
      http<ScriptMenuItem[]>('GET', '/sentinel/scriptMenuItems', { query: { serviceId, context } }),
    runScript: (
      scriptEventId: string,
      run: {
        serviceId: string;
        arguments: Record<string, unknown>;
        characterId?: string;
        dinoId?: string;
        tribeId?: string;
      },
    ) =>
      http<true>('POST', `/sentinel/scriptMenuItems/${encodeURIComponent(scriptEventId)}`, {
        body: run,
        expect: [
          'forbidden',
          'badEventId',
          'missingKeys',
          'notFound',
          'eventNotFound',
          'serviceNotFound',
          'targetNotFound',
          'internalServerError',
        ],
      }),
    dinoLocate: (dinoId: string) =>
      http<RequestReceipt>('POST', `/sentinel/dinos/${encodeURIComponent(dinoId)}/locate`, {
        expect: GAME_ACTION_ERRORS,
      }),
    dinoRestore: (dinoId: string, characterId: string) =>
      http<RequestReceipt>('POST', `/sentinel/dinos/${encodeURIComponent(dinoId)}/restore`, {
        body: { characterId },
        expect: GAME_ACTION_ERRORS,
      }),
    dinoEdit: (dinoId: string, edit: { isSterilized?: boolean; isFemale?: boolean }) =>
      http<RequestReceipt>('POST', `/sentinel/dinos/${encodeURIComponent(dinoId)}/edit`, {
        body: edit,
        expect: GAME_ACTION_ERRORS,
      }),
    giveItem: (characterId: string, item: Record<string, unknown>) =>
      http<RequestReceipt>('POST', `/sentinel/characters/${encodeURIComponent(characterId)}/giveItem`, {
        body: item,
        expect: GAME_ACTION_ERRORS,
      }),
    giveDino: (characterId: string, dino: Record<string, unknown>) =>
      http<RequestReceipt>('POST', `/sentinel/characters/${encodeURIComponent(characterId)}/giveDino`, {
        body: dino,
        expect: GAME_ACTION_ERRORS,
      }),
    characterLocate: (characterId: string) =>
      http<RequestReceipt>('POST', `/sentinel/characters/${encodeURIComponent(characterId)}/locate`, {
        expect: GAME_ACTION_ERRORS,
      }),
    /** A user to add to a group, by email, user id or username#discriminator (docs/api.md "Groups"). */
    userLookup: (query: string) =>
      http<Pick<User, 'userId' | 'username' | 'usernameFull' | 'isAnonymous' | 'publicKey'>>(
        'GET',
        '/sentinel/userLookup',
        { query: { query }, expect: ['userNotFound', 'anonymousUser', 'missingQuery'] },
      ),
    discordChatChannels: (groupId: string) =>
      http<DiscordChannel[]>('GET', `/sentinel/groups/${encodeURIComponent(groupId)}/discordChatChannels`, {
        expect: ['notFound'],
      }),

    /** The plans' prices and limits (docs/billing.md), public. */
    billingPlans: () => http<PlanConfig>('GET', '/billing/plans', { auth: false }),
    /** Prepares a trial's checkout; signed in, the account must have the trial's email. */
    startTrial: (request: TrialRequest) =>
      http<BillingSession>('POST', '/billing/checkout', {
        body: request,
        expect: Object.keys(TRIAL_ERRORS),
      }),
    /** Prepares the signed-in user's billing portal, returning to `returnUrl`. */
    billingPortal: (returnUrl: string) =>
      http<BillingSession>('POST', '/billing/portal', {
        body: { returnUrl },
        expect: Object.keys(PORTAL_ERRORS),
      }),
    user: (deviceId: string, returnUrl: string) =>
      http<User>('GET', '/user', {
        query: { deviceId, requiredPolicies: REQUIRED_POLICIES.join(','), return: returnUrl },
        expect: ['policyRequired'],
      }),
    channelAuth: (socketId: string, channelName: string) =>
      http<{ auth: string }>('POST', '/pusher/channelAuth', {
        form: { socket_id: socketId, channel_name: channelName },
        expect: ['forbidden', 'notFound'],
      }),
    session: () => http<SessionInfo>('GET', '/session'),
    deleteSession: (accessToken: string) =>
      http<true>('DELETE', `/sessions/${encodeURIComponent(accessToken)}`),
    /** Every route of the API, for the public site's reference. */
    apiReference: () => http<ApiReference>('GET', API_REFERENCE_PATH, { auth: false }),
    token: (deviceId: string, body: Record<string, string>) =>
      http<TokenResponse>('POST', '/login', {
        auth: false,
        query: { deviceId },
        body,
        expect: ['INVALID_GRANT', 'INVALID_CODE', 'EXPIRED', 'INVALID_SCOPES'],
      }),
  };
}

export type SentinelApi = ReturnType<typeof createSentinelApi>;
