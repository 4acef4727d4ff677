-- A bucket's name is unique per owner in any case (SPEC §3): "Economy" and "economy" would be one
-- bucket to whoever types its name in the console or the palette. Names that already differ only
-- in case: the first by id keeps its name, the others get a number, so nothing is lost.
UPDATE buckets b SET name = b.name || ' (' || d.n || ')'
  FROM (SELECT bucket_id, row_number() OVER (PARTITION BY user_id, lower(name) ORDER BY bucket_id) - 1 AS n
          FROM buckets) d
 WHERE d.bucket_id = b.bucket_id AND d.n > 0;
ALTER TABLE buckets DROP CONSTRAINT buckets_user_id_name_key;
CREATE UNIQUE INDEX buckets_owner_name_idx ON buckets (user_id, lower(name));
