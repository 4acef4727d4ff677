// What a game command becomes on an RCON server: an ARK console command, or a refusal that names
// the connection kind. RCON reaches the game's admin console only, so whatever needs the Sentinel
// mod's own code (finding a dino, editing one, restoring from backup…) is refused before anything
// is sent, never sent and silently lost.

import type { GameCommand } from '../../../domain/link.ts';
import { ApiException } from '../../http/errors.ts';

/** What each command that only the game link can carry does, in the refusal's words. */
const LINK_ONLY: Record<string, string> = {
  locate: 'Locating a survivor or dino',
  teleportCharacter: 'Teleporting a survivor',
  teleportDino: 'Teleporting a dino',
  renamePlayer: 'Renaming a survivor',
  editDino: 'Editing a dino',
  giveItem: 'Giving an item',
  giveDino: 'Giving a dino',
  restore: 'Restoring a dino from backup',
  restoreDino: 'Restoring a dino from backup',
};

export const rconRefusal = (what: string) =>
  new ApiException(
    409,
    `${what} needs the game link (the Sentinel mod); this server is connected over RCON, which cannot do it. Nothing was sent.`,
    'rconUnsupported',
  );

/** One console line: a line break would end the command early and run the rest as another. */
const oneLine = (text: string) => text.replace(/[\r\n\0]+/g, ' ').trim();

const str = (v: unknown) => (typeof v === 'string' ? oneLine(v) : '');

/** The console command for `cmd`; throws the refusal (409 rconUnsupported) when RCON cannot carry it. */
export function toRconCommand(cmd: GameCommand): string {
  const linkOnly = LINK_ONLY[cmd.type];
  if (linkOnly) throw rconRefusal(linkOnly);
  switch (cmd.type) {
    case 'admin':
      return str(cmd.command);
    case 'chat': {
      // ServerChatTo needs the player's game id, and the game's console has no tribe chat.
      if (cmd.recipientType) throw rconRefusal('Chat to one survivor or tribe');
      const sender = str(cmd.senderName);
      const message = str(cmd.message);
      // A line relayed from another server of a group says where it was said.
      const origin = str(cmd.originName);
      const said = sender && sender !== 'Server' ? `${sender}: ${message}` : message;
      return `ServerChat ${origin ? `[${origin}] ${said}` : said}`;
    }
    case 'broadcast':
      return `Broadcast ${str(cmd.message)}`;
    case 'destroyWildDinos':
      return 'DestroyWildDinos';
    default:
      throw rconRefusal(`The command ${JSON.stringify(cmd.type)}`);
  }
}
