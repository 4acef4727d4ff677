// A program's name for something, in words for people: "playerJoined" is "Player joined",
// "senderName" is "Sender name". Lists, filters and forms show these, never the identifier.

export function inWords(identifier: string): string {
  const words = identifier.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`).trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
