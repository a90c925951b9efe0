-- The commands each seat sent, by the id its client gave them (step S4,
-- DESIGN.md section 3 "Replays and duplicates"): the same id again (a client
-- resending after a lost reply) decides nothing and is answered with the
-- entries the first one made. Written after the entries are durable in the
-- campaign file; a crash between the two leaves the id unrecorded, and the
-- resent command is then refused as stale (its `at` is no longer the head),
-- never decided twice.
CREATE TABLE server_commands (
    server_battle INTEGER NOT NULL REFERENCES server_battles(id),
    seat          INTEGER NOT NULL,
    cmd_id        TEXT    NOT NULL,
    entries       TEXT    NOT NULL,             -- JSON array of entry ids
    PRIMARY KEY (server_battle, seat, cmd_id)
);
