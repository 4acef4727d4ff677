// What every uPlot chart of the console shares: colours read from the theme when a chart is
// drawn, drawn again when the theme changes, and the axes in those colours.

import { useEffect, useState } from 'react';
import type uPlot from 'uplot';

/** A theme colour by its custom property's name. */
export const themeColour = (name: string) =>
  getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#9c0fb0';

/** A time axis and a value axis `size` px wide, in the theme's muted colour over its borders. */
export function themedAxes(size = 36): uPlot.Axis[] {
  const axis = { stroke: themeColour('--fg-muted'), grid: { stroke: themeColour('--border'), width: 1 } };
  return [axis, { ...axis, size }];
}

const themeInForce = () => document.documentElement.dataset.theme ?? 'light';

/**
 * The theme in force ('light' or 'dark', from applyTheme), kept current: a chart draws its colours
 * once, so it is drawn again when this changes.
 */
export function useTheme(): string {
  const [theme, setTheme] = useState(themeInForce);
  useEffect(() => {
    const watch = new MutationObserver(() => setTheme(themeInForce()));
    watch.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => watch.disconnect();
  }, []);
  return theme;
}
