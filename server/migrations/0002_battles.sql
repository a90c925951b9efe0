-- Battles created on the server and waiting for their seats (step S4,
-- DESIGN.md section 5). The server's secret is drawn and stored here, with
-- its commitment, before the commitment is published; each seat's nonce is
-- stored before its join is answered. When every seat has given its nonce
-- the battle is started in its campaign file (`battle` is filled): a battle
-- that has no seed yet is never a row a desktop Xenolog could open and play.
CREATE TABLE server_battles (
    id         INTEGER PRIMARY KEY,
    campaign   INTEGER NOT NULL REFERENCES campaigns(id),
    game       TEXT    NOT NULL,
    config     TEXT    NOT NULL,
    title      TEXT    NOT NULL,
    strict     INTEGER NOT NULL,
    seats      INTEGER NOT NULL,
    secret     BLOB    NOT NULL CHECK (length(secret) = 32),
    commitment BLOB    NOT NULL CHECK (length(commitment) = 32),
    created    INTEGER NOT NULL,
    battle     INTEGER
);

CREATE TABLE server_nonces (
    server_battle INTEGER NOT NULL REFERENCES server_battles(id),
    seat          INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 254),
    nonce         BLOB    NOT NULL CHECK (length(nonce) = 32),
    joined        INTEGER NOT NULL,
    PRIMARY KEY (server_battle, seat)
);
