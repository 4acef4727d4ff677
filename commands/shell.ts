// Shell and navigation (ACTIONS.md): palette, console pane, panes, lists, history, clipboard.

import { THEMES } from '../src/domain/enums.ts';
import { pathOf } from '../src/domain/resolver.ts';
import { ENTITY_KINDS, oneOf, ref, text } from './args.ts';
import type { CommandContext } from './context.ts';
import { defineCommand } from './registry.ts';

const group = 'Shell';

function withList(
  ctx: CommandContext,
  act: (l: NonNullable<ReturnType<CommandContext['app']['list']>>) => void,
) {
  const list = ctx.app.list();
  if (!list) throw new Error('No list has focus. Move to a list first.');
  act(list);
  return undefined;
}
const needsList = (ctx: CommandContext) => (ctx.app.list() ? true : 'No list has focus');

export const shellCommands = [
  defineCommand({
    id: 'ui.palette',
    title: 'Open command palette',
    group,
    keys: ['mod+k'],
    run: (_a, ctx) => {
      ctx.app.palette.open();
      return undefined;
    },
  }),
  defineCommand({
    id: 'ui.console.toggle',
    title: 'Show or hide the console pane',
    group,
    aliases: ['console'],
    // Plain ` types a backtick inside the pane; Ctrl+` toggles from anywhere, the pane included.
    keys: ['`', 'ctrl+backquote'],
    run: (_a, ctx) => {
      ctx.app.terminal.toggle();
      return undefined;
    },
  }),
  defineCommand({
    id: 'ui.console.focus',
    title: 'Focus the console command line',
    group,
    keys: [':'],
    run: (_a, ctx) => {
      ctx.app.terminal.focus();
      return undefined;
    },
  }),
  defineCommand({
    id: 'ui.shortcuts',
    title: 'Keyboard shortcuts',
    group,
    aliases: ['keys'],
    keys: ['?'],
    run: (_a, ctx) => {
      ctx.app.dialogs.shortcuts();
      return undefined;
    },
  }),
  defineCommand({
    id: 'ui.pane.splitRight',
    title: 'Split pane right',
    group,
    aliases: ['split'],
    keys: ['mod+backslash'],
    run: (_a, ctx) => {
      ctx.app.panes.split('right');
      return undefined;
    },
  }),
  defineCommand({
    id: 'ui.pane.splitDown',
    title: 'Split pane down',
    group,
    keys: ['mod+shift+backslash'],
    run: (_a, ctx) => {
      ctx.app.panes.split('down');
      return undefined;
    },
  }),
  defineCommand({
    id: 'ui.pane.close',
    title: 'Close pane',
    group,
    // Ctrl+W belongs to the browser (it closes the tab before a page sees it).
    keys: ['alt+w'],
    run: (_a, ctx) => {
      ctx.app.panes.close();
      return undefined;
    },
  }),
  defineCommand({
    id: 'ui.pane.focusNext',
    title: 'Focus next pane',
    group,
    keys: ['f6'],
    run: (_a, ctx) => {
      ctx.app.panes.focus(1);
      return undefined;
    },
  }),
  defineCommand({
    id: 'ui.pane.focusPrev',
    title: 'Focus previous pane',
    group,
    keys: ['shift+f6'],
    run: (_a, ctx) => {
      ctx.app.panes.focus(-1);
      return undefined;
    },
  }),
  defineCommand({
    id: 'ui.pane.grow',
    title: 'Make pane larger',
    group,
    keys: ['alt+shift+arrowright'],
    run: (_a, ctx) => {
      ctx.app.panes.resize(0.05);
      return undefined;
    },
  }),
  defineCommand({
    id: 'ui.pane.shrink',
    title: 'Make pane smaller',
    group,
    keys: ['alt+shift+arrowleft'],
    run: (_a, ctx) => {
      ctx.app.panes.resize(-0.05);
      return undefined;
    },
  }),
  defineCommand({
    id: 'ui.list.filter',
    title: 'Filter the list',
    group,
    keys: ['/'],
    scope: 'list',
    enabled: needsList,
    run: (_a, ctx) => withList(ctx, (l) => l.focusFilter()),
  }),
  defineCommand({
    id: 'ui.list.columns',
    title: 'Choose visible columns',
    group,
    enabled: needsList,
    run: (_a, ctx) => withList(ctx, (l) => l.openColumns()),
  }),
  defineCommand({
    id: 'ui.list.refresh',
    title: 'Refresh the list',
    group,
    aliases: ['refresh'],
    keys: ['r'],
    scope: 'list',
    enabled: needsList,
    run: (_a, ctx) => withList(ctx, (l) => l.refresh()),
  }),
  defineCommand({
    id: 'ui.list.exportCsv',
    title: 'Export the list as CSV',
    group,
    aliases: ['csv'],
    enabled: needsList,
    run: (_a, ctx) => withList(ctx, (l) => l.exportCsv()),
  }),
  defineCommand({
    id: 'ui.contextMenu',
    title: 'Row menu',
    group,
    keys: ['shift+f10', 'contextmenu'],
    scope: 'list',
    enabled: needsList,
    run: (_a, ctx) => withList(ctx, (l) => l.openContextMenu()),
  }),
  defineCommand({
    id: 'ui.undo',
    title: 'Undo the last command',
    group,
    aliases: ['undo'],
    keys: ['mod+z'],
    // In a text field Ctrl+Z undoes typing.
    keysInFields: false,
    enabled: (ctx) => (ctx.app.undo.available() ? true : 'Nothing to undo'),
    run: async (_a, ctx) => ({ message: `Undone: ${await ctx.app.undo.run()}.` }),
  }),
  defineCommand({
    id: 'ui.theme',
    title: 'Theme',
    description: 'Light, dark, or as the system says; kept in your preferences',
    group,
    aliases: ['theme'],
    args: { theme: oneOf(THEMES).describe('Theme', 'light, dark, or system: as the operating system says') },
    run: ({ theme }, ctx) => {
      ctx.app.prefs.set('theme', theme);
      return {
        message: theme === 'system' ? 'The theme follows the system now.' : `The theme is ${theme} now.`,
      };
    },
  }),
  defineCommand({
    id: 'ui.copy',
    title: 'Copy to clipboard',
    group,
    aliases: ['copy'],
    args: { value: text().min(1).describe('Text', 'What to copy: an id, a username, …').rest() },
    run: async ({ value }, ctx) => {
      await ctx.app.clipboard.copy(value);
      return { message: 'Copied to the clipboard.' };
    },
  }),
  defineCommand({
    id: 'nav.open',
    title: 'Open…',
    group: 'Navigation',
    aliases: ['open', 'go'],
    args: {
      target: ref(...ENTITY_KINDS)
        .alwaysAsked()
        .describe('What', 'A server, player, group, … by name or id'),
    },
    run: ({ target }, ctx) => {
      ctx.app.navigate(pathOf(target.kind, target.id));
      return undefined;
    },
  }),
  defineCommand({
    id: 'nav.back',
    title: 'Go back',
    group: 'Navigation',
    aliases: ['back'],
    keys: ['alt+arrowleft'],
    run: (_a, ctx) => {
      ctx.app.back();
      return undefined;
    },
  }),
  defineCommand({
    id: 'nav.forward',
    title: 'Go forward',
    group: 'Navigation',
    aliases: ['forward'],
    keys: ['alt+arrowright'],
    run: (_a, ctx) => {
      ctx.app.forward();
      return undefined;
    },
  }),
];
