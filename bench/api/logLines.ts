// The benches' log lines, made in the database by generate_series (TOOLCHAIN §4): eight kinds of
// event over the given services, line n at n × 2.5 s before now, a player in metadata, and words
// the text search scenario looks for in a known share of lines. The ids are UUID v7 of the line's
// time, as the server makes them, and the lines are written oldest first, as the game writes them
// (an index fills its pages differently when its keys arrive in reverse).

import type { Queryable } from '../../src/server/db/db.ts';

/** Lines n = newer + 1 … newer + rows: `newer` lines are left for a later call, which writes them. */
export async function insertBenchLogLines(
  db: Queryable,
  serviceIds: string[],
  rows: number,
  newer = 0,
): Promise<void> {
  await db.query(
    `INSERT INTO log_messages (message_id, service_id, event_name, type, level, time, metadata, message)
     SELECT (lpad(to_hex((extract(epoch FROM t) * 1000)::bigint), 12, '0') || '7' || substr(h, 1, 3) || '8' || substr(h, 4, 15))::uuid,
            ($1::uuid[])[1 + i % cardinality($1::uuid[])],
            (ARRAY['chat','playerJoined','playerLeft','dinoTamed','dinoDied','structureDestroyed','tribeCreated','problemDetected'])[1 + i % 8],
            CASE WHEN i % 8 = 7 THEN 'Service' ELSE 'Gameplay' END,
            (ARRAY['Informational','Informational','Notice','Warning','Informational','Notice','Informational','Warning'])[1 + i % 8],
            t,
            jsonb_build_object('playerId', md5((i % 5000)::text)::uuid),
            (ARRAY['Rex','Raptor','Dodo','Argentavis','Giganotosaurus','Trike','Parasaur','Stegosaurus'])[1 + (i / 8) % 8] || ' ' ||
            (ARRAY['was tamed near the volcano','attacked the base','joined the server','left the server',
                   'says hello everyone','was killed by a turret','found metal in the cave','raided the swamp'])[1 + (i / 64) % 8] ||
            ' #' || i
       FROM generate_series($3::int + $2::int, $3::int + 1, -1) AS i, LATERAL (SELECT now() - make_interval(secs => i * 2.5) AS t, md5(i::text) AS h) AS at`,
    [serviceIds, rows, newer],
  );
}
