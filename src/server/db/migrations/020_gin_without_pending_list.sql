-- GIN indexes of tables written as the game plays, updated in place (issue 11). With fastupdate a
-- GIN index gathers new entries in a pending list and merges it into the index once it passes
-- gin_pending_list_limit (4 MB), inside whichever insert crosses the limit: on embedded PGlite,
-- where every request waits for the running statement, one in ~26,000 log lines stalled the
-- whole server for ~200 ms (bench/api). In place, a line costs ~5 % more and nothing stalls.
ALTER INDEX log_messages_message_fts SET (fastupdate = off);
ALTER INDEX log_messages_metadata_idx SET (fastupdate = off);
ALTER INDEX activity_services_idx SET (fastupdate = off);
ALTER INDEX activity_groups_idx SET (fastupdate = off);
ALTER INDEX dinos_display_words_idx SET (fastupdate = off);
ALTER INDEX dinos_display_trgm_idx SET (fastupdate = off);
