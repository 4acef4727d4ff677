// The API reference (GET /v4/apiReference) made from the router's own list of routes, so it
// cannot leave one out. A class path's generic routes (SENTINEL-API §2.2) are described by rule;
// every other route has a line below, and tests/api/apiReference.test.ts fails on a route without one.

import { API_REFERENCE_PATH, type ApiReference, type ApiRouteEntry } from '../../domain/apiReference.ts';
import { API_PREFIX, type RegisteredRoute } from './router.ts';

/** What each route that is not a generic class path route does, by `METHOD path` (without /v4). */
const NOTES: Record<string, string> = {
  'GET /login':
    'Starts an OAuth 2.1 sign-in (authorization code with PKCE): shows the sign-in page, or answers its address with `no_redirect=true`.',
  'GET /login/signin': 'The sign-in page of a sign-in flow.',
  'POST /login/signin': 'Checks the email and password, then returns to the application with a code.',
  'POST /login': 'Exchanges an authorization code or a refresh token for tokens.',
  'POST /login/revoke': 'Revokes an access or refresh token (RFC 7009).',
  'GET /user':
    'The signed-in user; asks them to accept the terms and privacy policies first when they have not.',
  'GET /users/:userId': 'A user as other users see them (the caller sees all of their own).',
  'GET /sentinel/userLookup': 'Finds a user by email or user id, to add them to a group.',
  'GET /session': 'The caller’s session.',
  'DELETE /session': 'Signs out: ends the caller’s session.',
  'GET /sessions/:token': 'A session of the caller, by its token.',
  'DELETE /sessions/:token': 'Ends a session of the caller, by its token.',
  'GET /policies/:requestId': 'The page that asks to accept the terms and privacy policies.',
  'POST /policies/:requestId': 'Accepts the policies, then returns to the application.',
  'POST /pusher/channelAuth': 'Authorises a subscription to a private realtime channel.',
  'POST /sentinel/services/:serviceId/accessKey':
    'Issues a new access key for a server; the old key stops working and its link closes.',
  'GET /sentinel/services/:serviceId/history':
    'How far back a server’s history goes: the days its owner’s plan keeps, and the oldest moment kept.',
  'GET /sentinel/logMessages/volume':
    'Log lines per level per step under the log list’s filters, for the chart above the list.',
  'GET /sentinel/services/:serviceId/population':
    'Players on a server over time, from its sessions: the most on at once per step since a moment.',
  'GET /sentinel/services/:id/bans.txt': 'A server’s bans as text, one player per line.',
  'POST /sentinel/services/:id/bans.txt': 'Imports bans to a server from text, one player per line.',
  'GET /sentinel/groups/:id/bans.txt': 'A group’s bans as text, one player per line.',
  'POST /sentinel/groups/:id/bans.txt': 'Imports bans to a group from text, one player per line.',
  'POST /sentinel/gameCommands':
    'Sends a console command to a server, or to every server of a group, and answers what each server said.',
  'POST /sentinel/chat': 'Sends a chat message to a server or to every server of a group.',
  'GET /sentinel/scriptReviews': 'Script revisions waiting for review (script reviewers only).',
  'POST /sentinel/scripts/:id/revisions/:revisionId/review': 'Approves or rejects a script revision.',
  'GET /sentinel/scripts/:id/webhooks': 'The webhooks that start a script.',
  'POST /sentinel/scripts/:id/webhooks': 'Adds a webhook that starts a script.',
  'POST /sentinel/scripts/:id/webhooks/:webhookId/secret': 'Issues a new signing secret for a webhook.',
  'DELETE /sentinel/scripts/:id/webhooks/:webhookId': 'Deletes a webhook.',
  'POST /sentinel/serviceScripts/:id/webhook':
    'Makes or rotates the webhook of a script attached to a server: its URL and signing secret.',
  'DELETE /sentinel/serviceScripts/:id/webhook': 'Removes the webhook of a script attached to a server.',
  'POST /sentinel/groupScripts/:id/webhook':
    'Makes or rotates the webhook of a script attached to a group: its URL and signing secret.',
  'DELETE /sentinel/groupScripts/:id/webhook': 'Removes the webhook of a script attached to a group.',
  'POST /sentinel/attachmentWebhooks/:id':
    'Runs the webhook handlers of one script attachment, signed with its secret (no token).',
  'POST /sentinel/scriptWebhooks/:webhookId':
    'Starts the webhook’s script; the body is signed with its secret.',
  'GET /sentinel/scripts/:id/revisions': 'A script’s revisions, newest first.',
  'GET /sentinel/scripts/:id/revisions/:revisionId':
    'One revision’s content (events and their code, parameters), for what changed between two.',
  'PUT /sentinel/scripts/:id/like': 'Rates a Workshop script.',
  'POST /sentinel/scripts/:id/publish': 'Publishes a script to the Workshop.',
  'DELETE /sentinel/scripts/:id/publish': 'Withdraws a script from the Workshop.',
  'POST /sentinel/scriptTests': 'Runs a script in the test engine with the given context.',
  'GET /sentinel/scriptMenuItems': 'The scripts that can be run by hand on a server, group or player.',
  'POST /sentinel/scriptMenuItems/:eventId': 'Runs a script by hand.',
  'POST /sentinel/dinos/:id/locate': 'Asks the game where a dino is.',
  'POST /sentinel/dinos/:id/edit': 'Changes a dino in the game: name, levels, stats or colours.',
  'POST /sentinel/dinos/:id/restore':
    'Revives a dead dino from its cryopod backup into a survivor’s inventory.',
  'POST /sentinel/characters/:id/giveItem': 'Gives items to a survivor.',
  'POST /sentinel/characters/:id/giveDino': 'Gives a dino, in a cryopod, to a survivor.',
  'POST /sentinel/characters/:id/locate': 'Asks the game where a survivor is.',
  'POST /sentinel/services/:id/webhook':
    'Starts a server’s webhook scripts; signed with the server’s access key, no token needed.',
  'GET /sentinel/groups/:id/discordChatChannels':
    'The chat community channels a group can forward its chat to.',
  'POST /chatBot/links': 'The chat community bot links a community to a group with its link code.',
  'POST /chatBot/messages': 'The chat community bot sends a community message to a linked group’s servers.',
  'GET /chatBot/messages': 'The chat community bot reads a linked group’s chat since a time.',
  'GET /sentinel/activity':
    'The activity trail: every write through the API, filtered by server, user, kind and time.',
  [`GET ${API_REFERENCE_PATH}`]: 'This reference: every route of the API.',
  'GET /billing/plans': 'The plans: tiered prices per server, monthly and yearly, and the largest plan.',
  'POST /billing/checkout':
    'Starts a checkout for a trial or a plan, after checking the email, the cart and the refund agreement.',
  'GET /billing/checkout/:id': 'The checkout page of a checkout session.',
  'POST /billing/checkout/:id': 'Confirms a checkout: starts the trial, or the plan for returning customers.',
  'POST /billing/portal':
    'Prepares a billing portal session for the signed-in user, returning to the console.',
  'GET /billing/portal/:id': 'The billing portal: the plan, changes, cancellation and invoices.',
  'POST /billing/portal/:id/preview': 'The prorated price of a plan change, before it is made.',
  'POST /billing/portal/:id/change':
    'Changes the plan size or period, charging or crediting the prorated difference.',
  'POST /billing/portal/:id/cancel': 'Cancels the plan at the end of the period paid for.',
  'POST /billing/portal/:id/resume': 'Undoes a cancellation before the period ends.',
  'POST /billing/portal/:id/refund': 'Refunds the latest payment within the refund period, ending the plan.',
  'POST /sentinel/alertRules/:ruleId/test':
    'Sends a test notification to the rule’s destinations and the console, muted or not.',
  'POST /sentinel/alertDestinations/:destinationId/test': 'Sends a test notification to the destination.',
  'GET /sentinel/notifications/unread': 'How many of the caller’s notifications are unread.',
  'POST /sentinel/notifications/read': 'Marks some of the caller’s notifications read, or all of them.',
  'POST /login/second':
    'The sign-in page’s second step: an authenticator’s code or a backup code, counted against the account.',
  'POST /login/passkey/options': 'A WebAuthn challenge for the sign-in page’s passkey button.',
  'POST /login/passkey':
    'Signs in with a passkey (alone, or as the second step); answers where the browser goes next.',
  'GET /login/webauthn.js': 'The WebAuthn browser helper the sign-in pages load (SimpleWebAuthn).',
  'GET /login/passkey.js': 'The sign-in pages’ passkey button.',
  'POST /sentinel/account/passkeys/options':
    'WebAuthn options for the browser to make a passkey for the caller.',
  'POST /sentinel/account/passkeys':
    'Keeps a passkey the browser made; the account’s first second factor also answers backup codes (once).',
  'DELETE /sentinel/account/passkeys/:passkeyId': 'Removes one of the caller’s passkeys.',
  'GET /sentinel/account/security':
    'The caller’s two-factor sign-in: on or off, a setup under way, backup codes left, groups requiring it.',
  'POST /sentinel/account/totp':
    'Begins setting up an authenticator: its key and the otpauth:// address to scan.',
  'POST /sentinel/account/totp/confirm':
    'Turns two-factor sign-in on with a first code; answers the backup codes (shown once) and signs out other devices.',
  'DELETE /sentinel/account/totp': 'Turns two-factor sign-in off, given a current code or a backup code.',
  'POST /sentinel/account/backupCodes':
    'Replaces the backup codes, given a current code; answers the new ones once.',
  'GET /sentinel/account/signIns': 'The caller’s signed-in devices: since when, from where, how, last used.',
  'DELETE /sentinel/account/signIns/:signInId': 'Signs one of the caller’s devices out at once.',
  'GET /sentinel/apiTokens': 'The caller’s live API tokens (never the tokens themselves).',
  'POST /sentinel/apiTokens':
    'Makes an API token: a name, read or write access, optionally one server or group, a number of days. Answers the token once.',
  'DELETE /sentinel/apiTokens/:tokenId': 'Revokes an API token at once.',
  'GET /sentinel/services/:serviceId/access':
    'What a user can do on a server and where each permission comes from: ownership, groups, roles.',
  'GET /unsubscribe/:token': 'The page an alert mail’s recipient unsubscribes on.',
  'POST /unsubscribe/:token':
    'Unsubscribes an alert mail’s recipient (the page’s button, or a mail client’s one-click unsubscribe).',
};

