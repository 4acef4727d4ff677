// The names of the local preferences (SPEC §3): the `set` command offers them, the web store
// (src/web/store/prefs.ts) keeps one value for each.

export const PREF_KEYS = [
  'locale',
  'chatName',
  'playChatSounds',
  'showTranslatedChat',
  'storedChatMessage',
  'logColumns',
  'promptShortcutKey',
  'locatorResultsFormat',
  'attachNoticeVisible',
  'affiliateId',
  'theme',
  'density',
] as const;
export type PrefKey = (typeof PREF_KEYS)[number];
