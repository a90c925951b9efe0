-- A battle fought over a shared campaign's rosters (issue 30: server
-- battles feed the campaign): the picks of each seat (`[{"seat", "roster",
-- "models"}]` as JSON), checked against the campaign when the battle is
-- created and used when its last seat joins, when the battle and the
-- campaign's "battle fought with these models" entry are written together.
-- NULL: a battle of no rosters, as every battle before this migration.
ALTER TABLE server_battles ADD COLUMN rosters TEXT;