/** Topics of paths outside the class paths, by their first segment. */
const TOPICS: Record<string, string> = {
  login: 'Sign-in',
  policies: 'Sign-in',
  session: 'Sessions',
  sessions: 'Sessions',
  user: 'Users',
  users: 'Users',
  userLookup: 'Users',
  pusher: 'Realtime',
  characters: 'Survivors (characters)',
  chatBot: 'Chat community bot',
  unsubscribe: 'Alerts',
  account: 'Access',
  apiTokens: 'Access',
  groupRoles: 'Access',
  alertRules: 'Alerts',
  alertDeliveries: 'Alerts',
  alertDestinations: 'Alerts',
  notifications: 'Alerts',
  scriptWebhooks: 'Scripts',
  scriptReviews: 'Scripts',
  scriptMenuItems: 'Scripts',
  scriptTests: 'Scripts',
  communityScripts: 'Scripts',
  [API_REFERENCE_PATH.slice(1)]: 'Reference',
};

/** `groupUsers` → `group users`. */
const words = (camel: string) => camel.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
const singular = (plural: string) => plural.replace(/s$/, '');
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The generic routes of a class path (SENTINEL-API §2.2): `/sentinel/{class}` and `/sentinel/{class}/:id`. */
function classPathNote(method: string, path: string): string | null {
  const m = /^\/sentinel\/([A-Za-z]+)(\/:[A-Za-z]+)?$/.exec(path);
  if (!m) return null;
  const many = words(m[1]);
  const one = singular(many);
  const item = m[2] !== undefined;
  switch (`${method} ${item ? 'item' : 'list'}`) {
    case 'GET list':
      return `Lists ${many}, paged, filtered and sorted by the query.`;
    case 'GET item':
      return `One ${one}.`;
    case 'POST list':
      return `Creates or updates ${many}: one object or an array, in one transaction.`;
    case 'PATCH list':
      return `Updates ${many} from an array, in one transaction.`;
    case 'PUT item':
      return `Creates or replaces the ${one} with this id.`;
    case 'PATCH item':
      return `Updates one ${one}.`;
    case 'DELETE item':
      return `Deletes one ${one}.`;
    case 'DELETE list':
      return `Deletes the ${many} named in the body.`;
    default:
      return null;
  }
}

