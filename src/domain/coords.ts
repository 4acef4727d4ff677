// Coordinates for teleport and the locator: `x y z` or `x,y,z`; `~` prefixes make a value relative.

export interface Coords {
  x: number | null;
  y: number | null;
  z: number | null;
  relative: boolean;
}

export const COORDS_MESSAGE = 'Enter coordinates as "x y z" (numbers; ~ for relative, _ to keep a value).';

export function parseCoords(text: string): Coords {
  const parts = text
    .trim()
    .split(/[\s,]+/)
    .filter(Boolean);
  if (parts.length === 0 || parts.length > 3) throw new Error(COORDS_MESSAGE);
  const relative = parts.some((p) => p.startsWith('~'));
  const values = parts.map((p) => {
    const body = p.replace(/^~/, '');
    if (body === '_' || body === '') return null;
    const n = Number(body);
    if (!Number.isFinite(n)) throw new Error(COORDS_MESSAGE);
    return n;
  });
  if (values.every((v) => v === null)) throw new Error(COORDS_MESSAGE);
  return { x: values[0] ?? null, y: values[1] ?? null, z: values[2] ?? null, relative };
}

export function formatLocator(
  c: { x: number; y: number; z: number; lat?: number; lon?: number },
  format: string,
) {
  const f = (n: number) => n.toFixed(2);
  if (format === 'GPS') return `${(c.lat ?? 0).toFixed(1)}, ${(c.lon ?? 0).toFixed(1)}`;
  if (format === 'CopyCoordsToClipboard') return `${f(c.x)} ${f(c.y)} ${f(c.z)}`;
  return `SetPlayerPos ${f(c.x)} ${f(c.y)} ${f(c.z)}`;
}
