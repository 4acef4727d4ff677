// Chat (ACTIONS.md "Servers"): send a line to a server or a group, Notify (also shown on
// players' screens) or Silent; switch the chat view between translated and original text.

import { Msg } from '../src/domain/messages.ts';
import { ApiError } from '../src/web/api/http.ts';
import { oneOf, ownerOf, ref, text } from './args.ts';
import type { CommandContext } from './context.ts';
import { defineCommand } from './registry.ts';

const group = 'Chat';

export const CHAT_MODES = ['silent', 'notify'] as const;

/** The chat name preference, else the account's name, else the API's default ("Server"). */
function senderName(ctx: CommandContext): string | undefined {
  return String(ctx.app.prefs.get('chatName') ?? '').trim() || ctx.user?.username || undefined;
}

export const chatCommands = [
  defineCommand({
    id: 'chat.send',
    title: 'Send chat',
    group,
    aliases: ['chat', 'say'],
    args: {
      target: ref('server', 'group').describe('Server or group'),
      message: text().min(1, 'Type a message to send.').describe('Message').rest(),
      mode: oneOf(CHAT_MODES).default('silent').describe('Notify or Silent'),
    },
    run: async ({ target, message, mode }, ctx) => {
      const to = ownerOf(target);
      try {
        await ctx.app.api.chat({ ...to, message, senderName: senderName(ctx) });
        if (mode === 'notify') await ctx.app.api.gameCommands([{ ...to, type: 'broadcast', message }]);
      } catch (e) {
        if (e instanceof ApiError && e.code === 'serviceNotConnected')
          throw new ApiError(Msg.serviceNotConnected, e.code, e.status, e.details);
        throw e;
      }
      return { message: `Sent to ${target.label}${mode === 'notify' ? ' and shown on screen' : ''}.` };
    },
  }),
  defineCommand({
    id: 'chat.toggleTranslated',
    title: 'Chat: translated or original',
    group,
    aliases: ['translate'],
    keys: ['alt+t'],
    run: (_a, ctx) => {
      const next = !ctx.app.prefs.get('showTranslatedChat');
      ctx.app.prefs.set('showTranslatedChat', next);
      return { message: next ? 'Chat shows translations.' : 'Chat shows the original messages.' };
    },
  }),
];
