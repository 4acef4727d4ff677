import { describe, expect, it } from 'vitest';
import { isShellKey, type KeyPress } from '../../src/web/terminal/shellKeys.ts';

const press = (key: string, mods: Partial<KeyPress> = {}): KeyPress => ({
  key,
  code: /^[a-z]$/i.test(key) ? `Key${key.toUpperCase()}` : key,
  ctrlKey: false,
  altKey: false,
  metaKey: false,
  shiftKey: false,
  ...mods,
});
const idle = { searching: false, hasSelection: false };

describe('isShellKey', () => {
  it('keeps typing and the line editor chords in the console', () => {
    for (const k of ['a', 'Enter', 'Tab', 'ArrowUp', 'Backspace', '`', ':'])
      expect(isShellKey(press(k), idle)).toBe(false);
    for (const k of ['a', 'e', 'u', 'w', 'c', 'l', 'r'])
      expect(isShellKey(press(k, { ctrlKey: true }), idle)).toBe(false);
    expect(isShellKey(press('b', { altKey: true }), idle)).toBe(false);
    expect(isShellKey(press('∫', { altKey: true, code: 'KeyB' }), idle)).toBe(false);
  });

  it('hands pane, palette and function keys to the shell', () => {
    expect(isShellKey(press('F6'), idle)).toBe(true);
    expect(isShellKey(press('F6', { shiftKey: true }), idle)).toBe(true);
    expect(isShellKey(press('\\', { ctrlKey: true, code: 'Backslash' }), idle)).toBe(true);
    expect(isShellKey(press('k', { metaKey: true }), idle)).toBe(true);
    expect(isShellKey(press('k', { ctrlKey: true }), idle)).toBe(true);
    expect(isShellKey(press('K', { ctrlKey: true, shiftKey: true }), idle)).toBe(true);
  });

  it('gives Esc to the shell unless a history search is open', () => {
    expect(isShellKey(press('Escape'), idle)).toBe(true);
    expect(isShellKey(press('Escape'), { searching: true, hasSelection: false })).toBe(false);
  });

  it('lets Ctrl+C copy a selection instead of interrupting', () => {
    expect(isShellKey(press('c', { ctrlKey: true }), { searching: false, hasSelection: true })).toBe(true);
  });
});
