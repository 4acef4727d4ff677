// Durations as admins type them: `7d`, `12h`, `1w2d`, `30m`; blank means permanent (SPEC §5 bans).

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400, w: 604800, y: 31536000 };
const PART = /(\d+(?:\.\d+)?)\s*([smhdwy])/gy;

export const DURATION_MESSAGE = 'Use a duration like 30m, 12h, 7d or 2w, or leave it blank for permanent.';

/** Seconds, or null for permanent (blank, "perm", "permanent", "never"). Throws the message on bad input. */
export function parseDuration(text: string): number | null {
  const t = text.trim().toLowerCase();
  if (t === '' || t === 'perm' || t === 'permanent' || t === 'never') return null;
  PART.lastIndex = 0;
  let total = 0;
  let at = 0;
  while (at < t.length) {
    PART.lastIndex = at;
    const m = PART.exec(t);
    if (!m) throw new Error(DURATION_MESSAGE);
    total += Number(m[1]) * UNIT_SECONDS[m[2]];
    at = PART.lastIndex;
    while (t[at] === ' ') at++;
  }
  if (total <= 0) throw new Error(DURATION_MESSAGE);
  return Math.round(total);
}

export function formatDuration(seconds: number | null): string {
  if (seconds === null) return 'permanent';
  const units: [string, number][] = [
    ['w', 604800],
    ['d', 86400],
    ['h', 3600],
    ['m', 60],
    ['s', 1],
  ];
  let rest = seconds;
  let out = '';
  for (const [u, n] of units) {
    if (rest >= n) {
      out += `${Math.floor(rest / n)}${u}`;
      rest %= n;
    }
  }
  return out || '0s';
}
