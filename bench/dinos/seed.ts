// Bench data for the dino list (issue 13): `rows` dinos over the given services, 50 tribes per
// service, species and class paths of the game's tameable creatures
// (the shared catalogue of the game's class paths), statuses in a fleet's
// proportions, and names from a pool of made-up pet names, two in five dinos left unnamed (their
// display name is the species). Bulk-inserted with generate_series; indexes built after the load.

import { readFileSync } from 'node:fs';
import type { Queryable } from '../../src/server/db/db.ts';

const CATALOGUE = '/work/shared/data/ark-blueprints.json';
interface Creature {
  name: string;
  path: string;
  tameable: boolean;
}

export const TRIBES_PER_SERVICE = 50;

const FIRST = [
  'Ka',
  'Ro',
  'Bel',
  'Tor',
  'Mi',
  'Zan',
  'Dru',
  'Fen',
  'Gor',
  'Li',
  'Mor',
  'Nix',
  'Pip',
  'Rag',
  'Sha',
  'Vel',
];
const MIDDLE = ['', 'a', 'ri', 'do', 'le', 'ma', 'nu', 'ko'];
const LAST = ['n', 'x', 'la', 'th', 'ra', 'go', 'bi', 'sk', 'ly', 'mo', 'der', 'zz'];

/** 1,536 pronounceable names, each given to a few hundred of a million dinos. */
export const NAMES = FIRST.flatMap((f) => MIDDLE.flatMap((m) => LAST.map((l) => f + m + l)));

export interface SeededDinos {
  tribeIds: string[];
  species: string[];
  names: string[];
  dinoIds: string[];
}

export async function seedDinos(db: Queryable, serviceIds: string[], rows: number): Promise<SeededDinos> {
  const creatures: Creature[] = JSON.parse(readFileSync(CATALOGUE, 'utf8')).creatures;
  const tameable = creatures.filter((c) => c.tameable);
  const species = tameable.map((c) => c.name);
  const paths = tameable.map((c) => c.path);
  await db.query(
    `INSERT INTO tribes (service_id, tribe_number, name)
     SELECT ($1::uuid[])[1 + i % cardinality($1::uuid[])], i, 'Tribe of ' || ($2::text[])[1 + (i * 7) % cardinality($2::text[])]
       FROM generate_series(0, $3::int - 1) AS i`,
    [serviceIds, NAMES, serviceIds.length * TRIBES_PER_SERVICE],
  );
  const { rows: tribes } = await db.query<{ ids: string[] }>(
    'SELECT array_agg(tribe_id ORDER BY tribe_number) AS ids FROM tribes',
  );
  const tribeIds = tribes[0].ids;
  const { rows: indexes } = await db.query<{ name: string; def: string }>(
    `SELECT indexname AS name, indexdef AS def FROM pg_indexes
      WHERE tablename = 'dinos' AND schemaname = current_schema() AND indexname NOT IN
        (SELECT conname FROM pg_constraint WHERE conrelid = 'dinos'::regclass)`,
  );
  for (const i of indexes) await db.exec(`DROP INDEX ${i.name}`);
  // Dino i lives on service i mod S, in one of that service's tribes (tribe t is on service t mod S),
  // one in twenty in none. Species are skewed as in a game: the first creatures far more often.
  await db.query(
    `INSERT INTO dinos (service_id, tribe_id, dino_number64, name, species, species_path, level, age, status, gender)
     SELECT ($1::uuid[])[1 + i % s], CASE WHEN i % 20 = 7 THEN NULL ELSE ($2::uuid[])[1 + i % s + s * ((i / s) % $6::int)] END,
            (i::numeric * 4294967296) + (i::bigint * 7919) % 4294967296,
            CASE WHEN i % 5 < 2 THEN '' ELSE ($3::text[])[1 + (i * 31) % cardinality($3::text[])] END,
            ($4::text[])[sp], ($5::text[])[sp],
            1 + (i * 13) % 450, ((i * 17) % 100) / 100.0,
            (ARRAY['Deployed','Deployed','Deployed','Deployed','Deployed','Deployed','Deployed','Frozen','Frozen','Frozen','Frozen','Frozen','Uploaded','Dead'])[1 + (i * 11) % 14],
            (ARRAY['Female','Male','None'])[1 + i % 3]
       FROM (SELECT i, cardinality($1::uuid[]) AS s,
                    1 + floor(cardinality($4::text[]) * power(((i * 2654435761::bigint) % 1000003) / 1000003.0, 2))::int AS sp
               FROM generate_series(0, $7::int - 1) AS i) g`,
    [serviceIds, tribeIds, NAMES, species, paths, TRIBES_PER_SERVICE, rows],
  );
  for (const i of indexes) await db.exec(i.def);
  await db.exec('VACUUM ANALYZE dinos');
  await db.exec('VACUUM ANALYZE tribes');
  const { rows: sample } = await db.query<{ id: string }>(
    'SELECT dino_id AS id FROM dinos TABLESAMPLE SYSTEM (1) LIMIT 1000',
  );
  return { tribeIds, species, names: NAMES, dinoIds: sample.map((r) => r.id) };
}
