-- Migration 1: a campaign and its battles.
--
-- One SQLite file holds one campaign. A battle is a self-contained event log:
-- what identifies its stream and rules (game, seed, rules version, config),
-- its branches, its entries and the snapshots that make seeking fast, plus the
-- player's position in it (cursor and current branch) and a cached summary of
-- how it stands (status, result). Entries and snapshots are postcard records in
-- a versioned envelope (see `xenolog_schema::codec`); the SQL only keys them.
--
-- Integers: a u64 (seed, entry ids) is stored as SQLite's signed 64-bit
-- INTEGER with the same bit pattern (`as i64` / `as u64`), so every seed
-- round-trips exactly even above i64::MAX.
--
-- Room for Alien Invasion (roadmap step 6, not built now). A club campaign
-- keeps rosters whose models carry experience and skills from battle to
-- battle. Those are campaign-level facts that outlive any one battle, so they
-- will arrive in a later numbered migration as new tables beside these ones,
-- keyed by the battle ids below, for example:
--   rosters(id, name, faction, created),
--   models(roster, id, name, kind, experience, skills, status),
--   battle_rosters(battle, roster, side): which rosters fought a battle,
--   experience(battle, model, gained, reason): written once when a battle ends.
-- Nothing here has to change for that: a battle stays a replayable log, and the
-- campaign layer reads its outcome to award experience. The campaign row below
-- is the natural place for campaign-wide settings (a nullable column or a
-- key/value table added by that migration).

-- 'XNLG': marks the file as a Xenolog campaign, so another SQLite file is
-- refused with a clear error instead of being migrated into one.
PRAGMA application_id = 1481526343;

CREATE TABLE campaign (
    id      INTEGER PRIMARY KEY CHECK (id = 1), -- exactly one row
    name    TEXT    NOT NULL,
    created INTEGER NOT NULL                    -- unix seconds
);

CREATE TABLE battles (
    id            INTEGER PRIMARY KEY,
    game          TEXT    NOT NULL,             -- engine game id, e.g. 'dimx'
    title         TEXT    NOT NULL,
    seed          INTEGER NOT NULL,             -- u64 bit pattern
    rules_version INTEGER NOT NULL,
    config        TEXT    NOT NULL,             -- the game's config as JSON
    dice_mode     TEXT    NOT NULL CHECK (dice_mode IN ('rolled', 'entered')),
    cursor        INTEGER,                      -- entry id; NULL: at the setup
    branch        INTEGER NOT NULL DEFAULT 0,   -- current branch id
    status        TEXT    NOT NULL DEFAULT 'in progress'
                          CHECK (status IN ('in progress', 'over')),
    result        TEXT,                         -- outcome summary when over
    created       INTEGER NOT NULL,             -- unix seconds
    updated       INTEGER NOT NULL
);

-- Branch 0 of every battle is its main line.
CREATE TABLE branches (
    battle INTEGER NOT NULL,
    id     INTEGER NOT NULL,
    name   TEXT    NOT NULL,
    parent INTEGER,                             -- branch it parted from
    fork   INTEGER,                             -- entry after which it parted
    PRIMARY KEY (battle, id)
) WITHOUT ROWID;

-- The log. WITHOUT ROWID with the key (battle, seq) makes the table its own
-- index: one B-tree, no rowid and no second index to keep, so an entry costs
-- its key and its record, and loading a battle is one in-order range scan.
-- No foreign key to battles: that would cost a lookup on every append, and
-- the store only inserts entries of battles it has just read.
CREATE TABLE entries (
    battle INTEGER NOT NULL,
    seq    INTEGER NOT NULL,                    -- engine entry id: 0, 1, 2...
    record BLOB    NOT NULL,                    -- codec::encode_entry
    PRIMARY KEY (battle, seq)
) WITHOUT ROWID;

-- A snapshot of the state every SNAPSHOT_EVERY entries of depth. A cache:
-- the engine rebuilds missing ones, and verify checks stored ones.
CREATE TABLE snapshots (
    battle INTEGER NOT NULL,
    seq    INTEGER NOT NULL,
    state  BLOB    NOT NULL,                    -- codec::encode_snapshot
    PRIMARY KEY (battle, seq)
) WITHOUT ROWID;
