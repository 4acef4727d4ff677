// The people who play: stable identities drawn from the seed and shared by every simulated
// server, as one person plays on several servers of a cluster with the same EOS account.

import type { Rng } from './random.ts';

export interface ConnectionDetails {
  success: boolean;
  countryCode: string;
  continentCode: string;
  timezone: string;
  vpn: boolean;
}

export interface PlayerIdentity {
  readonly playerId: string;
  readonly eosId: string;
  /** Changes now and then (playerRenamed). */
  name: string;
  readonly ipFingerprint: string;
  readonly connectionDetails: ConnectionDetails;
  /** The language this player usually chats in. */
  readonly language: string;
}

interface Region {
  countryCode: string;
  continentCode: string;
  timezone: string;
  languages: readonly string[];
}

const REGIONS: readonly Region[] = [
  { countryCode: 'US', continentCode: 'NA', timezone: 'America/Chicago', languages: ['en', 'es'] },
  { countryCode: 'GB', continentCode: 'EU', timezone: 'Europe/London', languages: ['en'] },
  { countryCode: 'DE', continentCode: 'EU', timezone: 'Europe/Berlin', languages: ['de', 'en'] },
  { countryCode: 'FR', continentCode: 'EU', timezone: 'Europe/Paris', languages: ['fr'] },
  { countryCode: 'ES', continentCode: 'EU', timezone: 'Europe/Madrid', languages: ['es'] },
  { countryCode: 'MX', continentCode: 'NA', timezone: 'America/Mexico_City', languages: ['es'] },
  { countryCode: 'JP', continentCode: 'AS', timezone: 'Asia/Tokyo', languages: ['ja'] },
  { countryCode: 'BR', continentCode: 'SA', timezone: 'America/Sao_Paulo', languages: ['pt', 'en'] },
  { countryCode: 'AU', continentCode: 'OC', timezone: 'Australia/Sydney', languages: ['en'] },
];

const FIRST = [
  'Rex',
  'Mia',
  'Dodo',
  'Raptor',
  'Kai',
  'Luna',
  'Jonas',
  'Chloé',
  'Hiro',
  'Sofía',
  'Ana',
  'Bjorn',
];
const LAST = [
  'Hunter',
  'Stone',
  'Tamer',
  'Breeder',
  'Walker',
  'Müller',
  'Tanaka',
  'García',
  'Dubois',
  'Rivers',
];
const TAGS = [
  'xXDodoSlayerXx',
  'TekTitan',
  'ArgyHugger',
  'GigaNut',
  'Pteranodont',
  'BaseRaider',
  'SnailMail',
];
/**
 * Names a console must show as text, never as markup or terminal controls: a few players carry
 * them, so every view that shows a name is exercised against them during a demo.
 */
export const HOSTILE_NAMES = [
  '<img src=x onerror=alert(1)>',
  '\u001b]52;c;cHduZWQ=\u0007Clippy',
  '\u001b[2J\u001b[31mRedAlert',
  'Bob\u202eydnaC',
] as const;

export function randomName(rng: Rng): string {
  if (rng.chance(0.02)) return rng.pick(HOSTILE_NAMES);
  if (rng.chance(0.3)) return `${rng.pick(TAGS)}${rng.int(100)}`;
  return `${rng.pick(FIRST)} ${rng.pick(LAST)}`;
}

export function createIdentity(rng: Rng): PlayerIdentity {
  const region = rng.pick(REGIONS);
  const vpn = rng.chance(0.05);
  return {
    playerId: rng.uuid(),
    eosId: `0002${rng.hex(28)}`,
    name: randomName(rng),
    ipFingerprint: rng.hex(64),
    connectionDetails: {
      success: true,
      countryCode: region.countryCode,
      continentCode: region.continentCode,
      timezone: region.timezone,
      vpn,
    },
    language: rng.pick(region.languages),
  };
}

export function createPopulation(rng: Rng, size: number): PlayerIdentity[] {
  return Array.from({ length: size }, () => createIdentity(rng));
}
