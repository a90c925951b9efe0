-- The club file: who may do what on this server (DESIGN.md section 4).
-- Tokens and invitation codes are stored only as their BLAKE3 hashes.
PRAGMA application_id = 1481526339; -- 'XNLC'

CREATE TABLE tokens (
    id        INTEGER PRIMARY KEY,
    hash      BLOB    NOT NULL UNIQUE,
    role      TEXT    NOT NULL CHECK (role IN ('organiser', 'player', 'spectator')),
    label     TEXT    NOT NULL,
    created   INTEGER NOT NULL,
    last_used INTEGER,
    revoked   INTEGER
);

-- What a token opens: a campaign, a battle of it, a seat of that battle
-- (filled by seat invitations, step S4).
CREATE TABLE grants (
    token    INTEGER NOT NULL REFERENCES tokens(id),
    campaign INTEGER NOT NULL,
    battle   INTEGER,
    seat     INTEGER
);
CREATE INDEX grants_by_token ON grants(token);

CREATE TABLE invitations (
    id       INTEGER PRIMARY KEY,
    hash     BLOB    NOT NULL UNIQUE,
    role     TEXT    NOT NULL CHECK (role IN ('organiser', 'player', 'spectator')),
    label    TEXT    NOT NULL,
    campaign INTEGER,
    battle   INTEGER,
    seat     INTEGER,
    created  INTEGER NOT NULL,
    expires  INTEGER NOT NULL,
    -- the token that redeemed it (spent once)
    spent_by INTEGER REFERENCES tokens(id),
    -- superseded before use (a new organiser invitation printed at a start)
    void     INTEGER NOT NULL DEFAULT 0
);

-- The campaigns this server hosts, one campaign file each (step S4).
CREATE TABLE campaigns (
    id      INTEGER PRIMARY KEY,
    file    TEXT    NOT NULL UNIQUE,
    name    TEXT    NOT NULL,
    created INTEGER NOT NULL
);
