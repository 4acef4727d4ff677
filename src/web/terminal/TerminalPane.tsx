// The console pane: @xterm/xterm (DOM renderer) around a ConsoleSession. Loaded with React.lazy by
// the shell so xterm stays out of the first bundle.

import '@xterm/xterm/css/xterm.css';
import './terminal.css';
import { FitAddon } from '@xterm/addon-fit';
import { type ITheme, Terminal } from '@xterm/xterm';
import { useEffect, useRef } from 'react';
import type { CommandRuntime } from '../app/runtime.ts';
import { runWhenIdle } from '../palette/idle.ts';
import { SCROLLBACK } from './format.ts';
import { History } from './history.ts';
import { ConsoleSession, type SessionRuntime } from './session.ts';
import { isShellKey } from './shellKeys.ts';
import { warmPrint } from './warmPrint.ts';

export interface TerminalPaneProps {
  runtime: CommandRuntime;
  userId: string;
  /** Increments when the shell wants the prompt focused. */
  promptFocusSignal: number;
}

/** The theme's CSS variables as xterm colours; ANSI red/green/yellow/magenta carry format.ts tones. */
function themeFrom(el: HTMLElement): ITheme {
  const css = getComputedStyle(el);
  const v = (name: string) => css.getPropertyValue(name).trim();
  return {
    background: v('--bg-alt'),
    foreground: v('--fg'),
    cursor: v('--accent'),
    cursorAccent: v('--bg-alt'),
    selectionBackground: v('--accent-soft'),
    red: v('--danger'),
    brightRed: v('--danger'),
    green: v('--success'),
    brightGreen: v('--success'),
    yellow: v('--warning'),
    brightYellow: v('--warning'),
    magenta: v('--accent'),
    brightMagenta: v('--accent'),
    brightBlack: v('--fg-muted'),
  };
}

export default function TerminalPane({ runtime, userId, promptFocusSignal }: TerminalPaneProps) {
  const host = useRef<HTMLDivElement>(null);
  const term = useRef<Terminal | null>(null);
  // The session reads the runtime through this, so a new runtime object does not reset the console.
  const current = useRef(runtime);
  useEffect(() => {
    current.current = runtime;
  }, [runtime]);

  useEffect(() => {
    const el = host.current!;
    const css = getComputedStyle(el);
    const t = new Terminal({
      scrollback: SCROLLBACK,
      theme: themeFrom(el),
      fontFamily: css.getPropertyValue('--mono').trim() || 'monospace',
      fontSize: Number.parseFloat(css.getPropertyValue('--fs')) || 13,
      cursorBlink: true,
    });
    const fit = new FitAddon();
    t.loadAddon(fit);
    t.open(el);
    fit.fit();

    const facade: SessionRuntime = {
      get registry() {
        return current.current.registry;
      },
      get entities() {
        return current.current.entities;
      },
      run: (cmd, values, surface) => current.current.run(cmd, values, surface),
      context: (surface) => current.current.context(surface),
    };
    const session = new ConsoleSession(t, facade, new History(userId));
    t.attachCustomKeyEventHandler(
      (e) => !isShellKey(e, { searching: session.searching, hasSelection: t.hasSelection() }),
    );
    const data = t.onData((d) => session.input(d));
    session.start();
    const cancelWarm = runWhenIdle(warmPrint(t.cols, t.rows));

    let frame = 0;
    const resize = new ResizeObserver(() => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => void session.resize(() => fit.fit()));
    });
    resize.observe(el);
    const themeChange = new MutationObserver(() => {
      t.options.theme = themeFrom(el);
    });
    themeChange.observe(document.documentElement, {
      attributes: true,
      attributeFilter: ['data-theme', 'style'],
    });

    term.current = t;
    return () => {
      term.current = null;
      cancelWarm();
      cancelAnimationFrame(frame);
      resize.disconnect();
      themeChange.disconnect();
      data.dispose();
      t.dispose();
    };
  }, [userId]);

  useEffect(() => {
    if (promptFocusSignal > 0) term.current?.focus();
  }, [promptFocusSignal]);

  return <div ref={host} className="terminal-pane" data-testid="terminal" />;
}
