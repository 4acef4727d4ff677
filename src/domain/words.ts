// A program's name for something, in words for people: "playerJoined" is "Player joined",
// "senderName" is "Sender name". Lists, filters and forms show these, never the identifier.

export function inWords(identifier: string): string {
  const words = identifier.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`).trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A colour's name from the game's table for people: `WyvernPurple1`, `BigFoot0` as "Wyvern Purple 1", "Big Foot 0". */
export const colorTitle = (c: { name: string }): string =>
  c.name.replace(/([a-z])(?=[A-Z0-9])|([0-9])(?=[A-Za-z])/g, '$1$2 ');
