// The keys every list handles itself (DESIGN "Keyboard conventions"): moving, marking, opening.
// Reserved in the registry's list scope, so a command cannot take one of them and the shortcuts
// dialog shows them; `/`, Shift+F10 and `r` are commands of shell.ts.

import { reservedKeys } from './registry.ts';

const listKey = reservedKeys('list');

export const LIST_KEYS = [
  listKey('list.next', 'Next row', 'arrowdown', 'j'),
  listKey('list.previous', 'Previous row', 'arrowup', 'k'),
  listKey('list.first', 'First row', 'home'),
  listKey('list.last', 'Last row', 'end'),
  listKey('list.pageDown', 'A page down', 'pagedown'),
  listKey('list.pageUp', 'A page up', 'pageup'),
  listKey('list.markNext', 'Mark on to the next row', 'shift+arrowdown', 'shift+j'),
  listKey('list.markPrevious', 'Mark on to the previous row', 'shift+arrowup', 'shift+k'),
  listKey('list.markFirst', 'Mark on to the first row', 'shift+home'),
  listKey('list.markLast', 'Mark on to the last row', 'shift+end'),
  listKey('list.markPageDown', 'Mark a page down', 'shift+pagedown'),
  listKey('list.markPageUp', 'Mark a page up', 'shift+pageup'),
  listKey('list.mark', 'Mark or unmark the row for a bulk action', 'space'),
  listKey('list.open', 'Open the row', 'enter'),
  listKey('list.clear', 'Clear the filter, then the marks', 'escape'),
];

export type ListKeyId = (typeof LIST_KEYS)[number]['id'];
