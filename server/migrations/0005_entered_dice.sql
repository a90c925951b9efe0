-- Battles created with dice entered by hand (no row: the server rolls from
-- the fair seed). Session 14 made this table when a club file was opened
-- (`CREATE TABLE IF NOT EXISTS`), while the take-back branch's migration 4
-- was on its way; it is a migration now. `IF NOT EXISTS`: a club file of
-- session 14 (at version 4) already has it, with its rows.
CREATE TABLE IF NOT EXISTS server_battle_dice (
    server_battle INTEGER PRIMARY KEY REFERENCES server_battles(id),
    mode          TEXT    NOT NULL CHECK (mode = 'entered')
);
