// What every chart of the console shares: uPlot charts drawn in the theme's colours (read when
// drawn, so drawn again when the theme changes) and kept their box's width, and the buttons that
// choose a chart's span.

import { type RefObject, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type uPlot from 'uplot';

/** Narrower than this, a chart's axes leave no room for the plot. */
const MIN_WIDTH = 200;

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
function useTheme(): string {
  const [theme, setTheme] = useState(themeInForce);
  useEffect(() => {
    const watch = new MutationObserver(() => setTheme(themeInForce()));
    watch.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => watch.disconnect();
  }, []);
  return theme;
}

/**
 * A uPlot chart in `box`, `height` px high and as wide as the box: made by `make` (memoised by the
 * caller: a new one draws anew, as a new theme does), destroyed with the view.
 */
export function usePlot(
  box: RefObject<HTMLElement | null>,
  height: number,
  make: ((el: HTMLElement, width: number) => uPlot) | null,
): RefObject<uPlot | null> {
  const theme = useTheme();
  const plot = useRef<uPlot | null>(null);
  // Made before the browser paints the commit that brought the data, so the chart shows in the
  // same frame as its caption, not one frame after it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: drawn again in the new theme's colours.
  useLayoutEffect(() => {
    const el = box.current;
    if (!el || !make) return;
    const p = make(el, Math.max(el.clientWidth, MIN_WIDTH));
    plot.current = p;
    const resize = new ResizeObserver(() =>
      p.setSize({ width: Math.max(el.clientWidth, MIN_WIDTH), height }),
    );
    resize.observe(el);
    return () => {
      resize.disconnect();
      p.destroy();
      plot.current = null;
    };
  }, [box, height, make, theme]);
  return plot;
}

/** The spans a chart offers, as pressed buttons reading `24h`, with the span in words as a hint. */
export function RangeButtons<I extends string>({
  label,
  ranges,
  value,
  onChange,
}: {
  /** What the buttons choose, for a screen reader (`Log volume range`). */
  label: string;
  ranges: readonly { id: I; title: string }[];
  value: NoInfer<I>;
  onChange(id: NoInfer<I>): void;
}) {
  return (
    <fieldset className="chart-ranges">
      <legend className="visually-hidden">{label}</legend>
      {ranges.map((r) => (
        <button
          key={r.id}
          type="button"
          className="ui-button ui-button-small"
          aria-pressed={value === r.id}
          title={`Last ${r.title}`}
          onClick={() => onChange(r.id)}
        >
          {r.id}
        </button>
      ))}
    </fieldset>
  );
}
