-- Migration: the fair seeds of club battles (principle 13, issue 30).
--
-- A battle played through a club server takes its seed from the server's
-- secret and every seat's nonce (`xenolog_engine::fair`). The commitment and
-- the nonces are part of the battle (its meta and hash chain). The secret is
-- held only by the server's own copy until the battle ends (`revealed` = 0:
-- never exported, never sent); a player's copy has it only once revealed.
-- Rows are only ever added; `secret` and `revealed` only ever go from unset
-- to set. A battle with no row here has an ordinary seed, as every battle
-- before this migration.
CREATE TABLE fair_seeds (
    battle     INTEGER PRIMARY KEY REFERENCES battles(id),
    scheme     INTEGER NOT NULL,
    commitment BLOB    NOT NULL CHECK (length(commitment) = 32),
    secret     BLOB             CHECK (secret IS NULL OR length(secret) = 32),
    revealed   INTEGER NOT NULL DEFAULT 0 CHECK (revealed = 0 OR secret IS NOT NULL)
);

CREATE TABLE seat_nonces (
    battle INTEGER NOT NULL REFERENCES fair_seeds(battle),
    seat   INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 254),
    nonce  BLOB    NOT NULL CHECK (length(nonce) = 32),
    absent INTEGER NOT NULL DEFAULT 0,         -- the server drew it: the seat never joined
    PRIMARY KEY (battle, seat)
);
