import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// WCAG 2.1 AA 1.4.3: text needs 4.5:1 against what is behind it. The browser test checks the
// light theme on the screens; this checks every text colour of both themes on every surface,
// including the accent tint of active and marked rows laid over each of them.

type Rgb = [number, number, number];

const css = readFileSync(new URL('../../src/web/app/theme.css', import.meta.url), 'utf8');

/** The custom properties of the rule whose selector is `selector`. */
function variables(selector: string): Map<string, string> {
  const start = css.indexOf(`${selector} {`);
  const body = css.slice(start, css.indexOf('}', start));
  return new Map([...body.matchAll(/(--[\w-]+):\s*([^;]+);/g)].map((m) => [m[1], m[2].trim()]));
}

const THEMES = {
  light: variables(':root'),
  dark: new Map([...variables(':root'), ...variables(':root[data-theme="dark"]')]),
};

/** `#rrggbb` or `rgb(r g b / a)` → colour and alpha. */
function parse(value: string): { rgb: Rgb; alpha: number } {
  const hex = /^#([0-9a-f]{6})$/i.exec(value);
  if (hex) return { rgb: [0, 2, 4].map((i) => Number.parseInt(hex[1].slice(i, i + 2), 16)) as Rgb, alpha: 1 };
  const rgb = /^rgb\((\d+) (\d+) (\d+)(?: \/ ([\d.]+))?\)$/.exec(value);
  if (!rgb) throw new Error(`not a colour: ${value}`);
  return { rgb: [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])], alpha: Number(rgb[4] ?? 1) };
}

const over = (top: string, below: Rgb): Rgb => {
  const { rgb, alpha } = parse(top);
  return rgb.map((c, i) => c * alpha + below[i] * (1 - alpha)) as Rgb;
};

function luminance(rgb: Rgb): number {
  const [r, g, b] = rgb.map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

const TEXT = ['--fg', '--fg-muted', '--accent', '--danger', '--warning', '--success'];
const SURFACES = ['--bg', '--bg-alt', '--bg-raised'];

describe.each(Object.entries(THEMES))('the %s theme', (_, vars) => {
  const colour = (name: string) => {
    const v = vars.get(name);
    if (!v) throw new Error(`${name} is not set`);
    return v;
  };
  const surfaces = SURFACES.flatMap((s): [string, Rgb][] => {
    const base = parse(colour(s)).rgb;
    return [
      [s, base],
      [`--accent-soft on ${s}`, over(colour('--accent-soft'), base)],
    ];
  });

  it.each(TEXT)('%s is legible (4.5:1) on every surface', (text) => {
    const fg = parse(colour(text)).rgb;
    const low = surfaces
      .map(([name, bg]) => ({ name, ratio: Math.round(contrast(fg, bg) * 100) / 100 }))
      .filter((s) => s.ratio < 4.5);
    expect(low).toEqual([]);
  });

  it('--accent-fg is legible on --accent', () => {
    expect(contrast(parse(colour('--accent-fg')).rgb, parse(colour('--accent')).rgb)).toBeGreaterThanOrEqual(
      4.5,
    );
  });
});
