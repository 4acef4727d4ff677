// The keys a chart handles itself while it has focus: choosing a time range by keyboard as a
// pointer drags one. Reserved in the registry's chart scope, so the shortcuts dialog shows them
// and a command cannot take one.

import { reservedKeys } from './registry.ts';

const chartKey = reservedKeys('chart');

export const CHART_KEYS = [
  chartKey('chart.previous', 'Previous bar', 'arrowleft'),
  chartKey('chart.next', 'Next bar', 'arrowright'),
  chartKey('chart.first', 'First bar', 'home'),
  chartKey('chart.last', 'Last bar', 'end'),
  chartKey('chart.extendPrevious', 'Widen the range to the previous bar', 'shift+arrowleft'),
  chartKey('chart.extendNext', 'Widen the range to the next bar', 'shift+arrowright'),
  chartKey('chart.apply', 'Filter the list to the range', 'enter'),
  chartKey('chart.clear', 'Clear the range', 'escape'),
];

export type ChartKeyId = (typeof CHART_KEYS)[number]['id'];