/** The path without /v4, as the notes and SENTINEL-API write it. */
const relative = (path: string) => path.slice(API_PREFIX.length);

export function describeRoute(method: string, path: string): string | null {
  const rel = relative(path);
  return NOTES[`${method} ${rel}`] ?? classPathNote(method, rel);
}

function topicOf(path: string): string {
  const segments = relative(path).split('/').filter(Boolean);
  const name = segments[0] === 'sentinel' ? segments[1] : segments[0];
  return TOPICS[name] ?? capital(words(name));
}

/** Routes in registration order, which keeps each topic's routes together as its file wrote them. */
export function routeReference(routes: readonly RegisteredRoute[]): ApiReference {
  return {
    routes: routes.map(
      (r): ApiRouteEntry => ({
        method: r.method,
        path: r.path,
        access: r.access,
        scopes: r.access === 'token' ? ['common', ...r.scopes.filter((s) => s !== 'common')] : [],
        topic: topicOf(r.path),
        description: describeRoute(r.method, r.path) ?? '',
      }),
    ),
  };
}

/** The notes that name no registered route: a route renamed or removed without its note. */
export const staleNotes = (routes: readonly RegisteredRoute[]): string[] => {
  const known = new Set(routes.map((r) => `${r.method} ${relative(r.path)}`));
  return Object.keys(NOTES).filter((k) => !known.has(k));
};
