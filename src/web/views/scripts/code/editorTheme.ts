// The editor in the console's colours: only theme.css variables, so it follows the light and dark
// themes, and only text colours that theme-contrast.test.ts keeps at 4.5:1 on every surface.

import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { EditorView } from '@codemirror/view';
import { tags as t } from '@lezer/highlight';

const chrome = EditorView.theme({
  '&': {
    color: 'var(--fg)',
    backgroundColor: 'var(--bg)',
    border: '1px solid var(--border)',
    borderRadius: 'var(--radius)',
    fontSize: 'var(--fs)',
  },
  '&.cm-focused': { outline: '2px solid var(--focus)', outlineOffset: '1px' },
  '.cm-scroller': { fontFamily: 'var(--mono)', lineHeight: '1.5' },
  '.cm-content': { caretColor: 'var(--fg)' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--fg)' },
  '&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, ::selection':
    { backgroundColor: 'var(--accent-soft)' },
  '.cm-gutters': {
    backgroundColor: 'var(--bg-alt)',
    color: 'var(--fg-muted)',
    borderRight: '1px solid var(--border)',
  },
  '&.cm-focused .cm-matchingBracket': {
    backgroundColor: 'var(--accent-soft)',
    outline: '1px solid var(--border)',
  },
  '&.cm-focused .cm-nonmatchingBracket': { color: 'var(--danger)' },
  '.cm-tooltip': {
    backgroundColor: 'var(--bg-raised)',
    color: 'var(--fg)',
    border: '1px solid var(--border)',
    borderRadius: 'var(--radius)',
    boxShadow: 'var(--shadow)',
  },
  // The list shows a page of options at a time (COMPLETION_PAGE) and never scrolls: a scrolling box
  // would have to take the focus to be scrolled by keyboard, where the code keeps it and moves the
  // selection with the arrows.
  '.cm-tooltip.cm-tooltip-autocomplete > ul': {
    fontFamily: 'var(--mono)',
    maxHeight: 'none',
    overflow: 'hidden',
  },
  '.cm-tooltip.cm-tooltip-autocomplete > ul > li[aria-selected]': {
    backgroundColor: 'var(--accent)',
    color: 'var(--accent-fg)',
  },
  '.cm-completionDetail': { color: 'inherit', fontStyle: 'normal', marginLeft: '0.75em' },
  '.cm-completionMatchedText': { textDecoration: 'underline', fontWeight: 'bold' },
  '.cm-completionInfo': { maxWidth: 'var(--tooltip-max)', padding: '4px 8px' },
  '.cm-diagnostic': { padding: '4px 8px' },
  '.cm-diagnostic-error': { borderLeft: '4px solid var(--danger)' },
  '.cm-panel.cm-panel-lint': { backgroundColor: 'var(--bg-raised)', color: 'var(--fg)' },
  '.cm-panel.cm-panel-lint ul [aria-selected]': {
    backgroundColor: 'var(--accent)',
    color: 'var(--accent-fg)',
  },
  '.cm-panels': { backgroundColor: 'var(--bg-alt)', color: 'var(--fg)' },
  '.cm-panels.cm-panels-bottom': { borderTop: '1px solid var(--border)' },
});

const highlight = HighlightStyle.define([
  {
    tag: [t.keyword, t.controlKeyword, t.definitionKeyword, t.moduleKeyword, t.operatorKeyword],
    color: 'var(--accent)',
  },
  { tag: [t.string, t.special(t.string), t.regexp], color: 'var(--success)' },
  { tag: [t.number, t.bool, t.null, t.atom], color: 'var(--warning)' },
  { tag: t.comment, color: 'var(--fg-muted)', fontStyle: 'italic' },
  { tag: t.invalid, color: 'var(--danger)' },
]);

export const editorTheme = [chrome, syntaxHighlighting(highlight)];

/** Options the completion list shows at once; the arrows page through the rest. */
export const COMPLETION_PAGE = 10;
