-- Migration 4: notes and bookmarks on entries.
--
-- A player's annotations beside a battle's log: a bookmark on an entry
-- ("the turning point") and a note in words on it. They are not game facts:
-- no entry record refers to them, they are not hashed into the battle's chain
-- and `verify` never reads them, so writing, editing or deleting one changes
-- nothing a battle replays. One row per annotated entry; a row with neither a
-- bookmark nor a note is deleted rather than kept.
--
-- No foreign key to battles or entries, as for the entries table: the store
-- checks the battle and the entry before it writes.
CREATE TABLE notes (
    battle   INTEGER NOT NULL,
    entry    INTEGER NOT NULL,                  -- engine entry id
    bookmark INTEGER NOT NULL DEFAULT 0 CHECK (bookmark IN (0, 1)),
    text     TEXT    NOT NULL DEFAULT '',       -- the note; '' for none
    created  INTEGER NOT NULL,                  -- unix seconds
    updated  INTEGER NOT NULL,
    PRIMARY KEY (battle, entry)
) WITHOUT ROWID;
