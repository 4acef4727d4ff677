// Session and account (ACTIONS.md): sign-in, sign-out, the user menu, local preferences.

import { PREF_KEYS } from '../src/domain/prefKeys.ts';
import { oneOf, text } from './args.ts';
import type { AppServices, CommandContext } from './context.ts';
import { defineCommand } from './registry.ts';

const group = 'Account';
const signedIn = (ctx: CommandContext) => (ctx.user ? true : 'Sign in first');
function user(ctx: CommandContext) {
  if (!ctx.user) throw new Error('Sign in first.');
  return ctx.user;
}

/** A page of the provider's site (the account control panel), opened in a new tab. */
const providerPage = <const Id extends string>(id: Id, title: string, link: keyof AppServices['links']) =>
  defineCommand({
    id,
    title,
    group,
    enabled: signedIn,
    run: (_a, ctx) => {
      ctx.app.openExternal(ctx.app.links[link]);
      return undefined;
    },
  });

export const accountCommands = [
  defineCommand({
    id: 'session.signIn',
    title: 'Sign in',
    group,
    aliases: ['login'],
    when: (ctx) => !ctx.user,
    run: async (_a, ctx) => {
      await ctx.app.auth.signIn(ctx.route);
      return undefined;
    },
  }),
  defineCommand({
    id: 'session.signOut',
    title: 'Log out',
    group,
    aliases: ['logout'],
    when: (ctx) => Boolean(ctx.user),
    run: async (_a, ctx) => {
      await ctx.app.auth.signOut();
      return { message: 'Signed out.' };
    },
  }),
  providerPage('account.controlPanel', 'Open account control panel', 'controlPanel'),
  defineCommand({
    id: 'account.info',
    title: 'Show user info',
    group,
    aliases: ['whoami'],
    enabled: signedIn,
    run: (_a, ctx) => {
      const u = user(ctx);
      const rows: [string, string][] = [
        ['Username', u.usernameFull],
        ['Email', u.email ?? ''],
        ['User id', u.userId],
        ['Device id', ctx.app.auth.deviceId()],
        ['Public key', u.publicKey],
      ];
      if (ctx.surface === 'console') return { table: { columns: ['Field', 'Value'], rows } };
      ctx.app.dialogs.info('Account', rows);
      return undefined;
    },
  }),
  defineCommand({
    id: 'account.copyUsername',
    title: 'Copy username',
    group,
    enabled: signedIn,
    run: async (_a, ctx) => {
      const name = user(ctx).usernameFull;
      await ctx.app.clipboard.copy(name);
      return { message: `Copied ${name}.` };
    },
  }),
  defineCommand({
    id: 'prefs.set',
    title: 'Change a preference',
    group: 'Preferences',
    aliases: ['set'],
    args: {
      key: oneOf(PREF_KEYS).describe('Preference'),
      value: text().describe('Value').rest(),
    },
    run: ({ key, value }, ctx) => {
      ctx.app.prefs.set(key, value);
      return { message: `${key} is now ${value || '(blank)'}.` };
    },
  }),
];
