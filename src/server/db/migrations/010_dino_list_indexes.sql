-- The dino list (SENTINEL-API §3.11) sorts by display name, the name or else the species, after
-- its filters: with a million dinos a sort of every matching row per page was the cost. These
-- indexes hold live dinos in that order (the expression of src/server/model/dino.ts, with the
-- id as the tiebreak), overall and within each filter that names one value: server, tribe,
-- status. A page is then the first rows of one index scan.
CREATE INDEX dinos_display_idx ON dinos (lower(coalesce(nullif(name, ''), species)), dino_id)
  WHERE NOT deleted;
CREATE INDEX dinos_service_display_idx ON dinos (service_id, lower(coalesce(nullif(name, ''), species)), dino_id)
  WHERE NOT deleted;
CREATE INDEX dinos_tribe_display_idx ON dinos (tribe_id, lower(coalesce(nullif(name, ''), species)), dino_id)
  WHERE NOT deleted;
CREATE INDEX dinos_status_display_idx ON dinos (status, lower(coalesce(nullif(name, ''), species)), dino_id)
  WHERE NOT deleted;
