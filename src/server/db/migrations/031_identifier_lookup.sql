-- Players are looked up by their game id whatever its case (a ban list, a lookup, a ban's
-- command): `lower(identifier)` had no index, so each look-up read the whole table, and a
-- 30,000-line ban import, a batch of 1,000 ids at a time, read it thirty times while adding to it.
CREATE INDEX player_identifiers_lower_idx ON player_identifiers (lower(identifier));
