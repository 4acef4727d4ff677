// The wording users see (SPEC §5, §8). Every surface imports these; none restates them.

export const Msg = {
  authFailed: 'Authentication failed',
  networkError:
    'There was a network error. This could be an internet outage, a bad route to the host, a browser issue, or more.',
  unexpectedReply:
    'The server replied in an unexpected manner. This may be an indication of an outage and should be reported.',
  noDetails: 'No further details about the error are available.',
  logoutFailed: 'Authentication probably already expired.',
  noPermission: 'You do not have permission to access this resource.',
  forbidden: 'Forbidden: You do not have the required permission',
  serverListFailed: 'Unable to load server list',
  serverNotFound: 'The server does not exist or you do not have permission to view it.',
  groupNameShort: 'The group name should be at least 3 characters',
  noteEmpty: 'The note should have some content, right?',
  noteShort: 'Surely you have more to say than that.',
  bucketKeyRequired: 'A key is required.',
  bucketValueRequired: 'A value is required.',
  bucketPlayerBad: 'The player id must look like a product player id.',
  itemPathBad: 'This item path does not appear to be correct. All Ark paths start with /.',
  traitLimit: (trait: string) => `You cannot add any more ${trait} traits.`,
  dinoNotFound:
    'The dino was not found. It either never existed, no longer exists, or you do not have access to it.',
  dinoUnknown: 'The dino is not known to the product.',
  serviceNotConnected: 'The server is disconnected. Try again once the server has connected.',
  accessKeyHidden: 'Only the owner and editors of this server (edit servers) can see its access key.',
  banPlayerFormat: 'The player id must be a valid EOS id, SteamID64 or player id.',
  banPieCharacter: 'The Play-In-Editor character cannot be banned.',
  banDuplicate: 'This player is already banned there.',
  banPlayerNotFound: 'The player was not found.',
  banEosUnknown: 'No player is known with that EOS id or SteamID64.',
  teleportNoValues: 'Enter at least one coordinate.',
  kickUnknownPlayer: 'No server has seen that player, so there is no one to kick.',
  restoreNotAvailable: 'This dino cannot be revived: it is alive, or no cryopod backup exists.',
  reviveNoSelection: 'Choose the survivor whose inventory receives the cryopod.',
  commandEmpty: 'Type a command to send.',
  targetsRequired: 'Choose at least one server or group.',
  signInState: 'The sign-in response did not match the request. Please sign in again.',
  refreshExpired: 'Your session has expired. Please sign in again.',
} as const;

/** Minimum note length: the spec names the rule but not the number. */
export const NOTE_MIN_LENGTH = 5;
export const GROUP_NAME_MIN = 3;
