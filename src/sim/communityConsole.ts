// The demo's chat community, typed at the server's terminal: `link CODE` redeems a group's link
// code (the console shows it on the group's settings), `say Name: text` speaks in the community.
// Once linked, what the group says is printed as the community would see it.

import { createInterface } from 'node:readline';
import { ChatBot } from './chatBot.ts';

const POLL_MS = 3000;

export function playCommunityBot(opts: { apiUrl: string; token: string }): { stop(): void } {
  const bot = new ChatBot({
    ...opts,
    guildId: 'palisade-community',
    guildName: 'Palisade Community',
    channelId: 'general',
    channelName: 'general',
  });
  let poller: NodeJS.Timeout | undefined;
  const poll = () =>
    bot.poll().then(
      (lines) => {
        for (const l of lines)
          console.log(`[community] ${l.senderName} (${l.serviceDisplayName}): ${l.message}`);
      },
      () => {},
    );
  // Without a terminal (tests, services) there is nobody to type: the bot stays idle.
  const rl = process.stdin.isTTY ? createInterface({ input: process.stdin }) : null;
  rl?.on('line', async (line) => {
    const [verb, ...rest] = line.trim().split(/\s+/);
    try {
      if (verb === 'link') {
        const linked = await bot.redeem(rest[0] ?? '');
        console.log(`[community] linked to ${linked.groupName}`);
        poller ??= setInterval(poll, POLL_MS);
      } else if (verb === 'say') {
        const [name, ...words] = rest.join(' ').split(':');
        await bot.say(name.trim() || 'Member', words.join(':').trim());
      }
    } catch (e) {
      console.log(`[community] ${(e as Error).message}`);
    }
  });
  if (rl) console.log('Chat community: type "link CODE" to link a group, "say Name: text" to speak in it');
  return {
    stop() {
      clearInterval(poller);
      rl?.close();
    },
  };
}
