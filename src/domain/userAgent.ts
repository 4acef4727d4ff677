// A browser's User-Agent as a person names the device ("Chrome on Linux"), read by Bowser: the
// strings are many and change, and a maintained parser keeps up with them where a regex of ours
// would not.

import Bowser from 'bowser';

/** "Chrome on Linux"; "" when the string names nothing known (a script, a bot). */
export function deviceName(userAgent: string): string {
  if (!userAgent) return '';
  const { browser, os } = Bowser.parse(userAgent.slice(0, 500));
  if (!browser.name) return '';
  return os.name ? `${browser.name} on ${os.name}` : browser.name;
}
