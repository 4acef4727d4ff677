-- The fleet's distinct dino display names and species (issue 13: searches among a million dinos).
-- A name search of the dinos themselves found a name's few hundred dinos through the words and
-- trigram indexes, rechecked each on the table, and read them again for the page: 8-10 ms of
-- database time a search. A species search skipped through the species index, one probe per
-- species, 10 ms. Searched here, each finds the few names or species that match, and the page
-- walks an index from each one as far as the page (model/dino.ts).
--
-- Kept by triggers: a statement trigger for inserts, so a bulk load adds its names in one
-- statement, and a row trigger for renames. A name no dino carries any more stays: it matches no
-- dino, and the tables hold one row per name ever given, far fewer than the dinos.
CREATE TABLE dino_display_names (display text PRIMARY KEY);
CREATE TABLE dino_species (species text PRIMARY KEY);
INSERT INTO dino_display_names (display) SELECT DISTINCT coalesce(nullif(name, ''), species) FROM dinos;
INSERT INTO dino_species (species) SELECT DISTINCT species FROM dinos;
-- The same expressions as the search (http/listQuery.ts searchSql), as for the dinos' own. The
-- species are a few hundred, read whole.
CREATE INDEX dino_display_names_words_idx ON dino_display_names
  USING gin (to_tsvector('english', coalesce(display, '')));
CREATE INDEX dino_display_names_trgm_idx ON dino_display_names USING gin (display gin_trgm_ops);

CREATE FUNCTION dino_search_names_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO dino_display_names (display)
    SELECT DISTINCT coalesce(nullif(n.name, ''), n.species) FROM added n
  ON CONFLICT DO NOTHING;
  INSERT INTO dino_species (species) SELECT DISTINCT n.species FROM added n ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
CREATE TRIGGER dino_search_names_added AFTER INSERT ON dinos
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION dino_search_names_added();

CREATE FUNCTION dino_search_names_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO dino_display_names (display) VALUES (coalesce(nullif(NEW.name, ''), NEW.species))
  ON CONFLICT DO NOTHING;
  INSERT INTO dino_species (species) VALUES (NEW.species) ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
CREATE TRIGGER dino_search_names_changed AFTER UPDATE OF name, species ON dinos
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.species IS DISTINCT FROM NEW.species)
  EXECUTE FUNCTION dino_search_names_changed();
